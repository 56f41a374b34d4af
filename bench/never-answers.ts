/**
 * Issue 9: a CLI that never answers gets a complete report quickly. Runs the built kit with
 * its default bounds against the two never-answering mock faults, in both modes one after the
 * other (like the bundled pair of runs), and reports the wall time of each pair.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../src/core/paths.js";
import type { RunReport } from "../src/core/report/types.js";
import type { BenchResult } from "./json-reader.js";

const FAULTS = ["silent", "binary-garbage"];
const MODES = ["awp-jsonl", "stream-json"];

/** One default run; throws unless it reports the never-answered cause first. */
function timedRun(fault: string, mode: string, out: string): number {
  const started = performance.now();
  const cli = join(packageRoot(), "dist/src/cli/main.js");
  spawnSync(process.execPath, [cli, "run", "--protocol", "agent-cli", "--mode", mode, "--quiet", "--reporter", "json", "--out", out, join(packageRoot(), "dist/src/mocks/agent-cli.js"), "--", "--fault", fault], { stdio: "ignore" });
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as RunReport;
  if (!report.halted?.startsWith("the CLI never answered a turn")) throw new Error(`${fault} (${mode}): the report does not say the CLI never answered`);
  return seconds;
}

export async function benchNeverAnswers(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "awp-bench-silent-"));
  try {
    return FAULTS.flatMap((fault) => {
      const each = MODES.map((mode) => timedRun(fault, mode, join(dir, `${fault}-${mode}`)));
      const total = each.reduce((a, b) => a + b, 0);
      return [{ name: `mock agent-cli --fault ${fault}, both modes (${each.map((s) => s.toFixed(1)).join(" s + ")} s), default bounds`, value: total, unit: "s", target: "< 90" }];
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
