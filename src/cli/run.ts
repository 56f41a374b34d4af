import { join } from "node:path";
import { KitError } from "../core/errors.js";
import type { RunReport } from "../core/report/types.js";
import { exitCodeFor } from "../core/report/judge.js";
import { attachReproductions } from "../runner/provider/reproduce.js";
import { runProviderSuite } from "../runner/provider/suite.js";
import { summaryLine } from "../reporters/console.js";
import { bundledCandidates, type BundledCandidate } from "./bundled.js";
import { resolveCandidate } from "./candidate.js";
import { emitReport } from "./output.js";
import { readProviderConfigs } from "./provider-options.js";

export interface RunArgs {
  protocol?: string;
  candidate?: string;
  args: string[];
  configJson?: string;
  configFile?: string;
  invalidConfigFile?: string;
  out?: string;
  clause: string[];
  skip: string[];
  timeout?: number;
  budget?: number;
  reporter: string[];
  color: boolean;
}

function positive(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new KitError("usage", `${flag} must be a positive integer of milliseconds`);
  return value;
}

async function runOne(args: RunArgs, argv: string[], outDir: string): Promise<{ report: RunReport; code: 0 | 1 }> {
  if (args.protocol !== "provider") {
    throw new KitError("usage", `--protocol ${args.protocol ?? "(none)"} is not supported yet; use --protocol provider`);
  }
  const configs = readProviderConfigs(args);
  const timeoutMs = positive(args.timeout, "--timeout");
  const budgetMs = positive(args.budget, "--budget");
  const { report, transcript } = await runProviderSuite({
    argv,
    ...configs,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(budgetMs !== undefined ? { budgetMs } : {}),
    selection: { clause: args.clause, skip: args.skip },
  });
  attachReproductions(report, transcript, outDir);
  emitReport(report, { reporters: args.reporter, outDir, color: args.color });
  return { report, code: exitCodeFor(report.summary) };
}

function bundledArgs(args: RunArgs, candidate: BundledCandidate): RunArgs {
  return {
    ...args,
    protocol: candidate.protocol,
    ...(candidate.configFile ? { configFile: candidate.configFile } : {}),
    ...(candidate.invalidConfigFile ? { invalidConfigFile: candidate.invalidConfigFile } : {}),
  };
}

/** `awp-conformance run`: one candidate, or every bundled example when none is given. */
export async function runCommand(args: RunArgs): Promise<number> {
  const outRoot = args.out ?? "reports";
  if (args.candidate !== undefined) {
    const argv = [resolveCandidate(args.candidate), ...args.args];
    return (await runOne(args, argv, outRoot)).code;
  }
  if (args.args.length > 0 || args.configJson || args.configFile || args.invalidConfigFile) {
    throw new KitError("usage", "candidate arguments and configuration options need a candidate executable");
  }
  let worst = 0;
  const lines: string[] = [];
  for (const candidate of bundledCandidates()) {
    if (args.protocol !== undefined && args.protocol !== candidate.protocol) continue;
    const { report, code } = await runOne(bundledArgs(args, candidate), candidate.argv, join(outRoot, candidate.name));
    lines.push(`${candidate.name}: ${summaryLine(report)} (${join(outRoot, candidate.name, "report.json")})`);
    worst = Math.max(worst, code);
  }
  if (lines.length === 0) throw new KitError("usage", `no bundled example for --protocol ${args.protocol}`);
  process.stdout.write(`\nBundled examples:\n${lines.map((l) => `  ${l}`).join("\n")}\n`);
  return worst;
}
