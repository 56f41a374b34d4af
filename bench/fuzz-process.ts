/**
 * `fuzz --jobs 2` measured in a process of its own, as a user's `fuzz` runs (the provider-fuzz
 * bench starts it like the CLI starts its tuned fuzz process: the same V8 and malloc settings),
 * as the floor runs in a process of its own. Measured in the bench's own process instead, the
 * fuzzer shared its heap with the cases the bench keeps for (b0) and its compiled code with the
 * suite runs, and ran slower than any user's `fuzz` does.
 *
 * Runs the same fuzz twice in a row, from the same seed, and prints both as JSON: the first run
 * of a fresh process (cold: the kit's code is compiled as it goes) and the second (warm). With
 * `made`, the cases are made first (not timed) and listed to both runs: the kit's rate when
 * generating costs nothing.
 * Usage: node [flags] fuzz-process.js '{"argv":[...],"runs":400,"seed":1,"made":false,"config":{...}}'
 */
import { settleTunedProcess } from "../src/cli/tuned.js";
import { applyKitV8Policy } from "../src/cli/v8-policy.js";
import { casesOf, listedCases } from "../src/fuzz/cases.js";
import { prepareProviderFuzz } from "../src/fuzz/prepare.js";
import { providerCaseArb } from "../src/fuzz/provider/index.js";
import { fuzzProvider } from "../src/fuzz/provider-run.js";
import { closeLauncher, launcherPids, useLauncher } from "../src/runner/launcher/client.js";
import type { JsonObject } from "../src/core/provider/types.js";
import { cpuShare, cpuSnapshot, type Measured } from "./cpu-share.js";

interface Job {
  argv: string[];
  runs: number;
  seed: number;
  made: boolean;
  config: { value: JsonObject; document: string };
}

async function main(job: Job): Promise<Measured[]> {
  // Started as the CLI starts its fuzz process (tunedStart): the launchers get the environment back.
  settleTunedProcess();
  applyKitV8Policy();
  useLauncher();
  try {
    const ctx = await prepareProviderFuzz(job.argv, job.config, 5000, 6000);
    if ("reason" in ctx) throw new Error(ctx.reason);
    const made = job.made ? await casesOf(providerCaseArb(ctx), job.seed, 0, job.runs) : undefined;
    const runs: Measured[] = [];
    for (let n = 0; n < 2; n++) {
      const before = cpuSnapshot(launcherPids());
      const started = performance.now();
      const result = await fuzzProvider(ctx, { argv: job.argv, config: ctx.config, timeoutMs: 6000 }, { runs: job.runs, seed: job.seed, jobs: 2 }, { shrink: false, ...(made ? { cases: listedCases(made) } : {}) });
      const rate = result.calls / ((performance.now() - started) / 1000);
      const after = cpuSnapshot(launcherPids());
      // Launchers start during the first run: its launcher CPU counts from their start (a fork's worth).
      runs.push({ rate, ...(before && after && after.launchers.length === before.launchers.length ? { share: cpuShare(before, after, result.calls) } : {}) });
    }
    return runs;
  } finally {
    closeLauncher();
  }
}

process.stdout.write(`${JSON.stringify(await main(JSON.parse(process.argv[2] ?? "{}") as Job))}\n`);
