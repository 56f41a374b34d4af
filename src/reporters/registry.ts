import { KitError } from "../core/errors.js";
import type { Reporter } from "./types.js";

/** One output of a reporter: printed (no file), written to this fixed name in the report folder, or appended to the GitHub step summary. */
export interface ReporterOutput {
  file?: string;
  /** Appended to the file $GITHUB_STEP_SUMMARY names, when it is set (never overwritten); nothing otherwise. */
  stepSummary?: true;
  render: Reporter;
}

/**
 * Reporters by name, each output with the module that renders it. The file names are a
 * documented contract (README, action.yml): report.json, report.xml, report.tap, report.md,
 * report.html, badge.svg, badge.json; the github reporter prints and appends to $GITHUB_STEP_SUMMARY. A module loads only when its reporter is chosen: the
 * HTML and badge renderers (badge-maker and its font tables) cost a JSON-only run about 0.2 s
 * of start-up on a small machine.
 */
const OUTPUTS: Readonly<Record<string, readonly { file?: string; stepSummary?: true; load: () => Promise<Reporter> }[]>> = {
  console: [{ load: async () => (await import("./console.js")).renderConsole }],
  json: [{ file: "report.json", load: async () => (await import("./json.js")).renderJson }],
  junit: [{ file: "report.xml", load: async () => (await import("./junit.js")).renderJunit }],
  tap: [{ file: "report.tap", load: async () => (await import("./tap.js")).renderTap }],
  markdown: [{ file: "report.md", load: async () => (await import("./markdown.js")).renderMarkdown }],
  html: [{ file: "report.html", load: async () => (await import("./html.js")).renderHtml }],
  // GitHub Actions: annotations on stdout, and the Markdown report as the job's step summary.
  github: [
    { load: async () => (await import("./github.js")).renderGithub },
    { stepSummary: true, load: async () => (await import("./markdown.js")).renderMarkdown },
  ],
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
  return Promise.all((OUTPUTS[name] ?? []).map(async ({ file, stepSummary, load }) => ({ ...(file !== undefined ? { file } : {}), ...(stepSummary === true ? { stepSummary } : {}), render: await load() })));
}
