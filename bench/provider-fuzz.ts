/**
 * The spawn floor (issue 12): against the same provider and the same bytes, (a) a plain Node
 * spawn loop in a process of its own (bench/floor-loop.ts) with the fuzzer's concurrency,
 * (b) `fuzz --jobs 2` (fuzzProvider with the CLI's launchers), (b0) the same with its cases made
 * beforehand (what the kit's launching and judging allow when generating costs nothing; it shows
 * how much of the gap to (a) is the generating), (c) the fixed provider suite
 * (serial, so its floor runs one at a time with the suite's own requests). Rounds alternate
 * floor and kit; the medians and their ratio are printed. For the compiled provider, where the
 * floor keeps the machine busy, the rows after the ratios say where the CPU went in (a), (b)
 * and (b0), per call (cpu-share.ts): the kit's (or the floor's) own process, the launchers, the
 * candidates, and the cores busy.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { packageRoot } from "../src/core/paths.js";
import { casesOf, listedCases } from "../src/fuzz/cases.js";
import { prepareProviderFuzz } from "../src/fuzz/prepare.js";
import { providerCaseArb } from "../src/fuzz/provider/index.js";
import { fuzzProvider } from "../src/fuzz/provider-run.js";
import type { ProviderCase, ProviderFuzzContext } from "../src/fuzz/types.js";
import { closeLauncher, launcherPids, useLauncher } from "../src/runner/launcher/client.js";
import { runProviderSuite } from "../src/runner/provider/suite.js";
import { cpuShare, cpuSnapshot, type CpuShare } from "./cpu-share.js";
import type { BenchResult } from "./json-reader.js";
import { peakRssOf } from "./peak-rss.js";

const SEED = 1;
const ROUNDS = 3;
const CONFIG = { value: { blocked_tools: ["example_tool"] }, document: '{"blocked_tools":["example_tool"]}' };
const FLOOR = resolve(packageRoot(), "dist/bench/floor-loop.js");

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function writeInputs(dir: string, inputs: Uint8Array[]): string {
  mkdirSync(dir, { recursive: true });
  inputs.forEach((bytes, n) => writeFileSync(join(dir, `${String(n).padStart(6, "0")}.bin`), bytes));
  return dir;
}

interface Measured {
  rate: number;
  /** Where the CPU went, per call (undefined without /proc). */
  share?: CpuShare;
}

function floorRate(argv: string[], dir: string, jobs: number): Measured {
  const before = cpuSnapshot([]);
  const out = execFileSync(process.execPath, [FLOOR, String(jobs), dir, ...argv], { encoding: "utf8", maxBuffer: 1 << 20 });
  const after = cpuSnapshot([]);
  const { calls, seconds, cpuMs, selfMs } = JSON.parse(out) as { calls: number; seconds: number; cpuMs: number; selfMs: number };
  return { rate: calls / seconds, ...(before && after ? { share: cpuShare(before, after, calls, { cpuMs, selfMs }) } : {}) };
}

/** `fuzz --jobs 2` (the cases generated as they are taken), or with `made` the same cases made beforehand: the kit's rate without generating. */
async function fuzzRate(argv: string[], ctx: ProviderFuzzContext, runs: number, made?: readonly ProviderCase[]): Promise<Measured> {
  const before = cpuSnapshot(launcherPids());
  const started = performance.now();
  const result = await fuzzProvider(ctx, { argv, config: ctx.config, timeoutMs: 6000 }, { runs, seed: SEED, jobs: 2 }, { shrink: false, ...(made ? { cases: listedCases(made) } : {}) });
  const rate = result.calls / ((performance.now() - started) / 1000);
  const after = cpuSnapshot(launcherPids());
  // A launcher started during the run (none after the warm-up) would count from its start.
  return { rate, ...(before && after && after.launchers.length === before.launchers.length ? { share: cpuShare(before, after, result.calls) } : {}) };
}

/** Rows of the median CPU per call of one kind of run, for the compiled provider (where the floor keeps the machine busy). */
function shareRows(label: string, shares: (CpuShare | undefined)[], launched: boolean): BenchResult[] {
  const known = shares.filter((s): s is CpuShare => s !== undefined);
  if (known.length === 0) return [];
  const of = (key: keyof CpuShare): number => median(known.map((s) => s[key]));
  return [
    { name: `${label}: CPU per call in ${launched ? "the kit's own process" : "the floor's own process"}`, value: of("kit"), unit: "ms" },
    ...(launched ? [{ name: `${label}: CPU per call in the launcher processes`, value: of("launchers"), unit: "ms" }] : []),
    { name: `${label}: CPU per call in the candidates`, value: of("candidates"), unit: "ms" },
    { name: `${label}: cores busy on the machine (of ${availableParallelism()})`, value: of("cores"), unit: "cores" },
  ];
}

