/**
 * The spawn floor (issue 12): against the same provider and the same bytes, (a) a plain Node
 * spawn loop in a process of its own (bench/floor-loop.ts) with the fuzzer's concurrency,
 * (b) `fuzz --jobs 2` (fuzzProvider with the CLI's launchers) in a process of its own too, started
 * as the CLI starts its fuzz process (fuzz-process.ts): the second of two runs of the same
 * cases (warm), and the first (cold) beside it; (b0) the same with its cases made beforehand
 * (what the kit's launching and judging allow when generating costs nothing; it shows how much of
 * the gap to (a) is the generating), (c) the fixed provider suite, in a process of its own as `run`
 * runs it (suite-process.ts; --jobs 2: the requests that depend on no answer of each other's two
 * at a time), its second run (warm) and its first (cold) beside it, beside (as) its floor: the
 * suite's own requests at the same concurrency; (c1) the suite with --jobs 1 beside (a1) those
 * requests one at a time, and (c0) the suite's requests sent one at a time through the kit's
 * launcher with nothing done between calls (what a serial run through a launcher allows when
 * the kit's own work costs nothing). Rounds alternate floor and kit;
 * the medians and their ratio are printed. For the compiled provider, where the
 * floor keeps the machine busy, the rows after the ratios say where the CPU went in (a), (b)
 * and (b0), per call (cpu-share.ts): the kit's (or the floor's) own process, the launchers, the
 * candidates, and the cores busy. Last (c-floor.ts, issue 30), the kit's whole `fuzz` process
 * against the compiled provider beside the C floor (posix_spawn) and the Node loop on the very
 * bytes a campaign of the same seed sends, with the kit's ratio to the floor.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { packageRoot } from "../src/core/paths.js";
import { casesOf } from "../src/fuzz/cases.js";
import { prepareProviderFuzz } from "../src/fuzz/prepare.js";
import { providerCaseArb } from "../src/fuzz/provider/index.js";
import { tunedStart } from "../src/cli/tuned.js";
import { closeLauncher, useLauncher } from "../src/runner/launcher/client.js";
import { runProviderSuite } from "../src/runner/provider/suite.js";
import { DEFAULT_PROVIDER_JOBS } from "../src/runner/provider/jobs.js";
import type { ProviderExchange } from "../src/core/provider/types.js";
import { cpuShare, cpuSnapshot, type CpuShare, type Measured } from "./cpu-share.js";
import type { BenchResult } from "./json-reader.js";
import { peakRssOf } from "./peak-rss.js";
import { benchCFloor, buildBenchFixture } from "./c-floor.js";
import type { SuiteRates } from "./suite-process.js";

const SEED = 1;
const ROUNDS = 3;
const CONFIG = { value: { blocked_tools: ["example_tool"] }, document: '{"blocked_tools":["example_tool"]}' };
const FLOOR = resolve(packageRoot(), "dist/bench/floor-loop.js");
const FUZZ_PROCESS = resolve(packageRoot(), "dist/bench/fuzz-process.js");
const SUITE_PROCESS = resolve(packageRoot(), "dist/bench/suite-process.js");

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function writeInputs(dir: string, inputs: Uint8Array[]): string {
  mkdirSync(dir, { recursive: true });
  inputs.forEach((bytes, n) => writeFileSync(join(dir, `${String(n).padStart(6, "0")}.bin`), bytes));
  return dir;
}

function floorRun(argv: string[], dir: string, jobs: number): Measured & { calls: number; seconds: number } {
  const before = cpuSnapshot([]);
  const out = execFileSync(process.execPath, [FLOOR, String(jobs), dir, ...argv], { encoding: "utf8", maxBuffer: 1 << 20 });
  const after = cpuSnapshot([]);
  const { calls, seconds, cpuMs, selfMs } = JSON.parse(out) as { calls: number; seconds: number; cpuMs: number; selfMs: number };
  return { calls, seconds, rate: calls / seconds, ...(before && after ? { share: cpuShare(before, after, calls, { cpuMs, selfMs }) } : {}) };
}

const floorRate = (argv: string[], dir: string, jobs: number): Measured => floorRun(argv, dir, jobs);

/** The suite's floor at its own concurrency: each part's requests in a plain loop, as many at a time as the suite sends them. */
function suiteFloorRate(argv: string[], parts: readonly SuitePart[]): number {
  const runs = parts.map((part) => floorRun(argv, part.dir, part.jobs));
  return runs.reduce((n, r) => n + r.calls, 0) / runs.reduce((s, r) => s + r.seconds, 0);
}

