/**
 * Issue 12: the kit's memory must not grow with what a CLI prints. Runs the built kit's full
 * agent-cli suite against bench/fixtures/agent-cli-flood.mjs (stdout flooded with JSON lines
 * of about 1 KiB, of about 100 bytes, or of empty arrays, or one 200 MiB line without a newline) and, for
 * comparison, against the reference CLI; reports the kit process's peak RSS (VmHWM from
 * /proc, read while it runs; Linux only).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundledCandidates } from "../src/cli/bundled.js";
import { packageRoot } from "../src/core/paths.js";
import type { BenchResult } from "./json-reader.js";

const POLL_MS = 10;

/** The kit's peak RSS in MB over one run (child processes not counted). */
function peakRss(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(packageRoot(), "dist/src/cli/main.js"), ...args], { stdio: "ignore" });
    let peakKb = 0;
    const read = (): void => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (match) peakKb = Math.max(peakKb, Number(match[1]));
      } catch {
        // Gone between polls: the last reading stands (VmHWM only grows).
      }
    };
    const timer = setInterval(read, POLL_MS);
    child.once("error", reject);
    child.once("exit", () => {
      clearInterval(timer);
      resolve(peakKb / 1024);
    });
  });
}

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
    for (const { name, args } of cases) results.push({ name: `peak RSS of a full agent-cli run, ${name}`, value: await peakRss(args), unit: "MB", target: "< 150" });
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
