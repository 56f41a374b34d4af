import type { RunReport } from "../core/report/types.js";

export interface ReporterOptions {
  color: boolean;
  /** Findings shown per failing clause before "and N more". */
  maxFindings?: number;
}

/** A reporter is pure: report in, text out. */
export type Reporter = (report: RunReport, options: ReporterOptions) => string;