/** A run of the suite's requests that go at the same concurrency. */
interface SuitePart {
  dir: string;
  jobs: number;
}

/** The batch (driver.ts) a call of the suite goes in, by its purpose: calls of one batch go --jobs at once; undefined: one at a time. */
function batchOf(purpose: string): string | undefined {
  if (purpose === "describe" || purpose === "config-valid") return "start";
  if (purpose.startsWith("config-")) return "config";
  if (purpose === "control" || purpose.startsWith("hostile:")) return "hostile";
  if (purpose === "dialect") return "dialect";
  return purpose === "whitespace" ? "whitespace" : undefined;
}

/** The suite's requests written as its parts, in order (for suiteFloorRate). */
function suiteParts(dir: string, exchanges: readonly { purpose: string; request: Uint8Array }[]): SuitePart[] {
  const runs: { key: string | undefined; requests: Uint8Array[] }[] = [];
  for (const e of exchanges) {
    const key = batchOf(e.purpose);
    const last = runs.at(-1);
    if (last !== undefined && last.key === key) last.requests.push(e.request);
    else runs.push({ key, requests: [e.request] });
  }
  return runs.map((run, i) => ({ dir: writeInputs(join(dir, `part-${i}`), run.requests), jobs: run.key === undefined ? 1 : DEFAULT_PROVIDER_JOBS }));
}

/**
 * `fuzz --jobs 2` in a process of its own (fuzz-process.ts), started as the CLI starts its fuzz
 * process: the cases generated as they are taken, or with `made` made beforehand (the kit's rate
 * without generating). Its first run (cold) and its second (warm).
 */
function fuzzRates(argv: string[], runs: number, made: boolean): { cold: Measured; warm: Measured } {
  const { execArgv, env } = tunedStart();
  const job = JSON.stringify({ argv, runs, seed: SEED, made, config: CONFIG });
  const out = execFileSync(process.execPath, [...execArgv, FUZZ_PROCESS, job], { encoding: "utf8", env, maxBuffer: 1 << 20 });
  const [cold, warm] = JSON.parse(out) as Measured[];
  if (cold === undefined || warm === undefined) throw new Error(`fuzz-process.js printed ${out}`);
  return { cold, warm };
}

/** Rows of the median CPU per call of one kind of run, for the compiled provider (where the floor keeps the machine busy). */
function shareRows(label: string, shares: (CpuShare | undefined)[], launched: boolean): BenchResult[] {
  const known = shares.filter((s): s is CpuShare => s !== undefined);
  if (known.length === 0) return [];
  const of = (key: keyof CpuShare): number => median(known.map((s) => s[key]));
  return [
    { name: `${label}: CPU per call in ${launched ? "the kit's own process" : "the floor's own process"}`, value: of("kit"), unit: "ms" },
    ...(launched ? [{ name: `${label}: CPU per call in the kit's main thread (its event loop)`, value: of("main"), unit: "ms" }] : []),
    ...(launched ? [{ name: `${label}: CPU per call in the launcher processes`, value: of("launchers"), unit: "ms" }] : []),
    { name: `${label}: CPU per call in the candidates`, value: of("candidates"), unit: "ms" },
    { name: `${label}: cores busy on the machine (of ${availableParallelism()})`, value: of("cores"), unit: "cores" },
  ];
}

/** The suite's exchanges, run in this process (not timed: they give the floor its bytes). */
async function suiteExchangesOf(argv: string[]): Promise<ProviderExchange[]> {
  const { transcript } = await runProviderSuite({ argv, config: CONFIG, jobs: DEFAULT_PROVIDER_JOBS });
  return transcript.exchanges;
}

