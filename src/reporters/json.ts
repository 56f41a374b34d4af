import type { RunReport } from "../core/report/types.js";

/** The JSON report, the source every other format is rendered from. */
export function renderJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
