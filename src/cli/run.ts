import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { KitError } from "../core/errors.js";
import { DEFAULT_RUN_TIMEOUT_MS } from "../core/run-timeout.js";
import { handleInterrupts, interrupted, interruptReason } from "../core/interrupt.js";
import type { RunReport } from "../core/report/types.js";
import { exitCodeFor, worseExitCode, type VerdictExitCode } from "../core/report/judge.js";
import { makeRedactor, redactDeep } from "../core/report/redact.js";
import { summaryLine } from "../reporters/console.js";
import { readBounds, readLaunch, readOutputBudget, readRunTimeout, scenarioNames } from "./agent-options.js";
import { readManaged } from "./managed-options.js";
import { bundledToRun, candidateOptionsGiven, noCandidate, type BundledCandidate } from "./bundled.js";
import { loadCatalogue } from "../core/clauses/catalogue.js";
import { checkSelection } from "../core/clauses/patterns.js";
import { resolveCandidate } from "./candidate.js";
import { checkReporters, emitReport } from "./output.js";
import { PhaseLines, Progress, scenarioLine } from "./progress.js";
import { outputArgs, reportFinisher } from "./report-options.js";
import { readProviderConfigs } from "./provider-options.js";
import type { RunArgs } from "./run-args.js";
import { finishShard, shardOf } from "../core/report/shard.js";
import { evidenceOption } from "./evidence-option.js";

export type { RunArgs };

function positive(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new KitError("usage", `${flag} must be a positive integer`);
  return value;
}

interface SuiteRun {
  report: RunReport;
  /** --shard: clauses left to other shards (dropped once fuzzing had its say). */
  elsewhere: string[];
}

async function runProvider(args: RunArgs, outDir: string, progress: Progress): Promise<SuiteRun> {
  if (args.candidate === undefined) throw new KitError("usage", "give the provider executable");
  const argv = [resolveCandidate(args.candidate), ...args.rest];
  const configs = readProviderConfigs(args);
  const timeoutMs = positive(args.timeout, "--timeout");
  const budgetSlackMs = positive(args.budgetSlack, "--budget-slack");
  const budgetMs = positive(args.budget, "--budget");
  const runTimeoutMs = readRunTimeout(args.runTimeout);
  const jobs = positive(args.jobs, "--jobs");
  const phases = new PhaseLines(progress);
  const shard = shardOf(args);
  // Each protocol's runner loads only for its runs (the agent-cli one brings the model fixtures).
  const [{ runProviderSuite }, { attachReproductions }] = await Promise.all([import("../runner/provider/suite.js"), import("../runner/provider/reproduce.js")]);
  const { report, transcript, elsewhere } = await runProviderSuite({
    argv,
    ...(shard !== undefined ? { shard } : {}),
    ...configs,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(budgetSlackMs !== undefined ? { budgetSlackMs } : {}),
    ...(budgetMs !== undefined ? { budgetMs } : {}),
    ...(runTimeoutMs !== undefined ? { runTimeoutMs } : {}),
    ...(jobs !== undefined ? { jobs } : {}),
    ...evidenceOption(args),
    selection: { clause: args.clause, skip: args.skip },
    onExchange: (e) => phases.exchange(e.purpose, e.seq, e.scenario),
  });
  phases.flush();
  attachReproductions(report, transcript, outDir);
  return { report, elsewhere };
}

async function runAgentCli(args: RunArgs, progress: Progress): Promise<SuiteRun> {
  const { config, facts } = readLaunch(args);
  const bounds = readBounds(args);
  const jobs = positive(args.jobs, "--jobs");
  const runTimeoutMs = readRunTimeout(args.runTimeout);
  const outputBudgetMib = readOutputBudget(args.outputBudget);
  const scenarios = scenarioNames(args.scenario);
  const shard = shardOf(args);
  const [{ runAgentCliSuite, secretsOf }, { attachAgentReproductions }] = await Promise.all([import("../runner/agent-cli/suite.js"), import("./agent-reproduce.js")]);
  const { report, run, elsewhere } = await runAgentCliSuite({
    config,
    ...(shard !== undefined ? { shard } : {}),
    facts,
    ...bounds,
    ...readManaged(args),
    ...(jobs !== undefined ? { jobs } : {}),
    ...(runTimeoutMs !== undefined ? { runTimeoutMs } : {}),
    ...(outputBudgetMib !== undefined ? { outputBudgetMib } : {}),
    ...(args.home !== undefined ? { home: args.home } : {}),
    ...(scenarios !== undefined ? { scenarios } : {}),
    ...evidenceOption(args),
    selection: { clause: args.clause, skip: args.skip },
    onScenario: (name, _transcript, outcome) => progress.finished(scenarioLine(config.mode, name, outcome)),
  });
  attachAgentReproductions(report, args);
  // The reproduce lines repeat the launch options: the same secrets stay out of them.
  return { report: redactDeep(report, makeRedactor(secretsOf(run))), elsewhere };
}

