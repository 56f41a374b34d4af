/**
 * Issue 12: the full agent-cli suite against the reference CLI, in each mode, as the bundled
 * run configures it (managed-task bridge on), through the built kit like a user runs it.
 * Reports the wall time from spawn to exit per mode; the target is under 10 s each.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundledCandidates } from "../src/cli/bundled.js";
import { packageRoot } from "../src/core/paths.js";
import type { RunReport } from "../src/core/report/types.js";
import type { BenchResult } from "./json-reader.js";

/** One run of a bundled agent-cli candidate; throws unless it is conformant. */
function timedRun(argv: string[], mode: string, env: readonly string[], out: string): number {
  const cli = join(packageRoot(), "dist/src/cli/main.js");
  const args = [cli, "run", "--protocol", "agent-cli", "--mode", mode, ...env.flatMap((e) => ["--env", e]), "--quiet", "--reporter", "json", "--out", out, ...argv];
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as RunReport;
  if (result.status !== 0 || report.summary.verdict !== "conformant") throw new Error(`reference agent CLI (${mode}) was not conformant: exit ${String(result.status)}, ${report.summary.verdict}`);
  return seconds;
}

export async function benchAgentCliTime(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "awp-bench-agent-"));
  try {
    return bundledCandidates()
      .filter((c) => c.protocol === "agent-cli" && c.mode !== undefined)
      .map((c) => ({ name: `full suite, reference CLI, ${c.mode} (bundled configuration)`, value: timedRun(c.argv, c.mode as string, c.env ?? [], join(dir, c.name)), unit: "s", target: "< 10" }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
