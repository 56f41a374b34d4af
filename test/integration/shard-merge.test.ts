import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fuzzOnlyReport, fuzzPhase } from "../../src/cli/fuzz.js";
import { emitReport } from "../../src/cli/output.js";
import { merge } from "../../src/core/report/merge.js";
import { caseRange, finishShard, type Shard } from "../../src/core/report/shard.js";
import type { Finding, RunReport } from "../../src/core/report/types.js";
import { prepareProviderFuzz } from "../../src/fuzz/prepare.js";
import { FUZZ_PROVIDER_CLAUSES, fuzzProvider } from "../../src/fuzz/provider-run.js";
import { runProviderSuite } from "../../src/runner/provider/suite.js";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

/**
 * --shard K/N and merge: the shards of a run, merged, equal the unsharded run for a fixed
 * seed (clause verdicts, reasons, judged counts and findings, timings aside), for the fixed
 * provider suite and for fuzzing, against the reference provider and a failing fake. The
 * runs are narrowed to a few clauses (and two fuzz cases), as every call is a process.
 */

const REFERENCE = { argv: [join(ROOT, "examples/reference-provider/provider.mjs")], configFile: join(ROOT, "examples/reference-provider/valid-config.json"), clauses: 3 };
const fake = (fault: string): Candidate => ({ argv: [join(ROOT, "dist/src/mocks/provider.js"), "--fault", fault], configFile: join(ROOT, "test/fakes/provider-lean-config.json"), clauses: 5 });
type Candidate = typeof REFERENCE;

/**
 * A clause of each unit but the invocation matrix (the reference runs the first three, the
 * fake all: the hostile one builds on invocations sent as context). ok-shape is judged on
 * validate_config with the valid configuration, which every shard sends but one owns, and on
 * validate_config again in a fresh directory (same-answer-twice sends it).
 */
const CLAUSES = [
  "provider/validate-config/ok-shape",
  "provider/validate-config/rejects-invalid-config",
  "provider/validate-config/rejects-unknown-setting",
  "provider/describe/same-answer-twice",
  "provider/robustness/rejects-unknown-method",
];

const configOf = (c: Candidate): { value: Record<string, never>; document: string } => {
  const document = readFileSync(c.configFile, "utf8");
  return { value: JSON.parse(document) as Record<string, never>, document };
};

/**
 * The bounds of these runs: wide, as the three runs of a comparison go at once on a loaded box
 * and a call that ran out in one of them but not in the other would differ for no fault of merge.
 */
const BUDGET_MS = 20_000;

async function suite(c: Candidate, shard?: Shard): Promise<RunReport> {
  const { report, elsewhere } = await runProviderSuite({ argv: c.argv, config: configOf(c), budgetMs: BUDGET_MS, timeoutMs: BUDGET_MS, selection: { clause: CLAUSES.slice(0, c.clauses), skip: [] }, ...(shard ? { shard } : {}) });
  return shard ? finishShard(report, elsewhere) : report;
}

const RUNS = 2;

/** describe and validate_config, asked once per candidate (the command asks in every shard; the answers are the same). */
const prepared = new Map<Candidate, ReturnType<typeof prepareProviderFuzz>>();

async function fuzz(c: Candidate, shard?: Shard): Promise<RunReport> {
  const config = configOf(c);
  if (!prepared.has(c)) prepared.set(c, prepareProviderFuzz(c.argv, config, BUDGET_MS, BUDGET_MS));
  const ctx = await (prepared.get(c) as ReturnType<typeof prepareProviderFuzz>);
  if ("reason" in ctx) throw new Error(ctx.reason);
  const budget = { runs: RUNS, seed: 4, jobs: 2, ...(shard ? { cases: caseRange(RUNS, shard) } : {}) };
  const result = await fuzzProvider(ctx, { argv: c.argv, config: config.value, timeoutMs: BUDGET_MS }, budget);
  const outcome = { clauses: FUZZ_PROVIDER_CLAUSES, cases: result.cases, calls: result.calls, seed: budget.seed, failures: result.failures, unit: "request" as const, coverage: result.coverage, tally: result.tally };
  const report = fuzzOnlyReport("provider", c.argv, outcome, new Date(), []);
  return shard ? { ...report, shard: { index: shard.index, count: shard.count, cases: budget.cases ?? { from: 0, to: RUNS }, elsewhere: 0 } } : report;
}

