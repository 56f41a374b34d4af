import { loadCatalogue } from "../clauses/catalogue.js";
import { judgeClauses, type JudgedClauses } from "../report/judge.js";
import type { ClauseResult } from "../report/types.js";
import { interruptReason } from "../interrupt.js";
import { runTimeoutReason } from "../run-timeout.js";
import { modelCause, neverAnsweredCause } from "./causes.js";
import { agentCliChecks } from "./checks/index.js";
import { processesOf, type AgentRun } from "./checks/helpers.js";
import { REFUSAL_FLAGS, refusalWords, refusedViews } from "./checks/refusals.js";
import { failureNotes } from "./checks/failures.js";
import { ignoredEvents, silenceNotes } from "./checks/output.js";
import { SCENARIO_NAMES, SCENARIOS, type ScenarioStop } from "./scenarios.js";
import { DEFAULT_OUTPUT_BUDGET_MIB, RUN_BUDGET_WHAT, STDOUT_CAP_NOTE_END } from "./types.js";

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

/**
 * The reason every unjudged clause shares when every launched process refused to start
 * (checks/refusals.ts): what the first one answered and what its stderr said.
 */
export function startCause(run: AgentRun): string | undefined {
  const hosted = run.transcripts.filter((t) => t.stdoutOnly !== true);
  const views = hosted.flatMap((transcript) => processesOf(transcript).map((view) => ({ transcript, view })));
  const refused = refusedViews(run);
  const first = views[0];
  if (first === undefined || !views.every(({ view }) => refused.has(view))) return undefined;
  const who = views.length === 1 ? "its one launch" : `every launch (${views.length})`;
  // A run of the mcp scenario alone has no launch without the flag to compare with.
  const flag = REFUSAL_FLAGS.find((f) => views.every(({ view }) => view.argv.includes(f)));
  const compare = flag === undefined ? "" : `; every launch carried ${flag}: run the basic scenario too, so the kit can tell whether ${flag} is the cause`;
  return `the CLI refused to start: ${who} ended before serving a turn (see agent-cli/session/stays-up); ${refusalWords(first.transcript, first.view)}${compare}: fix the launch (arguments, --mode, environment) until it serves a turn`;
}

/** The options that make an agent-cli run smaller. */
const NARROWER = "--scenario, --clause";

/** Why the kit ran none of a scenario's later steps, in the words of a skip reason. */
export function stopReason(stop: ScenarioStop, run: Pick<AgentRun, "runTimeoutMs">): string {
  if (stop.cause === "interrupted") return interruptReason(stop.signal ?? "SIGINT", `before the ${stop.scenario} scenario ${stop.started ? "finished" : "started"}`);
  if (stop.cause === "run-timeout") return runTimeoutReason(run.runTimeoutMs ?? 0, `before the ${stop.scenario} scenario ${stop.started ? "finished" : "started"}`, NARROWER);
  if (stop.cause === "never-answered") return `the kit stopped the ${stop.scenario} scenario ${stop.started ? "early" : "before it started"}: the CLI had answered no turn of any scenario (see agent-cli/turns/one-terminal-per-turn)`;
  const bound = stop.bound ?? "--turn-timeout";
  return `the CLI did not answer ${stop.turn ?? "a turn"} of scenario ${stop.scenario} within ${stop.waitedMs ?? "?"} ms (${bound}), so the kit ran none of its later steps: make the CLI answer that turn (see agent-cli/turns/one-terminal-per-turn), or raise ${bound} if it is only slow`;
}

const judges = (scenario: ScenarioStop["scenario"], id: string): boolean => SCENARIOS[scenario].judges.some((prefix) => id === prefix || id.startsWith(`${prefix}/`));

/** The first stopped scenario, in the kit's order, that would have judged this clause. */
function stopFor(id: string, stops: readonly ScenarioStop[]): ScenarioStop | undefined {
  return SCENARIO_NAMES.map((name) => stops.find((s) => s.scenario === name)).find((s) => s !== undefined && judges(s.scenario, id));
}

/**
 * The cause that ended the run early or left nearly all of it unjudged, for the first lines
 * of the report: a refused start, a CLI that never answered a turn, an interruption, or --run-timeout.
 */
export function haltCause(run: AgentRun): string | undefined {
  const start = run.notLaunched ?? startCause(run);
  if (start !== undefined) return start;
  const never = neverAnsweredCause(run.transcripts, run.turnTimeoutMs);
  if (never !== undefined) return never;
  const interruption = (run.stops ?? []).find((s) => s.cause === "interrupted");
  if (interruption !== undefined) return interruptReason(interruption.signal ?? "SIGINT", "before every scenario finished");
  if ((run.stops ?? []).some((s) => s.cause === "run-timeout")) return runTimeoutReason(run.runTimeoutMs ?? 0, "before every scenario finished", NARROWER);
  return undefined;
}