/** `run`'s suite in a process of its own (suite-process.ts): its first run (cold), its second (warm), and with `serial` the launcher's own rate. */
function suiteRates(argv: string[], jobs: number, serial: boolean): SuiteRates {
  const out = execFileSync(process.execPath, [SUITE_PROCESS, JSON.stringify({ argv, jobs, config: CONFIG, serial })], { encoding: "utf8", maxBuffer: 1 << 20 });
  return JSON.parse(out) as SuiteRates;
}

async function measure(name: string, argv: string[], runs: number, dir: string, withShares: boolean): Promise<BenchResult[]> {
  const ctx = await prepareProviderFuzz(argv, CONFIG, 5000, 6000);
  if ("reason" in ctx) throw new Error(ctx.reason);
  // The floor's bytes: the same cases a fuzz of this seed makes.
  const made = await casesOf(providerCaseArb(ctx), SEED, 0, runs);
  const fuzzInputs = made.flatMap((c) => (c.base ? [c.base.bytes, c.bytes] : [c.bytes]));
  const fuzzDir = writeInputs(join(dir, `${name}-fuzz`), fuzzInputs);
  const suiteExchanges = await suiteExchangesOf(argv);
  const suiteRequests = suiteExchanges.map((e) => e.request);
  const suiteDir = writeInputs(join(dir, `${name}-suite`), suiteRequests);
  const parts = suiteParts(join(dir, `${name}-suite-parts`), suiteExchanges);
  const measured = { floor: [] as Measured[], fuzz: [] as Measured[], cold: [] as Measured[], made: [] as Measured[] };
  const rates = { floor1: [] as number[], floorSuite: [] as number[], suite: [] as number[], suiteCold: [] as number[], suite1: [] as number[], serial: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    measured.floor.push(floorRate(argv, fuzzDir, 2));
    const fuzz = fuzzRates(argv, runs, false);
    measured.fuzz.push(fuzz.warm);
    measured.cold.push(fuzz.cold);
    measured.made.push(fuzzRates(argv, runs, true).warm);
    rates.floorSuite.push(suiteFloorRate(argv, parts));
    const suite = suiteRates(argv, DEFAULT_PROVIDER_JOBS, false);
    rates.suite.push(suite.warm);
    rates.suiteCold.push(suite.cold);
    rates.floor1.push(floorRate(argv, suiteDir, 1).rate);
    const serial = suiteRates(argv, 1, true);
    rates.suite1.push(serial.warm);
    if (serial.serial === undefined) throw new Error("suite-process.js printed no serial rate");
    rates.serial.push(serial.serial);
  }
  const rate = (list: Measured[]): number => median(list.map((m) => m.rate));
  const [a, b, bCold, b0, aSuite, c, cCold, a1, c1, c0] = [rate(measured.floor), rate(measured.fuzz), rate(measured.cold), rate(measured.made), median(rates.floorSuite), median(rates.suite), median(rates.suiteCold), median(rates.floor1), median(rates.suite1), median(rates.serial)];
  const shares = withShares
    ? [...shareRows(`(a) floor, ${name}`, measured.floor.map((m) => m.share), false), ...shareRows(`(b) fuzz, ${name}`, measured.fuzz.map((m) => m.share), true), ...shareRows(`(b0) fuzz of cases made beforehand, ${name}`, measured.made.map((m) => m.share), true)]
    : [];
  return [
    { name: `(a) floor: Node spawn loop, jobs 2, ${fuzzInputs.length} fuzz requests, ${name}`, value: a, unit: "calls/s" },
    { name: `(b) fuzz --jobs 2, ${runs} cases, in a process of its own (its second run), ${name}`, value: b, unit: "calls/s" },
    { name: `(b)/(a), ${name}`, value: b / a, unit: "ratio", target: ">= 0.90" },
    { name: `(b cold) the first run of that process, ${name}`, value: bCold, unit: "calls/s" },
    { name: `(b cold)/(a), ${name}`, value: bCold / a, unit: "ratio" },
    { name: `(b0) the same fuzz, its cases made beforehand (not generating), ${name}`, value: b0, unit: "calls/s" },
    { name: `(b0)/(a), ${name}`, value: b0 / a, unit: "ratio" },
    { name: `(as) floor: Node spawn loop, the suite's ${suiteRequests.length} requests at its concurrency (${parts.filter((part) => part.jobs > 1).length} parts ${DEFAULT_PROVIDER_JOBS} at a time, the rest one at a time), ${name}`, value: aSuite, unit: "calls/s" },
    { name: `(c) run (provider suite, --jobs ${DEFAULT_PROVIDER_JOBS}, the default), in a process of its own (its second run), ${name}`, value: c, unit: "calls/s" },
    { name: `(c)/(as), ${name}`, value: c / aSuite, unit: "ratio", target: ">= 0.90" },
    { name: `(c cold) the first run of that process (its modules loading, its code compiling), ${name}`, value: cCold, unit: "calls/s" },
    { name: `(c cold)/(as), ${name}`, value: cCold / aSuite, unit: "ratio" },
    { name: `(a1) floor: Node spawn loop, jobs 1, the suite's requests, ${name}`, value: a1, unit: "calls/s" },
    { name: `(c1) run --jobs 1 (provider suite, serial), in a process of its own (its second run), ${name}`, value: c1, unit: "calls/s" },
    { name: `(c1)/(a1), ${name}`, value: c1 / a1, unit: "ratio" },
    { name: `(c0) the suite's requests one at a time through the launcher, nothing done between calls, ${name}`, value: c0, unit: "calls/s" },
    { name: `(c0)/(a1), ${name}`, value: c0 / a1, unit: "ratio" },
    ...shares,
  ];
}