async function suiteRun(argv: string[]): Promise<{ rate: number; requests: Uint8Array[] }> {
  const started = performance.now();
  const { transcript } = await runProviderSuite({ argv, config: CONFIG });
  const seconds = (performance.now() - started) / 1000;
  return { rate: transcript.exchanges.length / seconds, requests: transcript.exchanges.map((e) => e.request) };
}

async function measure(name: string, argv: string[], runs: number, dir: string, withShares: boolean): Promise<BenchResult[]> {
  const ctx = await prepareProviderFuzz(argv, CONFIG, 5000, 6000);
  if ("reason" in ctx) throw new Error(ctx.reason);
  const made = await casesOf(providerCaseArb(ctx), SEED, 0, runs);
  const fuzzInputs = made.flatMap((c) => (c.base ? [c.base.bytes, c.bytes] : [c.bytes]));
  const fuzzDir = writeInputs(join(dir, `${name}-fuzz`), fuzzInputs);
  const suiteDir = writeInputs(join(dir, `${name}-suite`), (await suiteRun(argv)).requests);
  // Both launchers of `--jobs 2` start here, not inside a measured run.
  await fuzzRate(argv, ctx, 20, made.slice(0, 20));
  const measured = { floor: [] as Measured[], fuzz: [] as Measured[], made: [] as Measured[] };
  const rates = { floor1: [] as number[], suite: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    measured.floor.push(floorRate(argv, fuzzDir, 2));
    measured.fuzz.push(await fuzzRate(argv, ctx, runs));
    measured.made.push(await fuzzRate(argv, ctx, runs, made));
    rates.floor1.push(floorRate(argv, suiteDir, 1).rate);
    rates.suite.push((await suiteRun(argv)).rate);
  }
  const rate = (list: Measured[]): number => median(list.map((m) => m.rate));
  const [a, b, b0, a1, c] = [rate(measured.floor), rate(measured.fuzz), rate(measured.made), median(rates.floor1), median(rates.suite)];
  const shares = withShares
    ? [...shareRows(`(a) floor, ${name}`, measured.floor.map((m) => m.share), false), ...shareRows(`(b) fuzz, ${name}`, measured.fuzz.map((m) => m.share), true), ...shareRows(`(b0) fuzz of cases made beforehand, ${name}`, measured.made.map((m) => m.share), true)]
    : [];
  return [
    { name: `(a) floor: Node spawn loop, jobs 2, ${fuzzInputs.length} fuzz requests, ${name}`, value: a, unit: "calls/s" },
    { name: `(b) fuzz --jobs 2, ${runs} cases, ${name}`, value: b, unit: "calls/s" },
    { name: `(b)/(a), ${name}`, value: b / a, unit: "ratio", target: ">= 0.90" },
    { name: `(b0) the same fuzz, its cases made beforehand (not generating), ${name}`, value: b0, unit: "calls/s" },
    { name: `(b0)/(a), ${name}`, value: b0 / a, unit: "ratio" },
    { name: `(a1) floor: Node spawn loop, jobs 1, the suite's own requests, ${name}`, value: a1, unit: "calls/s" },
    { name: `(c) run (provider suite, serial), ${name}`, value: c, unit: "calls/s" },
    { name: `(c)/(a1), ${name}`, value: c / a1, unit: "ratio", target: ">= 0.90" },
    ...shares,
  ];
}

/** Fuzzer and suite throughput against a small compiled provider and the Node reference, beside the plain spawn floor. */
export async function benchProviderFuzz(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "awp-bench-"));
  useLauncher();
  try {
    const tiny = join(dir, "tiny-provider");
    execFileSync("cc", ["-O2", "-o", tiny, resolve(packageRoot(), "bench/fixtures/tiny-provider.c")]);
    const reference = join(packageRoot(), "examples/reference-provider/provider.mjs");
    const rss = await peakRssOf(["fuzz", "--protocol", "provider", "--fuzz-runs", "2000", "--seed", String(SEED), "--config-json", CONFIG.document, "--reporter", "json", "--out", join(dir, "rss-report"), "--quiet", tiny]);
    return [
      ...(await measure("compiled tiny provider", [tiny], 400, dir, true)),
      ...(await measure("Node reference provider", [reference], 40, dir, false)),
      { name: `peak RSS of the kit, fuzz --fuzz-runs 2000 (exit ${rss.exitCode})`, value: rss.kit, unit: "MB", target: "< 150" },
      { name: "peak RSS of its launcher process, same run", value: rss.child, unit: "MB", target: "< 150" },
    ];
  } finally {
    closeLauncher();
    rmSync(dir, { recursive: true, force: true });
  }
}
