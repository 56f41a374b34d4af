import { sessionWire, type AgentRun } from "../../core/agent-cli/checks/helpers.js";
import { agentCliChecks } from "../../core/agent-cli/checks/index.js";
import { loadCatalogue } from "../../core/clauses/catalogue.js";
import { passEvidenceCutNote, withPassEvidence } from "../../core/report/pass-evidence.js";
import type { ClauseResult } from "../../core/report/types.js";

/** --evidence all on an agent-cli run: each pass with the session of the first scenario that passes it alone; notes when the total bound left some without. */
export function agentPassEvidence(results: readonly ClauseResult[], run: AgentRun): { results: ClauseResult[]; notes: string[] } {
  const units = run.transcripts.map((t) => ({ subject: { ...run, transcripts: [t] }, scenario: `${t.scenario} (${t.mode})`, wire: () => sessionWire(t) }));
  const found = withPassEvidence(results, { clauses: loadCatalogue("agent-cli"), checks: agentCliChecks, empty: { ...run, transcripts: [] }, units });
  return { results: found.results, notes: passEvidenceCutNote(found.cut) };
}