/** The whole-process fuzz measured against the C floor (issue 30): as many cases as its figures. */
const C_FLOOR_RUNS = 1500;

/** `bench(tiny, dir)` with the compiled tiny provider built in a scratch folder `dir`, and the launchers on; nothing (and a line saying why) without cc. */
async function withTinyProvider(bench: (tiny: string, dir: string) => Promise<BenchResult[]>): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "awp-bench-"));
  useLauncher();
  try {
    const tiny = buildBenchFixture("tiny-provider", dir, "the compiled provider and the C floor");
    if ("skip" in tiny) {
      process.stderr.write(`provider-fuzz: ${tiny.skip}\n`);
      return [];
    }
    return await bench(tiny.path, dir);
  } finally {
    closeLauncher();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The kit's whole `fuzz` process against the compiled provider beside the C floor and the Node loop on the same bytes (`npm run bench -- c-floor`). */
export function benchCFloorOnly(): Promise<BenchResult[]> {
  return withTinyProvider((tiny, dir) => benchCFloor("compiled tiny provider", [tiny], CONFIG, C_FLOOR_RUNS, SEED, dir, ROUNDS));
}

/** Fuzzer and suite throughput against a small compiled provider and the Node reference, beside the plain spawn floor. */
export function benchProviderFuzz(): Promise<BenchResult[]> {
  return withTinyProvider(async (tiny, dir) => {
    const reference = join(packageRoot(), "examples/reference-provider/provider.mjs");
    const rss = await peakRssOf(["fuzz", "--protocol", "provider", "--fuzz-runs", "2000", "--seed", String(SEED), "--config-json", CONFIG.document, "--reporter", "json", "--out", join(dir, "rss-report"), "--quiet", tiny]);
    return [
      ...(await measure("compiled tiny provider", [tiny], 400, dir, true)),
      ...(await measure("Node reference provider", [reference], 40, dir, false)),
      { name: `peak RSS of the kit, fuzz --fuzz-runs 2000 (exit ${rss.exitCode})`, value: rss.kit, unit: "MB", target: "< 150" },
      { name: "peak RSS of its launcher process, same run", value: rss.child, unit: "MB", target: "< 150" },
      ...(await benchCFloor("compiled tiny provider", [tiny], CONFIG, C_FLOOR_RUNS, SEED, dir, ROUNDS)),
    ];
  });
}
