import { loadCatalogue } from "../core/clauses/catalogue.js";
import { KitError } from "../core/errors.js";
import { interrupted, interruptReason, untilInterrupted } from "../core/interrupt.js";
import { isDigestDialect } from "../core/json/index.js";
import { buildReport } from "../core/report/build.js";
import type { ClauseResult, Protocol, RunReport } from "../core/report/types.js";
import { fuzzAgentCli, FUZZ_AGENT_CLAUSES } from "../fuzz/agent-cli/index.js";
import { fuzzedResult, withFuzzSection, type FuzzOutcome } from "../fuzz/merge.js";
import { prepareProviderFuzz } from "../fuzz/prepare.js";
import { FUZZ_PROVIDER_CLAUSES, fuzzProvider } from "../fuzz/provider-run.js";
import { replayCommandLine, replayFileOf, writeReplay, type ReplayCandidate } from "../fuzz/replay.js";
import type { FuzzBudget, FuzzFailure } from "../fuzz/types.js";
import { budgetRuns } from "../fuzz/budget.js";
import { FuzzProgress } from "./fuzz-progress.js";
import { DEFAULT_PROVIDER_JOBS } from "../runner/provider/jobs.js";
import { Corpus } from "../fuzz/corpus-run.js";
import { caseRange, shardOf } from "../core/report/shard.js";

export { shardOf };
import { readLaunch, readOutputBudget } from "./agent-options.js";
import { DEFAULT_OUTPUT_BUDGET_MIB } from "../core/agent-cli/types.js";
import { resolveCandidate } from "./candidate.js";
import { readProviderConfigs } from "./provider-options.js";
import { readAgainst, startDifferential } from "./fuzz-against.js";
import { differentialLine } from "../core/report/differential.js";
import type { FuzzArgs, RunArgs } from "./run-args.js";

export type { FuzzArgs };

export function fuzzBudget(args: FuzzArgs, defaultRuns: number): FuzzBudget {
  // --fuzz-time alone is a time box: cases until then (budget.ts).
  const { runs, timeBoxed } = budgetRuns(args.fuzzRuns, args.fuzzTime, defaultRuns);
  if (!Number.isInteger(runs) || runs < 1) throw new KitError("usage", "--fuzz-runs must be a positive integer");
  if (args.fuzzTime !== undefined && !(args.fuzzTime > 0)) throw new KitError("usage", "--fuzz-time must be a positive number of seconds");
  const shard = shardOf(args);
  if (shard !== undefined && timeBoxed) throw new KitError("usage", "--shard with --fuzz-time needs --fuzz-runs too: the shards split a fixed number of generated cases (give each the same --fuzz-runs and --seed)");
  // Every shard must generate the same sequence to run its slice of it.
  if (shard !== undefined && args.seed === undefined) throw new KitError("usage", "--shard with fuzzing needs --seed: every shard must generate the same cases (give each the same --seed)");
  const seed = args.seed ?? (Date.now() ^ (process.pid << 8)) >>> 0;
  if (!Number.isInteger(seed)) throw new KitError("usage", "--seed must be an integer");
  return { runs, ...(timeBoxed ? { timeBoxed } : {}), seed, jobs: args.jobs ?? DEFAULT_PROVIDER_JOBS, ...(args.fuzzTime !== undefined ? { timeSeconds: args.fuzzTime } : {}), ...(shard !== undefined ? { cases: caseRange(runs, shard) } : {}) };
}

function writeReplays(failures: FuzzFailure[], candidate: ReplayCandidate, outDir: string): void {
  for (const failure of failures) {
    failure.file = writeReplay(outDir, replayFileOf({ clause: failure.clause, message: failure.finding.message, seed: failure.seed, path: failure.path, candidate, replay: failure.replay }));
    failure.reproduce = replayCommandLine(failure.file, candidate);
    process.stdout.write(`fuzz: ${failure.clause} — ${failure.finding.message}\n  seed ${failure.seed}, path ${failure.path}\n  replay: ${failure.reproduce}\n`);
  }
}