async function runOne(args: RunArgs, outDir: string): Promise<{ report: RunReport; code: VerdictExitCode }> {
  if (args.protocol !== "provider" && args.protocol !== "agent-cli") throw new KitError("usage", "give --protocol provider or --protocol agent-cli");
  checkReporters(args.reporter);
  const finisher = reportFinisher(args);
  const progress = Progress.forStderr(args.quiet);
  const deadline = performance.now() + (readRunTimeout(args.runTimeout) ?? DEFAULT_RUN_TIMEOUT_MS);
  const shard = shardOf(args);
  // Fuzz options are checked before the suite runs, so a mistake costs nothing.
  if (args.fuzzRuns !== undefined || args.fuzzTime !== undefined) (await import("./fuzz.js")).fuzzBudget(args, 1);
  else if (args.corpus !== undefined) throw new KitError("usage", "--corpus keeps fuzz cases: give --fuzz-runs or --fuzz-time too (run fuzzes only then)");
  let report: RunReport;
  let elsewhere: string[];
  try {
    ({ report, elsewhere } = args.protocol === "provider" ? await runProvider(args, outDir, progress) : await runAgentCli(args, progress));
  } finally {
    progress.done();
  }
  const fuzzing = args.fuzzRuns !== undefined || args.fuzzTime !== undefined;
  // Interrupted during the fixed suite, its report says so already; after it, fuzzing does not start.
  let where = fuzzing ? "before fuzzing" : "as the run ended";
  if (fuzzing && interrupted() === undefined) {
    // The fuzzers (fast-check, json-schema-faker) load only for a run that fuzzes.
    const [{ fuzzBudget, fuzzPhase }, { mergeFuzz }, { secretsOf: providerSecrets }, { casesSoFar }] = await Promise.all([import("./fuzz.js"), import("../fuzz/merge.js"), import("../core/provider/config.js"), import("../fuzz/budget.js")]);
    // Fuzz findings join the fixed scenarios' under their clauses.
    const full = fuzzBudget(args, args.protocol === "provider" ? 100 : 10);
    // Fuzzing gets what --run-timeout leaves of the run (at least a second).
    const left = Math.max(1, (deadline - performance.now()) / 1000);
    const budget = { ...full, timeSeconds: Math.min(full.timeSeconds ?? left, left) };
    const outcome = await fuzzPhase(args.protocol, args, budget, outDir, report.digestDialect?.bound);
    const secrets = args.protocol === "provider" ? providerSecrets(readProviderConfigs(args).config?.value ?? {}) : [];
    report = mergeFuzz(report, outcome, secrets);
    if (outcome.skipped !== undefined) report = { ...report, notes: [...report.notes, `Fuzzing could not start: ${outcome.skipped}.`] };
    if (report.shard !== undefined && budget.cases !== undefined) report = { ...report, shard: { ...report.shard, cases: budget.cases } };
    where = `while fuzzing, ${casesSoFar(outcome.cases, budget)}`;
  }
  const signal = interrupted();
  if (signal !== undefined && report.halted === undefined) report = { ...report, halted: interruptReason(signal, where) };
  // The kit's own example says so in every report format, never to be taken for the user's candidate.
  if (args.bundled !== undefined) report = { ...report, candidate: { ...report.candidate, bundled: args.bundled } };
  if (shard !== undefined) report = finishShard(report, elsewhere);
  report = finisher.finish(report);
  await emitReport(report, { reporters: args.reporter, outDir, color: args.color, ...outputArgs(args) });
  // --baseline: the diff against an earlier run follows the summary and decides the exit code (baseline.ts).
  if (args.baseline !== undefined) {
    const { compareWithBaseline } = await import("./baseline.js");
    return { report, code: compareWithBaseline(report, { ...args, baseline: args.baseline }, outDir) };
  }
  return { report, code: exitCodeFor(report.summary) };
}

function bundledArgs(args: RunArgs, candidate: BundledCandidate): RunArgs {
  const { argv, protocol, name, ...rest } = candidate;
  const [candidatePath, ...candidateArgs] = argv;
  return { ...args, ...rest, protocol, bundled: name, rest: candidateArgs, ...(candidatePath !== undefined ? { candidate: candidatePath } : {}) };
}

/**
 * `awp-conformance run`: one candidate, or the bundled examples when no candidate is given and
 * no option configures one (bundled.ts: CANDIDATE_OPTIONS); such an option without a candidate
 * (an unset CI variable) is a usage error, never a run of the kit's own examples.
 */
export async function runCommand(args: RunArgs): Promise<number> {
  const outRoot = args.out ?? "reports";
  const selection = { clause: args.clause, skip: args.skip };
  if (args.candidate === "") throw new KitError("usage", "no candidate given: the candidate argument is empty (an unset variable?)");
  if (args.candidate !== undefined || args.fromEnv === true) {
    if (args.protocol === "provider" || args.protocol === "agent-cli") {
      checkSelection(selection, loadCatalogue(args.protocol).map((c) => c.id), `the ${args.protocol} catalogue`, [`awp-conformance list --protocol ${args.protocol}`]);
    }
    // Interrupted (Ctrl-C, SIGTERM), what was judged is reported (core/interrupt.ts).
    handleInterrupts();
    return (await runOne(args, outRoot)).code;
  }
  const given = candidateOptionsGiven(args);
  if (given.length > 0) throw noCandidate(given);
  const examples = bundledToRun(selection);
  handleInterrupts();
  let worst: VerdictExitCode = 0;
  const lines: string[] = [];
  for (const candidate of examples) {
    // Interrupted, the examples not started yet are not run (the one that was has its report).
    if (interrupted() !== undefined) break;
    const { report, code } = await runOne(bundledArgs(args, candidate), join(outRoot, candidate.name));
    lines.push(`${candidate.name}: ${summaryLine(report)} (${join(outRoot, candidate.name, "report.json")})`);
    worst = worseExitCode(worst, code);
  }
  process.stdout.write(`\nBundled examples:\n${lines.map((l) => `  ${l}`).join("\n")}\n`);
  return worst;
}
