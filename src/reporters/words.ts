import type { RunReport } from "../core/report/types.js";

/**
 * The words a report is told in. A policy-test report (`awp-conformance policy-test`) holds the
 * user's cases, one entry per case, not catalogue clauses: every format titles and counts it so.
 */

export const isPolicyTest = (report: Pick<RunReport, "protocol">): boolean => report.protocol === "policy-test";

/** "case" for a policy-test report, "clause" for any other. */
export function unitWord(report: Pick<RunReport, "protocol">): "case" | "clause" {
  return isPolicyTest(report) ? "case" : "clause";
}

/** "3 clauses", "1 case". */
export function units(report: Pick<RunReport, "protocol">, n: number): string {
  return `${n} ${unitWord(report)}${n === 1 ? "" : "s"}`;
}

/** The title of a report: "Policy test report" or "Conformance report". */
export function reportTitle(report: Pick<RunReport, "protocol">): string {
  return isPolicyTest(report) ? "Policy test report" : "Conformance report";
}

const MODES: readonly string[] = ["awp-jsonl", "stream-json"];

/**
 * What a report judged, named from the protocol and a known mode only (no report string
 * reaches it as it is): "aw-provider", "AWP agent CLI (stream-json)", "aw-provider policy tests".
 */
export function protocolLabel(report: Pick<RunReport, "protocol" | "mode">): string {
  switch (report.protocol) {
    case "provider":
      return "aw-provider";
    case "policy-test":
      return "aw-provider policy tests";
    case "host":
      return report.mode === "agent-cli" || report.mode === "provider" ? `AWP host launch (${report.mode})` : "AWP host launch";
    case "agent-cli": {
      const mode = typeof report.mode === "string" && MODES.includes(report.mode) ? ` (${report.mode})` : "";
      return `AWP agent CLI${mode}`;
    }
    default:
      return "awp-conformance";
  }
}