/** Generates, runs and shrinks fuzz cases against the candidate; replay files land in outDir/replays. */
export async function fuzzPhase(protocol: Protocol, args: RunArgs & FuzzArgs, budget: FuzzBudget, outDir: string, dialect?: string): Promise<FuzzOutcome & { skipped?: string }> {
  if (protocol === "provider") {
    const argv = [resolveCandidate(args.candidate ?? ""), ...args.rest];
    const { config } = readProviderConfigs(args);
    const value = config ?? { value: {}, document: "{}" };
    const budgetMs = args.budget ?? 5000;
    const timeoutMs = args.timeout ?? budgetMs + 1000;
    const other = args.against === undefined ? undefined : readAgainst(args, value, timeoutMs);
    const ctx = await untilInterrupted(prepareProviderFuzz(argv, value, budgetMs, timeoutMs));
    if (ctx === undefined) return { clauses: FUZZ_PROVIDER_CLAUSES, cases: 0, calls: 0, seed: budget.seed, failures: [], unit: "request", skipped: "the kit was interrupted before fuzzing started" };
    if ("reason" in ctx) return { clauses: FUZZ_PROVIDER_CLAUSES, cases: 0, calls: 2, seed: budget.seed, failures: [], unit: "request", skipped: ctx.reason };
    // Bound in the dialect the fixed suite found the Provider verifies (fuzz cases are resent in another one on refusal anyway).
    const target = { argv, config: value.value, timeoutMs, ...(dialect !== undefined && isDigestDialect(dialect) ? { dialect } : {}) };
    const candidate: ReplayCandidate = { argv, config: value.value, configDocument: value.document, timeoutMs };
    // --against: the other provider gets the fixed calls now and every case beside the candidate (fuzz-against.ts).
    const differential = other === undefined ? undefined : await startDifferential(args, other, { target, replay: candidate, config: value });
    const corpus = args.corpus === undefined ? undefined : Corpus.open(args.corpus, "provider", candidate, budget.seed);
    await untilInterrupted(corpus?.replayProvider(target, budget.jobs, shardOf(args), budget.timeSeconds));
    const result = await fuzzProvider(differential === undefined ? ctx : { ...ctx, configFocus: true }, target, budget, { progress: FuzzProgress.forStderr(args.quiet, protocol), ...(corpus !== undefined ? { onResult: corpus.onProviderCase } : {}), ...(differential !== undefined ? { alongside: differential.run.alongside } : {}) });
    writeReplays(result.failures, candidate, outDir);
    corpus?.keepFailures(result.failures);
    const compared = differential === undefined ? {} : { differential: await differential.finish({ ...ctx, configFocus: true }, budget, outDir) };
    return { clauses: FUZZ_PROVIDER_CLAUSES, cases: result.cases, calls: result.calls + (corpus?.calls ?? 0), seed: budget.seed, failures: result.failures, unit: "request", coverage: result.coverage, tally: result.tally, ...corpusPart(corpus), ...emptySlice(budget), ...compared };
  }
  const { config } = readLaunch(args);
  const turnTimeoutMs = args.turnTimeout ?? 10_000;
  const candidate: ReplayCandidate = { argv: [config.executable, ...config.prefixArgs], mode: config.mode, model: config.model, env: config.env, turnTimeoutMs };
  const corpus = args.corpus === undefined ? undefined : Corpus.open(args.corpus, "agent-cli", candidate, budget.seed);
  await untilInterrupted(corpus?.replayAgent({ config, turnTimeoutMs }, budget.jobs, shardOf(args), budget.timeSeconds));
  const outputBudgetMib = readOutputBudget(args.outputBudget);
  const ctx = { config, turnTimeoutMs, ...(outputBudgetMib !== undefined ? { outputBudgetMib } : {}) };
  const result = await fuzzAgentCli(ctx, budget, undefined, { progress: FuzzProgress.forStderr(args.quiet, protocol), ...(corpus !== undefined ? { onSession: corpus.onAgentSession } : {}) });
  writeReplays(result.failures, candidate, outDir);
  corpus?.keepFailures(result.failures);
  const cut = result.cut === undefined ? {} : { cut: cutReason(result.cut, result.runs, outputBudgetMib) };
  const notes = result.restExits === undefined ? {} : { notes: [restExitNote(result.restExits, result.runs)] };
  return { clauses: FUZZ_AGENT_CLAUSES, cases: result.runs, calls: result.calls + (corpus?.calls ?? 0), seed: budget.seed, failures: result.failures, unit: "session", coverage: result.coverage, tally: result.tally, ...cut, ...notes, ...corpusPart(corpus), ...emptySlice(budget) };
}

