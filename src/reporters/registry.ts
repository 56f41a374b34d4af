import { KitError } from "../core/errors.js";
import { renderBadgeJson, renderBadgeSvg } from "./badge.js";
import { renderConsole } from "./console.js";
import { renderHtml } from "./html.js";
import { renderJson } from "./json.js";
import { renderJunit } from "./junit.js";
import { renderMarkdown } from "./markdown.js";
import { renderTap } from "./tap.js";
import type { Reporter } from "./types.js";

/** One output of a reporter: printed (no file) or written to this fixed name in the report folder. */
export interface ReporterOutput {
  file?: string;
  render: Reporter;
}

/**
 * Reporters by name. The file names are a documented contract (README, action.yml):
 * report.json, report.xml, report.tap, report.md, report.html, badge.svg, badge.json.
 */
export const REPORTERS: Record<string, ReporterOutput[]> = {
  console: [{ render: renderConsole }],
  json: [{ render: renderJson, file: "report.json" }],
  junit: [{ render: renderJunit, file: "report.xml" }],
  tap: [{ render: renderTap, file: "report.tap" }],
  markdown: [{ render: renderMarkdown, file: "report.md" }],
  html: [{ render: renderHtml, file: "report.html" }],
  badge: [
    { render: renderBadgeSvg, file: "badge.svg" },
    { render: renderBadgeJson, file: "badge.json" },
  ],
};

export function reporterFor(name: string): ReporterOutput[] {
  const reporter = REPORTERS[name];
  if (reporter === undefined) throw new KitError("usage", `unknown reporter "${name}" (known: ${Object.keys(REPORTERS).join(", ")})`);
  return reporter;
}
