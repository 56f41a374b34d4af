/**
 * The spawn floor (issue 12): against the same provider and the same bytes, (a) a plain Node
 * spawn loop in a process of its own (bench/floor-loop.ts) with the fuzzer's concurrency,
 * (b) `fuzz --jobs 2` (fuzzProvider with the CLI's launchers), (b0) the same with its cases made
 * beforehand (what the kit's launching and judging allow when generating costs nothing; it shows
 * how much of the gap to (a) is the generating), (c) the fixed provider suite
 * (serial, so its floor runs one at a time with the suite's own requests). Rounds alternate
 * floor and kit; the medians and their ratio are printed.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { packageRoot } from "../src/core/paths.js";
import { casesOf, listedCases } from "../src/fuzz/cases.js";
import { prepareProviderFuzz } from "../src/fuzz/prepare.js";
import { providerCaseArb } from "../src/fuzz/provider/index.js";
import { fuzzProvider } from "../src/fuzz/provider-run.js";
import type { ProviderCase, ProviderFuzzContext } from "../src/fuzz/types.js";
import { closeLauncher, useLauncher } from "../src/runner/launcher/client.js";
import { runProviderSuite } from "../src/runner/provider/suite.js";
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

function floorRate(argv: string[], dir: string, jobs: number): number {
  const out = execFileSync(process.execPath, [FLOOR, String(jobs), dir, ...argv], { encoding: "utf8", maxBuffer: 1 << 20 });
  const { calls, seconds } = JSON.parse(out) as { calls: number; seconds: number };
  return calls / seconds;
}

/** `fuzz --jobs 2` (the cases generated as they are taken), or with `made` the same cases made beforehand: the kit's rate without generating. */
async function fuzzRate(argv: string[], ctx: ProviderFuzzContext, runs: number, made?: readonly ProviderCase[]): Promise<number> {
  const started = performance.now();
  const result = await fuzzProvider(ctx, { argv, config: ctx.config, timeoutMs: 6000 }, { runs, seed: SEED, jobs: 2 }, { shrink: false, ...(made ? { cases: listedCases(made) } : {}) });
  return result.calls / ((performance.now() - started) / 1000);
}

async function suiteRun(argv: string[]): Promise<{ rate: number; requests: Uint8Array[] }> {
  const started = performance.now();
  const { transcript } = await runProviderSuite({ argv, config: CONFIG });
  const seconds = (performance.now() - started) / 1000;
  return { rate: transcript.exchanges.length / seconds, requests: transcript.exchanges.map((e) => e.request) };
}

async function measure(name: string, argv: string[], runs: number, dir: string): Promise<BenchResult[]> {
  const ctx = await prepareProviderFuzz(argv, CONFIG, 5000, 6000);
  if ("reason" in ctx) throw new Error(ctx.reason);
  const made = await casesOf(providerCaseArb(ctx), SEED, 0, runs);
  const fuzzInputs = made.flatMap((c) => (c.base ? [c.base.bytes, c.bytes] : [c.bytes]));
  const fuzzDir = writeInputs(join(dir, `${name}-fuzz`), fuzzInputs);
  const suiteDir = writeInputs(join(dir, `${name}-suite`), (await suiteRun(argv)).requests);
  const rates = { floor: [] as number[], fuzz: [] as number[], made: [] as number[], floor1: [] as number[], suite: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    rates.floor.push(floorRate(argv, fuzzDir, 2));
    rates.fuzz.push(await fuzzRate(argv, ctx, runs));
    rates.made.push(await fuzzRate(argv, ctx, runs, made));
    rates.floor1.push(floorRate(argv, suiteDir, 1));
    rates.suite.push((await suiteRun(argv)).rate);
  }
  const [a, b, b0, a1, c] = [median(rates.floor), median(rates.fuzz), median(rates.made), median(rates.floor1), median(rates.suite)];
  return [
    { name: `(a) floor: Node spawn loop, jobs 2, ${fuzzInputs.length} fuzz requests, ${name}`, value: a, unit: "calls/s" },
    { name: `(b) fuzz --jobs 2, ${runs} cases, ${name}`, value: b, unit: "calls/s" },
    { name: `(b)/(a), ${name}`, value: b / a, unit: "ratio", target: ">= 0.90" },
    { name: `(b0) the same fuzz, its cases made beforehand (not generating), ${name}`, value: b0, unit: "calls/s" },
    { name: `(b0)/(a), ${name}`, value: b0 / a, unit: "ratio" },
    { name: `(a1) floor: Node spawn loop, jobs 1, the suite's own requests, ${name}`, value: a1, unit: "calls/s" },
    { name: `(c) run (provider suite, serial), ${name}`, value: c, unit: "calls/s" },
    { name: `(c)/(a1), ${name}`, value: c / a1, unit: "ratio", target: ">= 0.90" },
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
      ...(await measure("compiled tiny provider", [tiny], 400, dir)),
      ...(await measure("Node reference provider", [reference], 40, dir)),
      { name: `peak RSS of the kit, fuzz --fuzz-runs 2000 (exit ${rss.exitCode})`, value: rss.kit, unit: "MB", target: "< 150" },
      { name: "peak RSS of its launcher process, same run", value: rss.child, unit: "MB", target: "< 150" },
    ];
  } finally {
    closeLauncher();
    rmSync(dir, { recursive: true, force: true });
  }
}
