/**
 * The diff as Markdown, for a pull-request comment or $GITHUB_STEP_SUMMARY (pure: diff in, text
 * out). Everything taken from the reports goes through escapeMarkdown, as in the run's
 * Markdown report: a hostile report cannot add markup, links or HTML, nor break a table row.
 */
import type { ClauseChange, ReportDiff } from "../core/report/diff-types.js";
import { changeLabel, headline, notCountedWhy, transitionText, verdictText } from "./diff-words.js";
import { escapeMarkdown } from "./markdown.js";

/** Table rows before "and N more (diff.json lists every one)": a PR comment stays readable. */
const MAX_ROWS = 100;

function icon(change: ClauseChange): string {
  if (change.counted) return "❌";
  if (change.regression) return "⚠️";
  if (change.kind === "fixed") return "✅";
  return "•";
}

function row(change: ClauseChange, diff: ReportDiff): string {
  const why = notCountedWhy(change, diff);
  const label = `${icon(change)} ${changeLabel(change)}${why !== undefined ? ` (${why})` : ""}`;
  return `| ${escapeMarkdown(label, 120)} | ${escapeMarkdown(change.level, 10)} | ${escapeMarkdown(change.id, 128)} | ${escapeMarkdown(transitionText(change), 400)} |`;
}

function side(name: string, s: ReportDiff["old"]): string {
  return `- **${name}:** ${s.file !== undefined ? `${escapeMarkdown(s.file, 200)}, ` : ""}kit ${escapeMarkdown(s.kitVersion, 40)}, ${escapeMarkdown(s.verdict, 40)}, ${escapeMarkdown(s.argv.join(" "), 200)}`;
}

export function renderDiffMarkdown(diff: ReportDiff): string {
  const title = diff.verdict === "regressed" ? "❌ Regressed" : "✅ No regression";
  const lines = [
    `## ${title}: ${escapeMarkdown(headline(diff), 300)}`,
    "",
    `- **Protocol:** ${escapeMarkdown(diff.protocol, 40)}${diff.mode !== undefined ? `, mode ${escapeMarkdown(diff.mode, 40)}` : ""}`,
    side("OLD", diff.old),
    side("NEW", diff.new),
    `- **Verdict:** ${escapeMarkdown(verdictText(diff), 200)}`,
    "",
  ];
  if (diff.changes.length > 0) {
    lines.push("| Change | Level | Clause | From → to |", "|---|---|---|---|");
    for (const change of diff.changes.slice(0, MAX_ROWS)) lines.push(row(change, diff));
    if (diff.changes.length > MAX_ROWS) lines.push("", `… and ${diff.changes.length - MAX_ROWS} more changes (diff.json lists every one).`);
    lines.push("");
  }
  if (diff.newReplays.length > 0) {
    lines.push(`### New fuzz replays in NEW (${diff.newReplays.length})`, "");
    for (const r of diff.newReplays.slice(0, MAX_ROWS)) lines.push(`- ${escapeMarkdown(r.clause, 128)}: ${escapeMarkdown(r.file ?? `seed ${r.seed} path ${r.path}`, 300)}${r.corpus === true ? " (from the corpus)" : ""}`);
    lines.push("");
  }
  for (const note of diff.notes) lines.push(`> ${escapeMarkdown(note, 1000)}`, "");
  return `${lines.join("\n").trimEnd()}\n`;
}

/** The diff as JSON (diff.json, schemas/diff.schema.json). */
export function renderDiffJson(diff: ReportDiff): string {
  return `${JSON.stringify(diff, null, 2)}\n`;
}
