/**
 * The agent-cli fuzzer: fast-check model-based sessions, each one live launch of the
 * candidate with its own fixture and folders, `jobs` of them at once; the first failing
 * session (by index) is shrunk to the smallest step list that still breaks a clause, and
 * steps can be replayed.
 */
import fc from "fast-check";
import type { Transcript } from "../../core/agent-cli/types.js";
import { interrupted, onInterrupt } from "../../core/interrupt.js";
import type { ClauseResult, Finding } from "../../core/report/types.js";
import { CaseStream } from "../cases.js";
import { poolOf } from "../pool.js";
import type { AgentStep, CoverageSummary, FuzzBudget, FuzzFailure, FuzzProgressHook } from "../types.js";
import { sessionArb, stepsOfCounterexample, type SessionModel } from "./commands.js";
import { AgentCoverage } from "./coverage.js";
import { FUZZ_AGENT_CLAUSES } from "./judge.js";
import { AgentFuzzViolation, FuzzSession, type AgentFuzzContext } from "./session.js";
import { ClauseTally, type TallyData } from "../tally.js";
import { isEnding } from "./steps.js";

/** Longest generated step sequence when the context does not say (most sessions have at most 8). */
export const DEFAULT_MAX_COMMANDS = 40;

/**
 * Sessions one shrink may run (the failing one itself included). Shrinking usually needs a
 * few dozen; the bound keeps a failure whose parts trade off against each other (the bytes of
 * several text blocks) from running for many minutes, and, being a count, gives the same
 * shrunk steps on any machine.
 */
export const MAX_SHRINK_SESSIONS = 150;

/**
 * Replays steps on one launch, judging after every step like the fuzzer does (and once more
 * after the last one); stops at the first step that breaks a clause, or after an ending step.
 * Returns the findings and every fuzzed clause's result of the last judgement. The process is
 * always reaped.
 */
