import { KitError } from "../core/errors.js";
import type { Reporter } from "./types.js";

/** One output of a reporter: printed (no file) or written to this fixed name in the report folder. */
export interface ReporterOutput {
  file?: string;
  render: Reporter;
}

/**
 * Reporters by name, each output with the module that renders it. The file names are a
 * documented contract (README, action.yml): report.json, report.xml, report.tap, report.md,
 * report.html, badge.svg, badge.json. A module loads only when its reporter is chosen: the
 * HTML and badge renderers (badge-maker and its font tables) cost a JSON-only run about 0.2 s
 * of start-up on a small machine.
 */
const OUTPUTS: Readonly<Record<string, readonly { file?: string; load: () => Promise<Reporter> }[]>> = {
  console: [{ load: async () => (await import("./console.js")).renderConsole }],
  json: [{ file: "report.json", load: async () => (await import("./json.js")).renderJson }],
  junit: [{ file: "report.xml", load: async () => (await import("./junit.js")).renderJunit }],
  tap: [{ file: "report.tap", load: async () => (await import("./tap.js")).renderTap }],
  markdown: [{ file: "report.md", load: async () => (await import("./markdown.js")).renderMarkdown }],
  html: [{ file: "report.html", load: async () => (await import("./html.js")).renderHtml }],
  badge: [
    { file: "badge.svg", load: async () => (await import("./badge.js")).renderBadgeSvg },
    { file: "badge.json", load: async () => (await import("./badge.js")).renderBadgeJson },
  ],
};

export const REPORTER_NAMES: readonly string[] = Object.keys(OUTPUTS);

/** Throws a usage error for a name that is no reporter. */
export function checkReporterName(name: string): void {
  if (!Object.hasOwn(OUTPUTS, name)) throw new KitError("usage", `unknown reporter "${name}" (known: ${REPORTER_NAMES.join(", ")})`);
}

/** The outputs of the named reporter, their modules loaded. */
export async function reporterFor(name: string): Promise<ReporterOutput[]> {
  checkReporterName(name);
  return Promise.all((OUTPUTS[name] ?? []).map(async ({ file, load }) => ({ ...(file !== undefined ? { file } : {}), render: await load() })));
}
