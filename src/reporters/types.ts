import type { RunReport } from "../core/report/types.js";

export interface ReporterOptions {
  color: boolean;
  /** Findings shown per failing clause before "and N more". */
  maxFindings?: number;
  /** Where docs/clauses.md lives; clause links are `${docsUrl}#${clauseAnchor(id)}`. */
  docsUrl?: string;
}

/** A reporter is pure: report in, text out. */
export type Reporter = (report: RunReport, options: ReporterOptions) => string;
