import type { RunReport } from "../core/report/types.js";

export interface ReporterOptions {
  color: boolean;
  /** Findings shown per failing clause before "and N more". */
  maxFindings?: number;
  /** Where the user hosts docs/clauses.md (--docs-url): clause links are then `${docsUrl}#${clauseAnchor(id)}`; without it, each clause's public source. */
  docsUrl?: string;
  /** --verbose: the console lists every clause (passes, skips, not applicable) and every reason a run is incomplete. */
  verbose?: boolean;
}

/** A reporter is pure: report in, text out. */
export type Reporter = (report: RunReport, options: ReporterOptions) => string;
