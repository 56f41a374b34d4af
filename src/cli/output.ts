import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunReport } from "../core/report/types.js";
import { KitError } from "../core/errors.js";
import { checkReporterName, reporterFor } from "../reporters/registry.js";
import { auditReport } from "./report-audit.js";

export interface OutputOptions {
  reporters: string[];
  outDir: string;
  color: boolean;
  /** Where the user hosts docs/clauses.md (--docs-url); without it, clause links point at each clause's public source. */
  docsUrl?: string;
  /** --verbose: the console lists every clause. */
  verbose?: boolean;
  /** Where GITHUB_STEP_SUMMARY is read (process.env by default). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Console text goes here (stdout by default). */
  print?: (text: string) => void;
}

/** Checks reporter names before a run starts, so a typo costs nothing. */
export function checkReporters(names: readonly string[]): void {
  for (const name of names) checkReporterName(name);
}

/** Renders the report with every chosen reporter (loading only their modules): console ones print, file ones land in outDir. */
export async function emitReport(report: RunReport, options: OutputOptions): Promise<string[]> {
  const written: string[] = [];
  auditReport(report, options.outDir);
  const print = options.print ?? ((text: string) => process.stdout.write(text));
  for (const name of options.reporters) {
    for (const output of await reporterFor(name)) {
      const text = output.render(report, { color: options.color, ...(options.docsUrl !== undefined ? { docsUrl: options.docsUrl } : {}), ...(options.verbose === true ? { verbose: true } : {}) });
      if (output.stepSummary === true) {
        appendStepSummary(text, options.env ?? process.env);
        continue;
      }
      if (output.file === undefined) {
        print(text);
        continue;
      }
      const path = join(options.outDir, output.file);
      try {
        mkdirSync(options.outDir, { recursive: true });
        writeFileSync(path, text);
      } catch (error) {
        throw new KitError("io_failed", `cannot write ${path}: ${(error as Error).message}`);
      }
      written.push(path);
    }
  }
  return written;
}

/** The github reporter's Markdown summary (and run --baseline's diff), appended to the file $GITHUB_STEP_SUMMARY names (set by GitHub Actions); nothing when it is unset. */
export function appendStepSummary(text: string, env: Readonly<Record<string, string | undefined>>): void {
  const path = env["GITHUB_STEP_SUMMARY"];
  if (path === undefined || path === "") return;
  try {
    appendFileSync(path, text.endsWith("\n") ? `${text}\n` : `${text}\n\n`);
  } catch (error) {
    throw new KitError("io_failed", `cannot append to GITHUB_STEP_SUMMARY ${path}: ${(error as Error).message}`);
  }
}
