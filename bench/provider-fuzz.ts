import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { packageRoot } from "../src/core/paths.js";
import { prepareProviderFuzz } from "../src/fuzz/prepare.js";
import { providerCaseArb } from "../src/fuzz/provider/index.js";
import { fuzzProvider } from "../src/fuzz/provider-run.js";
import type { ProviderCase, ProviderFuzzContext } from "../src/fuzz/types.js";
import type { BenchResult } from "./json-reader.js";

const RUNS = 400;
const SEED = 1;

/** The plain baseline: a bash loop spawning the candidate once per request, the same bytes in the same order. */
function shellLoop(argv: string[], cases: ProviderCase[], dir: string): number {
  const inputs = join(dir, "inputs");
  mkdirSync(inputs, { recursive: true });
  let n = 0;
  for (const c of cases) {
    for (const item of c.base ? [c.base, c] : [c]) writeFileSync(join(inputs, `${String(n++).padStart(6, "0")}.bin`), item.bytes);
  }
  const command = `for f in "${inputs}"/*.bin; do "$@" < "$f" > /dev/null 2>&1; done`;
  const started = performance.now();
  spawnSync("bash", ["-c", command, "loop", ...argv], { stdio: "ignore" });
  return n / ((performance.now() - started) / 1000);
}

async function measure(name: string, argv: string[], ctx: ProviderFuzzContext, runs: number, dir: string): Promise<BenchResult[]> {
  const target = { argv, config: ctx.config, timeoutMs: 6000 };
  const started = performance.now();
  const result = await fuzzProvider(ctx, target, { runs, seed: SEED, jobs: 2 }, { shrink: false });
  const rate = result.calls / ((performance.now() - started) / 1000);
  const generating = performance.now();
  const cases = fc.sample(providerCaseArb(ctx), { seed: SEED, numRuns: runs });
  const perCase = (performance.now() - generating) / runs;
  const requests = cases.reduce((n, c) => n + (c.base ? 2 : 1), 0);
  const bytes = cases.reduce((n, c) => n + c.bytes.length + (c.base?.bytes.length ?? 0), 0) / requests;
  return [
    { name: `fuzz --jobs 2, ${name}`, value: rate, unit: "calls/s", ...(name.startsWith("compiled") ? { target: ">= 100" } : {}) },
    { name: `mean request, ${name}`, value: bytes / 1024, unit: "KiB" },
    { name: `case generation, ${name}`, value: perCase, unit: "ms/case" },
    { name: `bash loop, same inputs, ${name}`, value: shellLoop(argv, cases, join(dir, name.replace(/\W+/g, "-"))), unit: "calls/s" },
  ];
}

/** Fuzzer throughput against a small compiled provider and the Node reference, beside a plain shell loop. */
export async function benchProviderFuzz(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "awp-bench-"));
  try {
    const tiny = join(dir, "tiny-provider");
    execFileSync("cc", ["-O2", "-o", tiny, resolve(packageRoot(), "bench/fixtures/tiny-provider.c")]);
    const config = { value: { blocked_tools: ["example_tool"] }, document: '{"blocked_tools":["example_tool"]}' };
    const ctx = await prepareProviderFuzz([tiny], config, 5000, 6000);
    if ("reason" in ctx) throw new Error(ctx.reason);
    const reference = join(packageRoot(), "examples/reference-provider/provider.mjs");
    return [...(await measure("compiled tiny provider", [tiny], ctx, RUNS, dir)), ...(await measure("Node reference provider", [reference], ctx, 60, dir))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