/**
 * Run-level causes override the reasons of clauses they left unjudged, so one cause shows
 * as one reason; a judged clause (pass or fail) keeps its own verdict. In order: a refused
 * start, a CLI that never answered (both also replace not-applicable: nothing was seen),
 * no model exchange, then the scenarios the kit stopped early (skips only).
 */
function applyCauses(results: ClauseResult[], run: AgentRun): ClauseResult[] {
  const start = run.notLaunched ?? startCause(run);
  const never = start === undefined ? neverAnsweredCause(run.transcripts, run.turnTimeoutMs) : undefined;
  const model = modelCause(run.transcripts);
  const stops = run.stops ?? [];
  return results.map((r) => {
    if (r.status === "pass" || r.status === "fail") return r;
    if (start !== undefined && !START_CLAUSES.test(r.id)) return { ...r, status: "skip", reason: start };
    if (never !== undefined && !START_CLAUSES.test(r.id)) return { ...r, status: "skip", reason: never };
    if (model !== undefined && (MODEL_CLAUSES as readonly string[]).includes(r.id)) return { ...r, status: "skip", reason: model };
    const stop = r.status === "skip" ? stopFor(r.id, stops) : undefined;
    if (stop !== undefined) return { ...r, reason: stopReason(stop, run) };
    return r;
  });
}

/** Which scenarios had a process the kit stopped for printing too much on stdout, and why: such a scenario's verdicts show a process the kit ended. */
export function stdoutCapNotes(run: Pick<AgentRun, "transcripts">): string[] {
  const capped = run.transcripts.flatMap((t) => t.events.flatMap((e) => (e.kind === "note" && e.text.endsWith(STDOUT_CAP_NOTE_END) ? [{ scenario: t.scenario, text: e.text }] : [])));
  const first = capped[0];
  if (first === undefined) return [];
  const scenarios = [...new Set(capped.map((c) => c.scenario))];
  return [`the kit stopped ${capped.length} process${capped.length === 1 ? "" : "es"} for what ${capped.length === 1 ? "it" : "they"} printed on stdout (${first.text.slice(0, -STDOUT_CAP_NOTE_END.length)}), in ${scenarios.join(", ")}: what came after was not recorded, and those scenarios' verdicts show a process the kit ended; make the CLI print less on stdout (diagnostics belong on stderr)`];
}

/**
 * Where a process passed the run's stdout budget (the kit's bound, not the contract's): the
 * scenarios, and why, or undefined when none did. Those scenarios are not judged (a process
 * the kit ended for its own memory's sake is no evidence against the CLI), and since they
 * could have shown a failure, no other verdict may stand as a pass: the run is incomplete.
 */
export function budgetCause(run: Pick<AgentRun, "transcripts">): { scenarios: string[]; reason: string; limit: string } | undefined {
  const hits = run.transcripts.flatMap((t) => t.events.flatMap((e) => (e.kind === "note" && e.text.endsWith(STDOUT_CAP_NOTE_END) && e.text.includes(RUN_BUDGET_WHAT) ? [{ scenario: t.scenario, text: e.text }] : [])));
  const first = hits[0];
  if (first === undefined) return undefined;
  const scenarios = [...new Set(hits.map((h) => h.scenario))];
  const passed = first.text.slice(0, -STDOUT_CAP_NOTE_END.length);
  // The limit alone ("stdout passed 4194304 bytes"), for a caller that says whose budget it was itself.
  const limit = passed.replace(`, ${RUN_BUDGET_WHAT}`, "");
  return { scenarios, limit, reason: `the CLI printed more on stdout than the kit records in one run (${passed}) in ${scenarios.join(", ")}: the kit stopped recording and ended the process there, so it judged neither those scenarios nor the run as a whole; raise the budget with --output-budget MIB (default ${DEFAULT_OUTPUT_BUDGET_MIB})` };
}

/** Judges every selected clause of suites/agent-cli/ on a run (live or recorded). */
export function judgeAgentRun(run: AgentRun, selected: (id: string) => boolean = () => true): JudgedClauses & { notes: string[]; halted?: string } {
  const budget = budgetCause(run);
  const judgedRun = budget === undefined ? run : { ...run, transcripts: run.transcripts.filter((t) => !budget.scenarios.includes(t.scenario)) };
  const judged = judgeClauses(loadCatalogue("agent-cli"), agentCliChecks, judgedRun, selected);
  const notes = [...ignoredEvents(run), ...stdoutCapNotes(run)];
  if (selected("agent-cli/output/silent-before-input")) notes.push(...silenceNotes(judgedRun));
  if (selected("agent-cli/failures/model-error") || selected("agent-cli/failures/model-stall")) notes.push(...failureNotes(judgedRun));
  const halted = haltCause(judgedRun) ?? budget?.reason;
  let results = applyCauses(judged.results, judgedRun);
  // What the other scenarios failed stands; nothing else can be called a pass.
  if (budget !== undefined) results = results.map((r) => (r.status === "fail" ? r : { ...r, status: "skip" as const, reason: budget.reason, judged: 0, findings: [] }));
  return { ...judged, results, notes, ...(halted !== undefined ? { halted } : {}) };
}
