import { loadCatalogue } from "../clauses/catalogue.js";
import { judgeClauses, type JudgedClauses } from "../report/judge.js";
import type { ClauseResult } from "../report/types.js";
import { decisiveStderrLine, exitedAtStart, modelCause } from "./causes.js";
import { agentCliChecks } from "./checks/index.js";
import { processesOf, type AgentRun } from "./checks/helpers.js";
import { failureNotes } from "./checks/failures.js";
import { ignoredEvents, silenceNotes } from "./checks/output.js";

/** Clauses that can only be judged on a model exchange: skipped with one shared reason when the CLI never reached the fixture. */
export const MODEL_CLAUSES = [
  "agent-cli/input/text-block",
  "agent-cli/input/image-block",
  "agent-cli/input/document-block",
  "agent-cli/input/unsupported-block",
  "agent-cli/input/mcp-config",
  "agent-cli/fidelity/streamed-text",
  "agent-cli/fidelity/result-text",
  "agent-cli/failures/model-error",
  "agent-cli/failures/model-stall",
  "agent-cli/turns/tool-use",
  "agent-cli/turns/terminal-in-order",
  "agent-cli/resume/history-restored",
] as const;

/** Clauses judged before, or about, the start itself: a refused start does not make them unjudgeable. */
const START_CLAUSES = /^agent-cli\/(launch\/|session\/stays-up$)/;

/** The reason every unjudged clause shares when no launched process got past its first turn. */
export function startCause(run: AgentRun): string | undefined {
  const hosted = run.transcripts.filter((t) => t.stdoutOnly !== true);
  const views = hosted.flatMap((transcript) => processesOf(transcript).map((view) => ({ transcript, view })));
  if (views.length === 0 || !views.every(({ view }) => exitedAtStart(view))) return undefined;
  const first = views[0];
  const line = first === undefined ? undefined : decisiveStderrLine(first.transcript, first.view.process);
  return `the CLI exited at start, before answering its first turn (see agent-cli/session/stays-up)${line !== undefined ? `; stderr says: ${line}` : ""}: fix the launch (arguments, --mode, environment) until it serves a turn`;
}

/**
 * Run-level causes override the reasons of clauses they left unjudged, so one cause shows
 * as one reason; a judged clause (pass or fail) keeps its own verdict.
 */
function applyCauses(results: ClauseResult[], run: AgentRun): ClauseResult[] {
  const start = run.notLaunched ?? startCause(run);
  const model = modelCause(run.transcripts);
  return results.map((r) => {
    if (r.status === "pass" || r.status === "fail") return r;
    if (start !== undefined && !START_CLAUSES.test(r.id)) return { ...r, status: "skip", reason: start };
    if (model !== undefined && (MODEL_CLAUSES as readonly string[]).includes(r.id)) return { ...r, status: "skip", reason: model };
    return r;
  });
}

/** Judges every selected clause of suites/agent-cli/ on a run (live or recorded). */
export function judgeAgentRun(run: AgentRun, selected: (id: string) => boolean = () => true): JudgedClauses & { notes: string[] } {
  const judged = judgeClauses(loadCatalogue("agent-cli"), agentCliChecks, run, selected);
  const notes = [...ignoredEvents(run)];
  if (selected("agent-cli/output/silent-before-input")) notes.push(...silenceNotes(run));
  if (selected("agent-cli/failures/model-error") || selected("agent-cli/failures/model-stall")) notes.push(...failureNotes(run));
  return { ...judged, results: applyCauses(judged.results, run), notes };
}
