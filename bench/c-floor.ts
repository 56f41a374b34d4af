/**
 * The C floor of the provider-fuzz bench (issue 30): what the machine can do for the calls of a
 * fuzz campaign with no runtime in between. The exact request bytes the kit sends in a campaign
 * of a fixed seed are recorded once (every call, in the order it was made); a small C program
 * (fixtures/spawn-floor.c, built here with cc) replays them with posix_spawn + write + drain +
 * wait, `jobs` at a time; the plain Node loop (floor-loop.js) replays the same files; and the
 * kit's whole `fuzz` process (start-up and report included, as a user runs it) is timed beside
 * them, with its peak RSS.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { packageRoot } from "../src/core/paths.js";
import { prepareProviderFuzz } from "../src/fuzz/prepare.js";
import { fuzzProvider } from "../src/fuzz/provider-run.js";
import { callProvider, type ProviderCall } from "../src/runner/provider/call.js";
import type { JsonObject } from "../src/core/provider/types.js";
import type { BenchResult } from "./json-reader.js";
import { benchKitWork } from "./kit-work.js";
import { peakRssOf } from "./peak-rss.js";

const FLOOR_LOOP = resolve(packageRoot(), "dist/bench/floor-loop.js");

/** bench/fixtures/NAME.c built with cc into `dir`, or why it cannot be (one line, after `what`). */
export function buildBenchFixture(name: string, dir: string, what: string, flags: readonly string[] = []): { path: string } | { skip: string } {
  const path = join(dir, name);
  const built = spawnSync("cc", ["-O2", ...flags, "-o", path, resolve(packageRoot(), `bench/fixtures/${name}.c`)], { encoding: "utf8" });
  if (built.error !== undefined) return { skip: `${what} skipped: no C compiler (cc) on PATH (${built.error.message})` };
  if (built.status !== 0) return { skip: `${what} skipped: cc failed to build bench/fixtures/${name}.c: ${built.stderr.split("\n")[0] ?? ""}` };
  return { path };
}

/** The C floor built into `dir`, or why it cannot be (one line). */
export const buildSpawnFloor = (dir: string): { path: string } | { skip: string } => buildBenchFixture("spawn-floor", dir, "C floor", ["-pthread"]);

/**
 * Runs a campaign of `runs` cases from `seed`, --jobs 2, shrinking its failures as `fuzz` does, and writes every request
 * it sent into `dir` as it was sent (000000.bin, ...). Returns the number of calls.
 */
export async function recordCampaign(argv: string[], config: { value: JsonObject; document: string }, runs: number, seed: number, dir: string): Promise<number> {
  mkdirSync(dir, { recursive: true });
  const ctx = await prepareProviderFuzz(argv, config, 5000, 6000);
  if ("reason" in ctx) throw new Error(ctx.reason);
  let n = 0;
  const call: ProviderCall = (target, request, options) => {
    writeFileSync(join(dir, `${String(n++).padStart(6, "0")}.bin`), request);
    return callProvider(target, request, options);
  };
  const result = await fuzzProvider(ctx, { argv, config: ctx.config, timeoutMs: 6000 }, { runs, seed, jobs: 2 }, { call });
  if (result.calls !== n) throw new Error(`recorded ${n} calls of ${result.calls}`);
  return n;
}

export interface FloorRun {
  calls: number;
  seconds: number;
  /** The C floor's own CPU over the run, and its candidates' (ms). */
  cpuMs?: number;
  childrenMs?: number;
}

/** The C floor over the requests of `dir`, `jobs` at a time. */
export function cFloorRun(floor: string, argv: readonly string[], dir: string, jobs: number): FloorRun {
  const out = execFileSync(floor, [String(jobs), dir, ...argv], { encoding: "utf8", maxBuffer: 1 << 20 });
  return JSON.parse(out) as FloorRun;
}

