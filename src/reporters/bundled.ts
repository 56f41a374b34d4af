import type { RunReport } from "../core/report/types.js";

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * "bundled example reference-provider" for a report of one of the kit's own examples (the
 * report's candidate.bundled), so no format lets it pass for the user's candidate; undefined for
 * any other report. A name of another form (a hand-edited report) reads as "bundled example".
 */
export function bundledLabel(report: RunReport): string | undefined {
  const name: unknown = report.candidate.bundled;
  if (name === undefined) return undefined;
  return typeof name === "string" && NAME.test(name) ? `bundled example ${name}` : "bundled example";
}