/** Sessions whose process ended on its own with no turn pending: seen, and said, but judged by no clause. */
function restExitNote(rest: { sessions: number; first: string }, runs: number): string {
  return `Fuzzing: in ${rest.sessions} of ${runs} sessions the process exited on its own with no turn pending (the first ${rest.first}), so the session's later steps had nowhere to go. No fuzzed clause judges an exit at rest: an exit before the first answered turn is agent-cli/session/stays-up (the fixed suite's, in run), one after a malformed line agent-cli/input/survives-malformed-line, one during a turn agent-cli/turns/no-exit-mid-turn.`;
}

/** Why the fuzzed clauses cannot pass when sessions were ended for the output budget. */
function cutReason(cut: { sessions: number; passed: string }, runs: number, mib: number | undefined): string {
  const budget = `--output-budget ${mib ?? DEFAULT_OUTPUT_BUDGET_MIB} MiB${mib === undefined ? ", the default" : ""}`;
  // `passed` is what the kit's guard says: "stdout passed N bytes" (or lines, or JSON values).
  return `the CLI printed more on stdout than the kit records of one fuzzed session (${cut.passed}; ${budget}) in ${cut.sessions} of ${runs} sessions: the kit stopped recording, ended the process there and judged only what had already failed, so no fuzzed clause can pass; make the CLI print less on stdout or raise --output-budget`;
}

/** A shard whose slice of the cases is empty says so (its fuzzed clauses are skipped; merge takes the other shards' verdicts). */
function emptySlice(budget: FuzzBudget): { skipped?: string } {
  const cases = budget.cases;
  return cases !== undefined && cases.to <= cases.from ? { skipped: `this shard holds none of the ${budget.runs} generated cases (--fuzz-runs is smaller than the number of shards)` } : {};
}

function corpusPart(corpus: Corpus | undefined): Pick<FuzzOutcome, "corpus"> {
  if (corpus === undefined) return {};
  const summary = corpus.summary();
  if (summary.cut !== undefined) process.stderr.write(`awp-conformance: ${summary.cut}\n`);
  return { corpus: { findings: corpus.findings, summary } };
}

/**
 * The report of a fuzz-only run: the clauses fuzzing judges, each as its cases judged it (see
 * fuzzedResult): passed only when a case judged it. Interrupted, or with no case run, what
 * failed stands and the rest is skipped for that reason.
 */
export function fuzzOnlyReport(protocol: Protocol, argv: string[], outcome: FuzzOutcome & { skipped?: string }, startedAt: Date, secrets: string[]): RunReport {
  const fuzzed = new Set(outcome.clauses);
  const signal = interrupted();
  const halted = signal === undefined ? undefined : interruptReason(signal, `while fuzzing, after ${outcome.cases} cases`);
  const none = halted ?? outcome.skipped ?? ((outcome.tally?.cases ?? 0) === 0 ? "no case was run" : undefined);
  const results = loadCatalogue(protocol)
    .filter((c) => fuzzed.has(c.id))
    .map((c): ClauseResult => {
      const result = fuzzedResult(c, undefined, outcome);
      return none === undefined || result.status === "fail" ? result : { id: c.id, level: c.level, title: c.title, status: "skip", reason: none, judged: 0, findings: [] };
    });
  const base = buildReport({
    protocol,
    argv,
    startedAt,
    endedAt: new Date(),
    options: { fuzz: { seed: outcome.seed, cases: outcome.cases, calls: outcome.calls } },
    selection: { clause: [], skip: [] },
    results,
    deselected: loadCatalogue(protocol).length - results.length,
    notes: outcome.skipped ? [`Fuzzing could not start: ${outcome.skipped}.`] : [],
    secrets,
    ...(halted !== undefined ? { halted } : {}),
  });
  // Differential fuzzing: the differences go beside the candidate's clauses, redacted with them.
  const compared = outcome.differential === undefined ? base : { ...base, differential: outcome.differential };
  const line = differentialLine(compared);
  return withFuzzSection(line === undefined ? compared : { ...compared, notes: [...compared.notes, line, "The clauses of this report are the candidate's (the first provider's). The other provider's answers are judged on the same clauses case by case (the differential section lists those it failed), but its failures are not shrunk or reported as clause results: run `awp-conformance fuzz` on it for its own verdict."] }, outcome, secrets);
}