/** The plain Node spawn loop over the requests of `dir`, `jobs` at a time. */
export function nodeFloorRun(argv: readonly string[], dir: string, jobs: number): FloorRun {
  const out = execFileSync(process.execPath, [FLOOR_LOOP, String(jobs), dir, ...argv], { encoding: "utf8", maxBuffer: 1 << 20 });
  return JSON.parse(out) as FloorRun;
}

/** What the native spawner says of its run when AWP_CONFORMANCE_SPAWNER_STATS is set (native/spawner.c, say_stats): its own CPU and its candidates', ms. */
export function spawnerStatsOf(stderr: string): { calls: number; ownMs: number; candidatesMs: number } | undefined {
  const line = /awp-conformance spawner: (\d+) calls; own cpu ([\d.]+) s .*; candidates cpu ([\d.]+) s/.exec(stderr);
  return line === null ? undefined : { calls: Number(line[1]), ownMs: Number(line[2]) * 1000, candidatesMs: Number(line[3]) * 1000 };
}

/**
 * `awp-conformance fuzz --jobs 2` as a user runs it: its wall (the whole process), its peak RSS, the CPU of its own
 * processes, and what its native spawner used (its own CPU and its candidates'; absent on the Node launchers).
 */
export async function wholeFuzz(argv: readonly string[], config: string, runs: number, seed: number, out: string): Promise<{ seconds: number; rss: number; calls: number; kitCpuMs: number; spawnerSideMs?: number }> {
  const started = performance.now();
  const peak = await peakRssOf(["fuzz", "--protocol", "provider", "--jobs", "2", "--fuzz-runs", String(runs), "--seed", String(seed), "--config-json", config, "--reporter", "json", "--out", out, "--quiet", ...argv], { AWP_CONFORMANCE_SPAWNER_STATS: "1" });
  const seconds = (performance.now() - started) / 1000;
  // Exit 1 is a failing verdict (the bench's provider fails robustness clauses); anything else is not a finished run.
  if (peak.exitCode !== 0 && peak.exitCode !== 1) throw new Error(`fuzz exited ${peak.exitCode}`);
  const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as { fuzz?: { calls?: number } };
  const spawner = spawnerStatsOf(peak.stderr);
  return { seconds, rss: peak.kit, calls: report.fuzz?.calls ?? Number.NaN, kitCpuMs: peak.kitCpuMs, ...(spawner ? { spawnerSideMs: spawner.ownMs + spawner.candidatesMs } : {}) };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * The kit's whole `fuzz` process beside the C floor and the plain Node loop on the same bytes
 * (recorded from a campaign of the same seed), in alternating rounds; medians of the walls, the
 * kit's ratio to the floor (its speed as a fraction of the floor's) and its peak RSS.
 */
