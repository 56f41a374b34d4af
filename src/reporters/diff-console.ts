/**
 * The diff on a terminal (pure: diff in, text out): a header, the headline ("1 regressed, 2
 * fixed"), one line per changed clause (regressions first; nothing per unchanged clause), the
 * fuzz replays new in NEW, the notes and the verdict. Report text goes through printableLine.
 */
import { printableLine } from "../core/printable.js";
import type { ClauseChange, ReportDiff } from "../core/report/diff-types.js";
import { changeLabel, headline, notCountedWhy, transitionText, verdictText } from "./diff-words.js";
import { makeStyle, type Style } from "./style.js";

/** Changed clauses listed before "and N more (diff.json lists every one)". */
const MAX_LINES = 200;

function labelOf(change: ClauseChange, style: Style): string {
  const label = changeLabel(change).toUpperCase().padEnd(22);
  if (change.counted) return style.red(label);
  if (change.regression) return style.yellow(label);
  return change.kind === "fixed" ? style.green(label) : style.dim(label);
}

function changeLine(change: ClauseChange, diff: ReportDiff, style: Style): string {
  const why = notCountedWhy(change, diff);
  const text = printableLine(transitionText(change));
  return `${labelOf(change, style)} ${change.level.padEnd(6)} ${printableLine(change.id)}: ${text.length > 300 ? `${text.slice(0, 299)}…` : text}${why !== undefined ? style.dim(` (${why})`) : ""}`;
}

function sideName(side: ReportDiff["old"], name: string): string {
  return `${name} ${side.file !== undefined ? `${printableLine(side.file)} ` : ""}(kit ${printableLine(side.kitVersion)}, ${side.verdict})`;
}

export function renderDiffConsole(diff: ReportDiff, options: { color: boolean }): string {
  const style = makeStyle(options.color);
  const lines = [
    style.bold(`awp-conformance diff · ${printableLine(diff.protocol)}${diff.mode !== undefined ? ` (${printableLine(diff.mode)})` : ""}`),
    style.dim(`${sideName(diff.old, "OLD")} → ${sideName(diff.new, "NEW")}`),
    headline(diff),
  ];
  for (const change of diff.changes.slice(0, MAX_LINES)) lines.push(changeLine(change, diff, style));
  if (diff.changes.length > MAX_LINES) lines.push(style.dim(`... and ${diff.changes.length - MAX_LINES} more changes (diff.json lists every one)`));
  if (diff.newReplays.length > 0) {
    lines.push(`New fuzz replays in NEW (${diff.newReplays.length}):`);
    for (const r of diff.newReplays.slice(0, MAX_LINES)) lines.push(`  ${printableLine(r.clause)}  ${printableLine(r.file ?? `seed ${r.seed} path ${r.path}`)}${r.corpus === true ? style.dim(" (from the corpus)") : ""}`);
  }
  for (const note of diff.notes) lines.push(style.dim(`note: ${printableLine(note)}`));
  lines.push(diff.verdict === "regressed" ? style.red(verdictText(diff)) : style.green(verdictText(diff)));
  return `${lines.join("\n")}\n`;
}
