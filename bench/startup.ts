/**
 * Issue 12: CLI start-up. Spawns the built kit SPAWNS times per command line and reports the
 * median wall time from spawn to exit; `list` should stay under 300 ms (heavy modules load
 * only with the commands that use them, and `list` reads the build's catalogue snapshot).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { packageRoot } from "../src/core/paths.js";
import type { BenchResult } from "./json-reader.js";

const SPAWNS = 11;

const COMMANDS: { args: string[]; target?: string }[] = [
  { args: ["list"], target: "< 300" },
  { args: ["list", "--protocol", "provider"], target: "< 300" },
  { args: ["--help"] },
  { args: ["run", "--help"] },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median spawn-to-exit time of `awp-conformance ARGS`; throws when the command fails. */
function startup(cli: string, args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [cli, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`awp-conformance ${args.join(" ")} exited ${String(result.status)}: ${result.stderr.toString().slice(0, 500)}`);
  }
  return median(times);
}

export async function benchStartup(): Promise<BenchResult[]> {
  const cli = join(packageRoot(), "dist/src/cli/main.js");
  const results: BenchResult[] = [{ name: `node -e 0, the floor (median of ${SPAWNS})`, value: startup("-e", ["0"]), unit: "ms" }];
  for (const { args, target } of COMMANDS) {
    results.push({ name: `awp-conformance ${args.join(" ")} (median of ${SPAWNS})`, value: startup(cli, args), unit: "ms", ...(target !== undefined ? { target } : {}) });
  }
  return results;
}
