import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fuzzOnlyReport, fuzzPhase } from "../../src/cli/fuzz.js";
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

const REFERENCE = { argv: [join(ROOT, "examples/reference-provider/provider.mjs")], configFile: join(ROOT, "examples/reference-provider/valid-config.json"), clauses: 4 };
const fake = (fault: string): Candidate => ({ argv: [join(ROOT, "test/fakes/provider-fake.mjs"), "--fault", fault], configFile: join(ROOT, "test/fakes/provider-lean-config.json"), clauses: 5 });
type Candidate = typeof REFERENCE;

/**
 * A clause of each unit but the invocation matrix (the hostile one, run for the fake only,
 * builds on invocations sent as context). ok-shape is judged on validate_config with the valid configuration, which
 * every shard sends but one owns, and on validate_config again in a fresh directory.
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

async function suite(c: Candidate, shard?: Shard): Promise<RunReport> {
  const { report, elsewhere } = await runProviderSuite({ argv: c.argv, config: configOf(c), selection: { clause: CLAUSES.slice(0, c.clauses), skip: [] }, ...(shard ? { shard } : {}) });
  return shard ? finishShard(report, elsewhere) : report;
}

const RUNS = 2;

async function fuzz(c: Candidate, shard?: Shard): Promise<RunReport> {
  const config = configOf(c);
  const ctx = await prepareProviderFuzz(c.argv, config, 5000, 6000);
  if ("reason" in ctx) throw new Error(ctx.reason);
  const budget = { runs: RUNS, seed: 4, jobs: 2, ...(shard ? { cases: caseRange(RUNS, shard) } : {}) };
  const result = await fuzzProvider(ctx, { argv: c.argv, config: config.value, timeoutMs: 6000 }, budget);
  const outcome = { clauses: FUZZ_PROVIDER_CLAUSES, cases: result.cases, calls: result.calls, seed: budget.seed, failures: result.failures, unit: "request" as const, coverage: result.coverage };
  const report = fuzzOnlyReport("provider", c.argv, outcome, new Date(), []);
  return shard ? { ...report, shard: { index: shard.index, count: shard.count, cases: budget.cases ?? { from: 0, to: RUNS }, elsewhere: 0 } } : report;
}

/** What must be equal: each clause's verdict, reason and judged count, and its findings (times in ms aside; generated cases only). */
function identity(report: RunReport): unknown {
  const ms = (text: string | undefined): string => (text ?? "").replace(/\d+ ms/g, "N ms");
  const finding = (f: Finding): string => JSON.stringify([f.clause, f.requestId, f.scenario, ms(f.message), f.expected, ms(f.seen), f.foundBy, f.fuzzCase?.path]);
  return report.clauses.map((c) => [c.id, c.status, c.reason, c.judged, c.findings.filter((f) => f.fuzzCase?.corpus !== true).map(finding).sort()]);
}

async function mergedEqualsWhole(run: (c: Candidate, shard?: Shard) => Promise<RunReport>, c: Candidate): Promise<{ whole: RunReport; merged: RunReport }> {
  const [whole, ...shards] = await Promise.all([run(c), run(c, { index: 1, count: 2 }), run(c, { index: 2, count: 2 })]);
  const merged = merge(shards.map((report, i) => ({ report, source: `shard-${i + 1}` })));
  expect(identity(merged)).toEqual(identity(whole as RunReport));
  expect(merged.summary).toEqual(whole?.summary);
  return { whole: whole as RunReport, merged };
}

describe("sharded and merged equals unsharded", () => {
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
});

describe("fuzz --shard, merge and --corpus, on the command line", () => {
  const temp = useTempDirs();

  it("the shards of a failing fuzz campaign merge to the unsharded one; their shared corpus is replayed first by the next", async () => {
    const broken = fake("observe-with-text");
    const corpus = join(temp(), "corpus");
    const fuzzArgs = (out: string, ...more: string[]): string[] => ["fuzz", "--protocol", "provider", "--config-file", broken.configFile, "--fuzz-runs", String(RUNS), "--seed", "4", "--corpus", corpus, "--out", out, "--reporter", "json", ...more, broken.argv[0] as string, "--", ...broken.argv.slice(1)];
    const dirs = [temp(), temp()];
    const shards = await Promise.all(dirs.map((out, i) => runCli(fuzzArgs(out, "--shard", `${i + 1}/2`))));
    for (const [i, r] of shards.entries()) {
      const part = readReport(dirs[i] as string);
      // Case 0 passes, case 1 fails; shard 1 may also replay what shard 2 has just kept in the shared corpus.
      expect(r.code, r.stderr).toBe(part.summary.verdict === "conformant" ? 0 : 1);
      expect(part.shard).toMatchObject({ index: i + 1, count: 2, cases: caseRange(RUNS, { index: i + 1, count: 2 }) });
    }
    expect(shards[1]?.code).toBe(1);
    const out = temp();
    const merged = await runCli(["merge", ...dirs, "--out", out, "--reporter", "json,markdown"]);
    expect(merged.code, merged.stderr).toBe(1);
    const report = readReport(out);
    expect(report.shard).toBeUndefined();
    const generated = report.clauses.flatMap((c) => c.findings).filter((f) => f.fuzzCase !== undefined && f.fuzzCase.corpus !== true);
    expect(generated.map((f) => f.clause)).toEqual(["provider/invoke/text-only-on-block-or-replace"]);
    // The replay file was copied into the merged folder and the finding points there.
    expect(generated[0]?.fuzzCase?.file).toBe(join(out, "replays", readdirSync(join(out, "replays"))[0] as string));
    expect(generated[0]?.reproduce).toContain(join(out, "replays"));
    expect(readFileSync(join(out, "report.md"), "utf8")).toContain("text-only-on-block-or-replace");

    // Both shards wrote the one corpus folder (whole files only); the unsharded run (in this process) replays it before generating.
    const saved = readdirSync(corpus);
    expect(saved.filter((n) => !/^provider-[0-9a-f]{16}\.json$/.test(n))).toEqual([]);
    const args = { candidate: broken.argv[0] as string, rest: broken.argv.slice(1), configFile: broken.configFile, corpus, clause: [], skip: [], scenario: [], reporter: [], color: false };
    const budget = { runs: RUNS, seed: 4, jobs: 2 };
    const outcome = await fuzzPhase("provider", args, budget, temp());
    const unsharded = fuzzOnlyReport("provider", broken.argv, outcome, new Date(), []);
    expect(identity(report)).toEqual(identity(unsharded));
    expect(unsharded.fuzz?.corpus).toMatchObject({ replayed: saved.length });
    expect(unsharded.fuzz?.corpus?.failing).toBeGreaterThan(0);
    const findings = unsharded.clauses.find((c) => c.id === "provider/invoke/text-only-on-block-or-replace")?.findings ?? [];
    expect(findings[0]?.fuzzCase).toMatchObject({ corpus: true, file: expect.stringContaining(corpus) });
    expect(findings.at(-1)?.fuzzCase?.corpus).toBeUndefined();
  });
});
