import { makeBadge } from "badge-maker";
import { kitBoundOptions } from "../core/report/judge.js";
import type { Level, RunReport } from "../core/report/types.js";
import { bundledLabel } from "./bundled.js";
import { isPolicyTest, protocolLabel } from "./words.js";
import type { ReporterOptions } from "./types.js";

/**
 * The conformance badge, as an SVG and as a shields.io endpoint JSON. The label names the
 * protocol (and the agent-cli mode) from a fixed set of words, plus a bundled example's checked
 * name; the message is built from the report's numbers and a known mode name only: nothing the
 * candidate printed (or a tampered report's strings) can reach the badge.
 */

/** The label of a badge of one of the kit's own examples: the protocol's, then "bundled example NAME". */
export function badgeLabel(report: RunReport): string {
  const bundled = bundledLabel(report);
  return bundled === undefined ? protocolLabel(report) : `${protocolLabel(report)} · ${bundled}`;
}

export type BadgeColor = "green" | "orange" | "red" | "lightgrey";

export interface BadgeContent {
  label: string;
  message: string;
  color: BadgeColor;
}

const COUNTED: Record<string, { levels: readonly Level[]; name: string }> = {
  must: { levels: ["MUST"], name: "MUST" },
  should: { levels: ["MUST", "SHOULD"], name: "MUST/SHOULD" },
  all: { levels: ["MUST", "SHOULD", "MAY"], name: "clauses" },
};

/** A count from the report, or 0 when it is not a sane number. */
function count(value: unknown): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** The badge's label, message and colour for a report. */
export function badgeContent(report: RunReport): BadgeContent {
  return { label: badgeLabel(report), ...verdictContent(report) };
}

function verdictContent(report: RunReport): Omit<BadgeContent, "label"> {
  const s = report.summary;
  if (s.verdict === "conformant") {
    const clean = count(s.warnings) + count(s.expectedFailures) + count(s.flaky) === 0;
    return { message: "conformant", color: clean ? "green" : "orange" };
  }
  // Incomplete: some counted clause could not be judged, so the run is neither a pass nor a failure.
  if (s.verdict === "incomplete") return { message: "incomplete", color: "lightgrey" };
  if (s.verdict !== "not-conformant") return { message: "not judged", color: "lightgrey" };
  const counted = COUNTED[Object.hasOwn(COUNTED, s.level) ? s.level : "must"] ?? { levels: ["MUST"], name: "MUST" };
  let passed = 0;
  let judged = 0;
  for (const level of counted.levels) {
    const row = s.byLevel?.[level];
    passed += count(row?.passed);
    // Every judged clause of a counted level: passed, failed (counted), or failed but expected or flaky.
    judged += count(row?.passed) + count(row?.failed) + count(row?.expectedFailures) + count(row?.flaky);
  }
  // Every counted clause passed, yet the run failed: only stale expectation entries do that.
  const message = passed === judged ? "stale expectations" : `${passed} of ${judged} ${isPolicyTest(report) ? "cases" : counted.name}`;
  return { message, color: "red" };
}

/** The kit's options that set a time bound of its own choosing (what a failure at a kit-chosen bound may name). */
const BOUND_OPTIONS: readonly string[] = ["--turn-timeout", "--stall-timeout", "--shutdown-timeout", "--quiet-window", "--order-skew", "--task-wait-slack", "--task-output-limit", "--budget-slack"];

/**
 * What the tooltip adds when counted failures rest only on a bound the kit chose: how many,
 * and which options with their values. Built from numbers and the kit's own option names only.
 */
export function badgeTooltipNote(report: RunReport): string {
  const n = count(report.summary.atKitBound);
  if (n === 0) return "";
  const listed = kitBoundOptions(report.clauses)
    .filter((b) => BOUND_OPTIONS.includes(b.option))
    .map((b) => `${b.option} ${count(b.value)} ${b.unit === "bytes" ? "bytes" : "ms"}`)
    .join(", ");
  return ` (${n} failure${n === 1 ? "" : "s"} at a kit-chosen bound${listed !== "" ? `: ${listed}` : ""}; raise it to see whether the candidate gets there)`;
}

/** The badge as an SVG image (badge.svg); its tooltip names failures at a kit-chosen bound. */
export function renderBadgeSvg(report: RunReport, _options?: ReporterOptions): string {
  const { label, message, color } = badgeContent(report);
  const note = badgeTooltipNote(report);
  const svg = makeBadge({ label, message, color });
  return `${note === "" ? svg : svg.replace(/<title>([^<]*)<\/title>/, (_, title: string) => `<title>${title}${note}</title>`)}\n`;
}

/** The shields.io endpoint JSON (badge.json): `https://img.shields.io/endpoint?url=<where it is served>`. */
export function renderBadgeJson(report: RunReport, _options?: ReporterOptions): string {
  const { label, message, color } = badgeContent(report);
  return `${JSON.stringify({ schemaVersion: 1, label, message, color })}\n`;
}
