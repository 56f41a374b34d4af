import { bucketOf } from "../core/report/judge.js";
import { printable } from "../core/printable.js";
import { fileStem } from "../core/provider/policy-cases.js";
import type { ClauseResult, RunReport } from "../core/report/types.js";
import { summaryLine } from "./console.js";
import { incompleteHeadline, reasonLine } from "./incomplete.js";
import type { ReporterOptions } from "./types.js";
import { isPolicyTest, unitWord } from "./words.js";

/**
 * GitHub Actions workflow commands (https://docs.github.com/actions/reference/workflow-commands-for-github-actions):
 * an `::error` annotation per counted failure (a failed MUST clause at the default --level), a
 * `::warning` per warning (a failure of a level the verdict does not count), one for what fails
 * the run without a failing clause (incomplete, nothing judged, stale expectations), and a
 * `::notice` with the summary line. The Markdown summary goes to $GITHUB_STEP_SUMMARY (output.ts).
 */

/** The message of a workflow command: %, CR and LF escaped (GitHub shows %0A as a line break). */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A property value (title, file): the message's escapes, and : and , too. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

type Command = "error" | "warning" | "notice";

function command(kind: Command, properties: Record<string, string | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "")
    .map(([key, value]) => `${key}=${escapeProperty(printable(value))}`)
    .join(",");
  return `::${kind}${props !== "" ? ` ${props}` : ""}::${escapeData(printable(message))}`;
}

/** The case file a policy-test entry came from (policy-test/<file stem>/<case>), when the report names its files. */
function caseFile(result: ClauseResult, report: RunReport): string | undefined {
  if (!isPolicyTest(report)) return undefined;
  const files = report.options["caseFiles"];
  if (!Array.isArray(files)) return undefined;
  const stem = result.id.split("/")[1];
  return files.find((file): file is string => typeof file === "string" && fileStem(file) === stem);
}

function firstFinding(result: ClauseResult): string {
  const first = result.findings[0]?.message ?? "failed";
  const more = result.findings.length > 1 ? ` (and ${result.findings.length - 1} more finding${result.findings.length > 2 ? "s" : ""})` : "";
  return `${first}${more}`;
}

/** What fails the run beyond its failing clauses. */
function runAnnotations(report: RunReport): string[] {
  const s = report.summary;
  const title = `awp-conformance: ${report.protocol}`;
  const lines: string[] = [];
  if (s.verdict === "incomplete") {
    lines.push(command("error", { title: `${title}: incomplete` }, `${incompleteHeadline(report)}; the run cannot pass until they are:\n${s.incomplete.map((g) => `- ${reasonLine(g, unitWord(report))}`).join("\n")}`));
  }
  if (s.verdict === "nothing-judged") lines.push(command("error", { title: `${title}: nothing judged` }, `no ${unitWord(report)} was judged (all skipped, not applicable or deselected): a vacuous run is not a pass`));
  for (const stale of s.stale) lines.push(command("error", { title: `${title}: stale expectation` }, stale));
  if (typeof report.halted === "string") lines.push(command("warning", { title: `${title}: stopped early` }, report.halted));
  return lines;
}

/** The github reporter: workflow commands on stdout, one a line. */
export function renderGithub(report: RunReport, _options?: ReporterOptions): string {
  const lines: string[] = [];
  for (const result of report.clauses) {
    if (result.status !== "fail") continue;
    const bucket = bucketOf(result, report.summary.level);
    if (bucket !== "failed" && bucket !== "warnings") continue;
    lines.push(command(bucket === "failed" ? "error" : "warning", { title: result.id, file: caseFile(result, report) }, firstFinding(result)));
  }
  lines.push(...runAnnotations(report));
  lines.push(command("notice", { title: `awp-conformance: ${report.protocol}${report.mode !== undefined ? ` (${report.mode})` : ""}` }, summaryLine(report)));
  return `${lines.join("\n")}\n`;
}
