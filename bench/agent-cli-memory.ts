/**
 * Issue 12: the kit's memory must not grow with what a CLI prints. Runs the built kit's full
 * agent-cli suite against bench/fixtures/agent-cli-flood.mjs (stdout flooded with JSON lines
 * of about 1 KiB, of about 100 bytes, or of empty arrays, or one 200 MiB line without a newline) and, for
 * comparison, against the reference CLI; reports the kit process's peak RSS (VmHWM from
 * /proc, read while it runs; Linux only).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundledCandidates } from "../src/cli/bundled.js";
import { packageRoot } from "../src/core/paths.js";
import type { BenchResult } from "./json-reader.js";
import { peakRssOf } from "./peak-rss.js";

export async function benchAgentCliMemory(): Promise<BenchResult[]> {
  if (process.platform !== "linux") return [];
  const dir = mkdtempSync(join(tmpdir(), "awp-bench-memory-"));
  const flood = join(packageRoot(), "bench/fixtures/agent-cli-flood.mjs");
  const run = (out: string, env: string[], argv: string[]): string[] => ["run", "--protocol", "agent-cli", "--mode", "awp-jsonl", ...env.flatMap((e) => ["--env", e]), "--quiet", "--reporter", "json", "--out", join(dir, out), ...argv];
  const reference = bundledCandidates().find((c) => c.protocol === "agent-cli" && c.mode === "awp-jsonl");
  const cases: { name: string; args: string[] }[] = [
    { name: "stdout flooded with ~1 KiB JSON lines", args: run("flood", ["AWP_FLOOD_LINE_BYTES=1024"], [flood]) },
    { name: "stdout flooded with ~100-byte JSON lines", args: run("tiny", ["AWP_FLOOD_LINE_BYTES=0"], [flood]) },
    { name: "stdout flooded with ~1 KiB lines of empty arrays", args: run("nested", ["AWP_FLOOD_LINE_BYTES=1024", "AWP_FLOOD_NESTED=1"], [flood]) },
    { name: "one 200 MiB stdout line without a newline", args: run("huge", [`AWP_FLOOD_HUGE_LINE=${200 * 1024 * 1024}`], [flood]) },
    ...(reference !== undefined ? [{ name: "the reference CLI (bundled configuration), for comparison", args: run("reference", reference.env ?? [], reference.argv) }] : []),
  ];
  try {
    const results: BenchResult[] = [];
    for (const { name, args } of cases) results.push({ name: `peak RSS of a full agent-cli run, ${name}`, value: (await peakRssOf(args)).kit, unit: "MB", target: "< 150" });
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