/** What must be equal: each clause's verdict, reason and judged count, and its findings (times in ms aside; generated cases only). */
function identity(report: RunReport): unknown {
  const ms = (text: string | undefined): string => (text ?? "").replace(/\d+ ms/g, "N ms");
  const finding = (f: Finding): string => JSON.stringify([f.clause, f.requestId, f.scenario, ms(f.message), f.expected, ms(f.seen), f.foundBy, f.fuzzCase?.path]);
  return report.clauses.map((c) => [c.id, c.status, c.reason, c.judged, c.findings.filter((f) => f.fuzzCase?.corpus !== true).map(finding).sort()]);
}

/** The clauses whose identity differs, each as [merged, whole]: a failure names the clause and the field, not a whole-report diff. */
function differences(merged: RunReport, whole: RunReport): unknown[] {
  const wholeIds = identity(whole) as unknown[][];
  return (identity(merged) as unknown[][]).flatMap((entry, i) => (JSON.stringify(entry) === JSON.stringify(wholeIds[i]) ? [] : [[entry, wholeIds[i]]]));
}

/**
 * The whole run and the shards go one after another, not at once: at once they loaded each other,
 * and twice under load (CI, and a box with CPU hogs) a fuzz comparison differed: the whole run
 * shrank its failure from case 2 ("2:0:..."), the shard from case 1, that is, the whole run's
 * replay of its failing case 1 passed, as one call going wrong for a moment would make it (not
 * reproduced in 4 runs beside CPU hogs; the merged findings were the shard's own).
 */
async function mergedEqualsWhole(run: (c: Candidate, shard?: Shard) => Promise<RunReport>, c: Candidate): Promise<{ whole: RunReport; merged: RunReport }> {
  const whole = await run(c);
  const shards = [await run(c, { index: 1, count: 2 }), await run(c, { index: 2, count: 2 })];
  const merged = merge(shards.map((report, i) => ({ report, source: `shard-${i + 1}` })));
  expect(differences(merged, whole as RunReport)).toEqual([]);
  expect(identity(merged)).toEqual(identity(whole as RunReport));
  expect(merged.summary).toEqual(whole?.summary);
  return { whole: whole as RunReport, merged };
}

