import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunReport } from "../core/report/types.js";
import { KitError } from "../core/errors.js";
import { reporterFor } from "../reporters/registry.js";

export interface OutputOptions {
  reporters: string[];
  outDir: string;
  color: boolean;
  /** Console text goes here (stdout by default). */
  print?: (text: string) => void;
}

/** Renders the report with every chosen reporter: console ones print, file ones land in outDir. */
export function emitReport(report: RunReport, options: OutputOptions): string[] {
  const written: string[] = [];
  const print = options.print ?? ((text: string) => process.stdout.write(text));
  for (const name of options.reporters) {
    const reporter = reporterFor(name);
    const text = reporter.render(report, { color: options.color });
    if (reporter.file === undefined) {
      print(text);
      continue;
    }
    const path = join(options.outDir, reporter.file);
    try {
      mkdirSync(options.outDir, { recursive: true });
      writeFileSync(path, text);
    } catch (error) {
      throw new KitError("io_failed", `cannot write ${path}: ${(error as Error).message}`);
    }
    written.push(path);
  }
  return written;
}
