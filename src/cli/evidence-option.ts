import type { Argv } from "yargs";
import type { EvidenceLevel } from "../core/report/pass-evidence.js";

/** --evidence: which clauses keep a wire log in the report (run). */
export interface EvidenceArgs {
  evidence?: string;
}

export function withEvidenceOption<T>(y: Argv<T>): Argv<T> {
  return y.option("evidence", {
    type: "string",
    choices: ["failures", "all"],
    describe: "which clauses keep their wire log in report.json and report.html: failures (default), or all, so a pass shows the request or session it was judged on (bounded like a failure's; about 1 MB in all)",
  }) as Argv<T>;
}

/** The suite option --evidence gives (nothing for the default). */
export function evidenceOption(args: EvidenceArgs): { evidence?: EvidenceLevel } {
  return args.evidence === "all" ? { evidence: "all" } : {};
}
