/**
 * The kit's necessary work for a fuzz campaign, each part alone on one thread at its best
 * measured speed (issue 30's bound): generating the cases (fast-check, building, binding: the
 * SHA-256 of every request byte is part of it, and is shown alone beside it) and judging every
 * case's transcript. The answers are an
 * instant stand-in (no process), the same for every run; each part is timed warm, the least of
 * three runs (its best measured speed), in CPU time of this process.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { casesOf } from "../src/fuzz/cases.js";
import { prepareProviderFuzz } from "../src/fuzz/prepare.js";
import { providerCaseArb } from "../src/fuzz/provider/index.js";
import { caseResults, runProviderCase } from "../src/fuzz/provider-run.js";
import type { ProviderCall } from "../src/runner/provider/call.js";
import type { JsonObject, ProviderTranscript } from "../src/core/provider/types.js";
import type { BenchResult } from "./json-reader.js";

/** A provider that answers every request at once, as fixtures/tiny-provider.c does: ok, its digest echoed (no process). */
export const answering: ProviderCall = (_argv, request) => {
  const text = Buffer.from(request).toString("latin1");
  const id = /"request_id":"([^"]*)"/.exec(text)?.[1] ?? "";
  const digest = /"input_digest":"([^"]*)"/.exec(text)?.[1] ?? "";
  const stdout = new TextEncoder().encode(`{"api_version":"aw-provider/v1alpha1","request_id":"${id}","status":"ok","input_digest":"${digest}","effects":[]}\n`);
  return Promise.resolve({
    outcome: { exitCode: 0, signal: null, timedOut: false, stdoutCapped: false, stderrCapped: false, durationMs: 1, stdoutBytes: stdout.length, stderrBytes: 0, killedByKit: false },
    stdout,
    stderr: new Uint8Array(),
  });
};

/** The least CPU ms of three warm runs of `work` (a first run warms the code up): its best measured speed. */
async function warmCpuMs(work: () => Promise<void> | void): Promise<number> {
  await work();
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const before = process.cpuUsage();
    await work();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** The necessary work per call of a campaign of `runs` cases from `seed` (`requests` holds the bytes it sent, c-floor.ts): its rows, and generating and judging per call, in ms. */
export async function benchKitWork(name: string, argv: string[], config: { value: JsonObject; document: string }, runs: number, seed: number, requests: string): Promise<{ rows: BenchResult[]; perCallMs: number }> {
  const ctx = await prepareProviderFuzz(argv, config, 5000, 6000);
  if ("reason" in ctx) throw new Error(ctx.reason);
  const arb = providerCaseArb(ctx);
  const target = { argv, config: ctx.config, timeoutMs: 6000 };
  const generating = await warmCpuMs(async () => void (await casesOf(arb, seed, 0, runs)));
  const cases = await casesOf(arb, seed, 0, runs);
  const calls = cases.reduce((n, c) => n + (c.base ? 2 : 1), 0);
  const bytes = readdirSync(requests).sort().map((file) => readFileSync(join(requests, file)));
  const hashing = await warmCpuMs(() => {
    for (const request of bytes) createHash("sha256").update(request).digest("hex");
  });
  const transcripts: ProviderTranscript[] = [];
  for (const c of cases) transcripts.push(await runProviderCase(c, target, answering));
  const judging = await warmCpuMs(() => {
    cases.forEach((c, i) => caseResults(c, transcripts[i] as ProviderTranscript));
  });
  const mib = bytes.reduce((n, b) => n + b.length, 0) / 2 ** 20;
  const rows: BenchResult[] = [
    { name: `kit work: generating the ${runs} cases (${calls} calls), CPU per call, ${name}`, value: generating / calls, unit: "ms" },
    { name: `kit work: of which SHA-256 of the ${bytes.length} requests sent (${mib.toFixed(0)} MiB, shrinking included), CPU per request, ${name}`, value: hashing / bytes.length, unit: "ms" },
    { name: `kit work: judging the ${runs} cases, CPU per call, ${name}`, value: judging / calls, unit: "ms" },
    { name: `kit work: generating and judging, per call (the kit's own CPU with spawning free), ${name}`, value: (generating + judging) / calls, unit: "ms" },
  ];
  return { rows, perCallMs: (generating + judging) / calls };
}