export async function benchCFloor(name: string, argv: string[], config: { value: JsonObject; document: string }, runs: number, seed: number, dir: string, rounds: number): Promise<BenchResult[]> {
  const floor = buildSpawnFloor(dir);
  if ("skip" in floor) {
    process.stderr.write(`provider-fuzz: ${floor.skip}\n`);
    return [];
  }
  const slug = name.replace(/\W+/g, "-");
  const requests = join(dir, `${slug}-recorded`);
  const calls = await recordCampaign(argv, config, runs, seed, requests);
  const walls = { c: [] as number[], cCpu: [] as number[], node: [] as number[], kit: [] as number[], fixed: [] as number[], rss: [] as number[], kitCpu: [] as number[], spawnerSide: [] as number[], allCpu: [] as number[], calls: 0 };
  for (let round = 0; round < rounds; round++) {
    const c = cFloorRun(floor.path, argv, requests, 2);
    walls.c.push(c.seconds);
    walls.cCpu.push(((c.cpuMs ?? 0) + (c.childrenMs ?? 0)) / 1000);
    // The kit's start-up, preparation and report: a whole fuzz process of one case.
    walls.fixed.push((await wholeFuzz(argv, config.document, 1, seed, join(dir, `${slug}-one-${round}`))).seconds);
    walls.node.push(nodeFloorRun(argv, requests, 2).seconds);
    const kit = await wholeFuzz(argv, config.document, runs, seed, join(dir, `${slug}-report-${round}`));
    walls.kit.push(kit.seconds);
    walls.rss.push(kit.rss);
    walls.kitCpu.push(kit.kitCpuMs);
    if (kit.spawnerSideMs !== undefined) {
      walls.spawnerSide.push(kit.spawnerSideMs);
      walls.allCpu.push((kit.kitCpuMs + kit.spawnerSideMs) / 1000);
    }
    walls.calls = kit.calls;
  }
  const [c, node, kit] = [median(walls.c), median(walls.node), median(walls.kit)];
  const work = await benchKitWork(name, argv, config, runs, seed, requests);
  // The bound: the kit's necessary work for every call, with the floor's own work (spawning, the candidates), on the
  // machine's 2 cores (never less than the kit's work on its one thread), after the kit's start-up and before its report.
  const necessary = (work.perCallMs * calls) / 1000;
  const bound = median(walls.fixed) + Math.max(necessary, (necessary + median(walls.cCpu)) / 2);
  return [
    { name: `(F) C floor: posix_spawn + write + drain + wait, jobs 2, the ${calls} requests a fuzz of ${runs} cases sends (shrinking included), ${name}`, value: c, unit: "s" },
    { name: `(Fn) plain Node spawn loop, jobs 2, the same requests, ${name}`, value: node, unit: "s" },
    { name: `(K) awp-conformance fuzz --jobs 2 --fuzz-runs ${runs}, the whole process (${walls.calls} calls: shrinking its failures included), ${name}`, value: kit, unit: "s" },
    { name: `(F)/(K): the kit's speed as a fraction of the C floor's, ${name}`, value: c / kit, unit: "ratio", target: ">= 0.50" },
    { name: `(Fn)/(K): the kit's speed against the plain Node loop's, ${name}`, value: node / kit, unit: "ratio" },
    { name: `peak RSS of the kit in (K), ${name}`, value: median(walls.rss), unit: "MB", target: "< 150" },
    ...work.rows,
    // Where (K)'s CPU went, per call, beside the necessary work and the floor's: the kit's own processes (start-up and report included), and its spawning side.
    { name: `(K) CPU: the kit's own processes in (K), start-up and report included, per call (necessary: the generating-and-judging row), ${name}`, value: median(walls.kitCpu) / walls.calls, unit: "ms" },
    ...(walls.spawnerSide.length > 0 ? [{ name: `(K) CPU: its spawning side, the native spawner's own CPU and its candidates', per call, ${name}`, value: median(walls.spawnerSide) / walls.calls, unit: "ms" }] : []),
    { name: `(F) CPU: the C floor's own CPU and its candidates', per call, ${name}`, value: (median(walls.cCpu) * 1000) / calls, unit: "ms" },
    { name: `(B) the bound: the kit's start-up and report (a fuzz of 1 case, ${median(walls.fixed).toFixed(2)} s), then its necessary work for the ${calls} calls (${necessary.toFixed(2)} s of CPU) beside the floor's (${median(walls.cCpu).toFixed(2)} s: spawning and the candidates) on 2 cores, ${name}`, value: bound, unit: "s" },
    // The least (K) can be with the CPU it uses: all of it spread over both cores from start to end (start-up included, which runs on one).
    ...(walls.allCpu.length > 0
      ? [
          { name: `(K) at full use of 2 cores: the CPU of (K) (its own processes and its spawning side) over 2, the least its wall can be with that CPU, ${name}`, value: median(walls.allCpu) / 2, unit: "s" },
          { name: `that over (B): the least (K)/(B) can be without cutting the CPU (K) uses, ${name}`, value: median(walls.allCpu) / 2 / bound, unit: "ratio" },
        ]
      : []),
    { name: `(F)/(B): the most (F)/(K) can be with the kit's necessary work, ${name}`, value: c / bound, unit: "ratio" },
    { name: `(K)/(B): the kit's whole process against the bound, ${name}`, value: kit / bound, unit: "ratio", target: "<= 1.20" },
  ];
}
