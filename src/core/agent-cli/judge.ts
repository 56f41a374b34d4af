import { loadCatalogue } from "../clauses/catalogue.js";
import { judgeClauses, type JudgedClauses } from "../report/judge.js";
import { agentCliChecks } from "./checks/index.js";
import type { AgentRun } from "./checks/helpers.js";
import { failureNotes } from "./checks/failures.js";
import { ignoredEvents, silenceNotes } from "./checks/output.js";

/** Judges every selected clause of suites/agent-cli/ on a run (live or recorded). */
export function judgeAgentRun(run: AgentRun, selected: (id: string) => boolean = () => true): JudgedClauses & { notes: string[] } {
  const judged = judgeClauses(loadCatalogue("agent-cli"), agentCliChecks, run, selected);
  const notes = [...ignoredEvents(run)];
  if (selected("agent-cli/output/silent-before-input")) notes.push(...silenceNotes(run));
  if (selected("agent-cli/failures/model-error") || selected("agent-cli/failures/model-stall")) notes.push(...failureNotes(run));
  return { ...judged, notes };
}