export async function runAgentSteps(steps: readonly AgentStep[], ctx: AgentFuzzContext): Promise<{ transcript: Transcript; findings: Finding[]; results: ClauseResult[] }> {
  const session = await FuzzSession.open(ctx);
  let findings: Finding[] = [];
  try {
    for (const step of steps) {
      await session.perform(step);
      ({ findings } = session.judge());
      if (findings.length > 0 || isEnding(step)) break;
    }
    if (findings.length === 0) {
      await session.settle();
      ({ findings } = session.judge());
    }
  } finally {
    await session.close();
  }
  return { transcript: session.transcript(), findings, results: session.results() };
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

type Commands = Iterable<fc.AsyncCommand<SessionModel, FuzzSession>>;

/** What one live session gave: the steps that ran, the error that ended it (a violation, or a kit error), its clause results, and how it ended. */
interface SessionOutcome {
  executed: AgentStep[];
  error?: unknown;
  /** Every fuzzed clause's result of the session's last judgement. */
  results: ClauseResult[];
  /** The limit it passed when the kit ended it for its output budget. */
  cut?: string;
  /** How the process ended on its own with no turn pending (see restExit). */
  restExit?: string;
}

/** One live session over `commands`. */
async function runSession(ctx: AgentFuzzContext, commands: Commands): Promise<SessionOutcome> {
  const session = await FuzzSession.open(ctx);
  // Interrupted, the kit ends the session's process now (the caller drops the session).
  const offInterrupt = onInterrupt(() => void session.close().catch(() => undefined));
  let error: unknown;
  let cut: string | undefined;
  try {
    await fc.asyncModelRun((): { model: SessionModel; real: FuzzSession } => ({ model: { ended: false }, real: session }), commands);
    await session.settle();
    session.assertConforming();
    cut = session.cut();
  } catch (thrown) {
    error = thrown ?? new Error("a session step threw nothing");
  } finally {
    offInterrupt();
  }
  let rest: string | undefined;
  try {
    rest = session.restExit();
  } finally {
    await session.close();
  }
  return { executed: [...session.executed], results: session.results(), ...(error !== undefined ? { error } : {}), ...(cut !== undefined ? { cut } : {}), ...(rest !== undefined ? { restExit: rest } : {}) };
}

export interface AgentFuzzResult {
  /** Sessions run to find failures (shrinking not counted). */
  runs: number;
  /** Sessions run in all, shrinking included. */
  calls: number;
  failures: FuzzFailure[];
  /** What the counted sessions explored: steps and blocks by kind, sizes by bucket. */
  coverage: CoverageSummary;
  /** Sessions (not failing) the kit ended for its output budget, and the limit the first passed: not judged, so no fuzzed clause passes. */
  cut?: { sessions: number; passed: string };
  /** What the counted sessions judged of each fuzzed clause. */
  tally: TallyData;
  /** Counted sessions whose process ended on its own with no turn pending (no clause judges that), and how the first did. */
  restExits?: { sessions: number; first: string };
}

function violationOf(error: unknown): AgentFuzzViolation {
  if (error instanceof AgentFuzzViolation && error.findings[0] !== undefined) return error;
  throw new Error(`the agent-cli fuzzer could not run a session: ${errorText(error)}`);
}

/**
 * Runs budget.runs sessions from the seed, budget.jobs at a time (each its own launch, fixture
 * and folders), none started after budget.timeSeconds. The first failing session (by index,
 * so the same seed finds the same one at any --jobs) is shrunk with fast-check from its seed
 * and path, within what is left of the time limit; if that runs out first, the failure is
 * reported as found (so it is with `shrink: false`). Every other clause a counted session
 * broke is reported too, from its first session, as it failed (not shrunk).
 */
export async function fuzzAgentCli(ctx: AgentFuzzContext, budget: FuzzBudget, onRun?: (n: number) => void, options: AgentFuzzOptions = {}): Promise<AgentFuzzResult> {
  try {
    return await campaign(ctx, budget, onRun, options);
  } finally {
    options.progress?.end();
  }
}

export interface AgentFuzzOptions {
  shrink?: boolean;
  onSession?: (steps: readonly AgentStep[], index: number, failed: boolean) => void;
  /** Told of every judged session and of shrinking (the CLI's progress line). */
  progress?: FuzzProgressHook;
}

async function campaign(ctx: AgentFuzzContext, budget: FuzzBudget, onRun: ((n: number) => void) | undefined, options: AgentFuzzOptions): Promise<AgentFuzzResult> {
  const arb = sessionArb(ctx.maxCommands ?? DEFAULT_MAX_COMMANDS);
  const deadline = budget.timeSeconds !== undefined ? performance.now() + budget.timeSeconds * 1000 : Infinity;
  const coverage = new AgentCoverage();
  let first: { index: number; executed: AgentStep[]; error: unknown } | undefined;
  /** Each clause's first failing session (by index), as it failed: reported unshrunk when the shrunk failure is another clause's. */
  const firstByClause = new Map<string, { index: number; executed: AgentStep[]; finding: Finding }>();
  let cut: AgentFuzzResult["cut"];
  let restExits: AgentFuzzResult["restExits"];
  const tally = new ClauseTally(FUZZ_AGENT_CLAUSES);
  // A shard runs its slice of the one sequence the seed generates; indices stay those of the whole sequence.
  const { from, to } = budget.cases ?? { from: 0, to: budget.runs };
  // Each session is generated when a job takes it (from fast-check's one run, not the cases before it): a time box has no last one.
  const samples = new CaseStream(arb, budget.seed, from, to);
  const outcomes: (SessionOutcome & { index: number })[] = [];
  let firstFailing = Infinity;
  const failing = new Set<string>();
  await poolOf(samples, Math.min(budget.jobs, to - from), async (commands, index) => {
    const outcome = await runSession(ctx, commands);
    // A session the interruption ended (or that ended after it) is dropped, not judged.
    if (interrupted() !== undefined) return;
    outcomes.push({ ...outcome, index });
    onRun?.(outcomes.length);
    for (const f of outcome.error instanceof AgentFuzzViolation ? outcome.error.findings : []) failing.add(f.clause);
    options.progress?.cases(outcomes.length, failing.size);
    options.onSession?.(outcome.executed, index, outcome.error !== undefined);
    if (outcome.error !== undefined) firstFailing = Math.min(firstFailing, index);
  }, (next) => performance.now() > deadline || interrupted() !== undefined || next > firstFailing);
  // Sessions past the first failing one ran only because they had started before it was known: how many
  // did depends on --jobs, so they are not counted (the same seed gives the same account at any --jobs).
  const counted = outcomes.filter((o) => o.index <= firstFailing).sort((a, b) => a.index - b.index);
  for (const { index, executed, error, results, cut: passed, restExit } of counted) {
    tally.add(results);
    coverage.addSession(executed);
    if (passed !== undefined && error === undefined) cut = { sessions: (cut?.sessions ?? 0) + 1, passed: cut?.passed ?? passed };
    if (restExit !== undefined) restExits = { sessions: (restExits?.sessions ?? 0) + 1, first: restExits?.first ?? restExit };
    if (error !== undefined) first ??= { index, executed, error };
    for (const finding of error instanceof AgentFuzzViolation ? error.findings : []) if (!firstByClause.has(finding.clause)) firstByClause.set(finding.clause, { index, executed, finding });
  }
  const runs = counted.length;
  const cutPart = { tally: tally.data(), ...(cut !== undefined ? { cut } : {}), ...(restExits !== undefined ? { restExits } : {}) };
  if (first === undefined) return { runs, calls: outcomes.length, failures: [], coverage: coverage.summary(), ...cutPart };
  const found = violationOf(first.error);
  // Interrupted: the session as it failed, not shrunk (its replay file still reproduces it).
  const withOthers = (kept: FuzzFailure): FuzzFailure[] => [kept, ...othersThan(kept.clause, firstByClause, budget.seed)];
  if (options.shrink === false || interrupted() !== undefined) return { runs, calls: outcomes.length, failures: withOthers(failureOf(found, budget.seed, String(first.index), first.executed)), coverage: coverage.summary(), ...cutPart };

  let calls = outcomes.length;
  /** Steps that ran in the last failing session: the shrunk counterexample's, once fast-check is done. */
  let lastFailing: AgentStep[] | undefined;
  let tried = 0;
  const property = fc.asyncProperty(arb, async (commands) => {
    // Past the budget every further candidate counts as passing: fast-check keeps the smallest failure so far.
    if (tried++ > MAX_SHRINK_SESSIONS || interrupted() !== undefined) return;
    calls += 1;
    const { executed, error } = await runSession(ctx, commands);
    if (error === undefined) return;
    lastFailing = executed;
    throw error;
  });
  options.progress?.shrinking(found.findings[0]?.clause ?? "the first failing session", 1, 1);
  const left = deadline - performance.now();
  // numRuns 1: the failing session at its path, then its shrinks (never the sessions after it, of which a time box has no end).
  const details = await fc.check(property, { seed: budget.seed, path: String(first.index), numRuns: 1, ...(Number.isFinite(left) ? { interruptAfterTimeLimit: Math.max(1, Math.round(left)) } : {}) });
  // Interrupted while shrinking, a session out was ended by it: what fast-check kept is not trusted.
  const shrunk = interrupted() === undefined && details.failed && details.counterexample !== null && details.counterexamplePath !== null;
  const violation = shrunk ? violationOf(details.errorInstance) : found;
  const fromCommands = shrunk ? stepsOfCounterexample(details.counterexample) : undefined;
  const steps = fromCommands !== undefined && fromCommands.length > 0 ? fromCommands : shrunk ? (lastFailing ?? first.executed) : first.executed;
  const path = shrunk ? (details.counterexamplePath as string) : String(first.index);
  return { runs, calls, failures: withOthers(failureOf(violation, budget.seed, path, steps)), coverage: coverage.summary(), ...cutPart };
}

/**
 * The failures of the other clauses the counted sessions broke, each its first session's, as
 * it failed (not shrunk: only the campaign's first failure is): nothing a session found is
 * lost, and each keeps the steps that replay it.
 */
function othersThan(clause: string, firstByClause: ReadonlyMap<string, { index: number; executed: AgentStep[]; finding: Finding }>, seed: number): FuzzFailure[] {
  return [...firstByClause]
    .filter(([id]) => id !== clause)
    .sort((a, b) => a[1].index - b[1].index)
    .map(([id, { index, executed, finding }]) => ({ clause: id, finding: { ...finding, foundBy: "fuzz" as const }, seed, path: String(index), replay: { protocol: "agent-cli" as const, steps: executed } }));
}

function failureOf(violation: AgentFuzzViolation, seed: number, path: string, steps: AgentStep[]): FuzzFailure {
  const finding = violation.findings[0] as Finding;
  return { clause: finding.clause, finding: { ...finding, foundBy: "fuzz" }, seed, path, replay: { protocol: "agent-cli", steps } };
}