// The three run at once: most of their time is spent waiting on candidate processes.
describe.concurrent("sharded and merged equals unsharded", () => {
  const temp = useTempDirs();

  it("for the fixed provider suite, passing and failing", async () => {
    const [reference, broken] = await Promise.all([mergedEqualsWhole(suite, REFERENCE), mergedEqualsWhole(suite, fake("config-ok-extra"))]);
    expect(reference.merged.summary.verdict).toBe("incomplete");
    expect(reference.merged.clauses.find((c) => c.id === "provider/validate-config/rejects-invalid-config")).toMatchObject({ status: "skip", reason: expect.stringMatching(/--invalid-config-file/) });
    const shape = broken.merged.clauses.find((c) => c.id === "provider/validate-config/ok-shape");
    // validate-1 went to both shards, and is judged once.
    expect(shape?.findings.map((f) => f.requestId).sort()).toEqual(["validate-1", "validate-fresh"]);
  });

  it("for provider fuzzing of the reference with a fixed seed: the same cases and coverage", async () => {
    const { whole, merged } = await mergedEqualsWhole(fuzz, REFERENCE);
    const { calls: _a, ...wholeFuzz } = whole.fuzz ?? {};
    const { calls: _b, ...mergedFuzz } = merged.fuzz ?? {};
    expect(mergedFuzz).toEqual(wholeFuzz);
    expect(merged.fuzz?.cases).toBe(RUNS);
  });

  it("for a failing fuzz campaign (fuzz --shard and merge on the command line); the shards' shared corpus is replayed first by the next campaign", async () => {
    const broken = fake("observe-with-text");
    const corpus = join(temp(), "corpus");
    const fuzzArgs = (out: string, ...more: string[]): string[] => ["fuzz", "--protocol", "provider", "--config-file", broken.configFile, "--fuzz-runs", String(RUNS), "--seed", "4", "--corpus", corpus, "--budget", String(BUDGET_MS), "--timeout", String(BUDGET_MS), "--out", out, "--reporter", "json", ...more, broken.argv[0] as string, "--", ...broken.argv.slice(1)];
    const dirs = [temp(), temp()];
    const args = { candidate: broken.argv[0] as string, rest: broken.argv.slice(1), configFile: broken.configFile, corpus, budget: BUDGET_MS, timeout: BUDGET_MS, clause: [], skip: [], scenario: [], reporter: [], color: false };
    // Shard 2 (case 1, which fails) on the command line; shard 1 (case 0, which passes) and the
    // unsharded campaign (without the corpus) in this process, as the fuzz command runs them.
    const inProcess = async (): Promise<void> => {
      const shard = { index: 1, count: 2 };
      const budget = { runs: RUNS, seed: 4, jobs: 2, cases: caseRange(RUNS, shard) };
      const outcome = await fuzzPhase("provider", { ...args, shard: "1/2" }, budget, dirs[0] as string);
      const report = fuzzOnlyReport("provider", broken.argv, outcome, new Date(), []);
      await emitReport({ ...report, shard: { ...shard, cases: budget.cases, elsewhere: 0 } }, { reporters: ["json"], outDir: dirs[0] as string, color: false });
    };
    // One after another, as in mergedEqualsWhole.
    const cli = await runCli(fuzzArgs(dirs[1] as string, "--shard", "2/2"));
    await inProcess();
    const whole = await fuzz(broken);
    expect(cli.code, cli.stderr).toBe(1);
    expect(readReport(dirs[1] as string).shard).toEqual({ index: 2, count: 2, cases: caseRange(RUNS, { index: 2, count: 2 }), elsewhere: 0 });
    const out = temp();
    const merged = await runCli(["merge", ...dirs, "--out", out, "--reporter", "json,markdown"]);
    expect(merged.code, merged.stderr).toBe(1);
    const report = readReport(out);
    expect(report.shard).toBeUndefined();
    expect(differences(report, whole)).toEqual([]);
    expect(identity(report)).toEqual(identity(whole));
    const generated = report.clauses.flatMap((c) => c.findings).filter((f) => f.fuzzCase !== undefined && f.fuzzCase.corpus !== true);
    expect(generated.map((f) => f.clause)).toEqual(["provider/invoke/text-only-on-block-or-replace"]);
    // The replay file was copied into the merged folder and the finding points there.
    expect(generated[0]?.fuzzCase?.file).toBe(join(out, "replays", readdirSync(join(out, "replays"))[0] as string));
    expect(generated[0]?.reproduce).toContain(join(out, "replays"));
    expect(readFileSync(join(out, "report.md"), "utf8")).toContain("text-only-on-block-or-replace");

    // Both shards wrote the one corpus folder (whole files only). The next campaign replays it
    // before it generates its one case (case 0, which passes): the failure is the corpus's.
    const saved = readdirSync(corpus);
    expect(saved.filter((n) => !/^provider-[0-9a-f]{16}\.json$/.test(n))).toEqual([]);
    const outcome = await fuzzPhase("provider", args, { runs: 1, seed: 4, jobs: 2 }, temp());
    const next = fuzzOnlyReport("provider", broken.argv, outcome, new Date(), []);
    expect(next.fuzz).toMatchObject({ cases: 1, failures: 0, corpus: { replayed: saved.length } });
    expect(next.fuzz?.corpus?.failing).toBeGreaterThan(0);
    const findings = next.clauses.find((c) => c.id === "provider/invoke/text-only-on-block-or-replace")?.findings ?? [];
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) expect(f.fuzzCase).toMatchObject({ corpus: true, file: expect.stringContaining(corpus) });
  });
});
