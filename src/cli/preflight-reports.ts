/**
 * Pre-flight of the inputs that are saved reports (option-rules.ts, CommandNeeds.reports): each
 * is read as `awp-conformance report` reads one (bounded, strict, schema-checked, its summary
 * agreeing with its clauses), then `diff`'s two are checked against each other and `run
 * --baseline`'s against the run about to start. Every mistake is a usage error (exit 2) that
 * names the file and says why, before anything is launched.
 */
import { resolve } from "node:path";
import { parseSavedReport } from "../core/inputs/report.js";
import { readInputFile } from "../core/inputs/read.js";
import { parseShard } from "../core/report/shard.js";
import type { RunReport } from "../core/report/types.js";
import { checkComparable, mismatch, type RunShape } from "../core/report/diff-comparable.js";
import { KitError } from "../core/errors.js";
import type { CommandNeeds } from "./option-rules.js";

/** Reports already read in this process, by absolute path: pre-flight reads them, the command then uses the same ones. */
const readBefore = new Map<string, RunReport>();

/** A saved report.json, read and checked once per process (the path as the user gave it, resolved against cwd). */
export function readSavedReport(path: string, cwd: string = process.cwd()): RunReport {
  const full = resolve(cwd, path);
  const known = readBefore.get(full);
  if (known !== undefined) return known;
  const report = parseSavedReport(readInputFile(full, "report"), path);
  readBefore.set(full, report);
  return report;
}

/**
 * What `run` is about to do, as a report would say it: its protocol, its mode (agent-cli:
 * --mode, else awp-jsonl; --from-env takes it from the environment, so the baseline's is
 * trusted) and its shard. Undefined when the protocol is not known yet (a configuration file
 * names it; config/run.ts pre-flights again with it).
 */
function runShape(argv: Record<string, unknown>, baseline: RunReport): RunShape | undefined {
  const protocol = argv.protocol;
  if (protocol !== "provider" && protocol !== "agent-cli") return undefined;
  const mode = protocol === "provider" ? undefined : typeof argv.mode === "string" ? argv.mode : argv["from-env"] === true ? baseline.mode : "awp-jsonl";
  const shard = typeof argv.shard === "string" ? parseShard(argv.shard) : undefined;
  return { protocol, ...(mode !== undefined ? { mode } : {}), ...(shard !== undefined ? { shard } : {}) };
}

export function checkReportInputs(needs: CommandNeeds, argv: Record<string, unknown>, cwd: string): void {
  const rule = needs.reports;
  if (rule === undefined) return;
  const given = rule.keys.flatMap((key) => (typeof argv[key] === "string" && argv[key] !== "" ? [{ key, path: argv[key] }] : []));
  const reports = given.map(({ path }) => readSavedReport(path, cwd));
  if (rule.against === "each-other") {
    const [older, newer] = reports;
    if (older !== undefined && newer !== undefined) checkComparable(older, newer, { old: given[0]?.path ?? "OLD", new: given[1]?.path ?? "NEW" });
    return;
  }
  for (const [index, report] of reports.entries()) {
    const shape = runShape(argv, report);
    if (shape === undefined) continue;
    const why = mismatch(report, shape, { a: `--${given[index]?.key ?? "baseline"} ${given[index]?.path ?? ""}`, b: "this run" });
    if (why !== undefined) throw new KitError("usage", why);
  }
}
