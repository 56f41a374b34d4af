/**
 * --evidence all: a passing clause keeps the wire log of what it was judged on, so a user who
 * doubts a pass sees the exchange without recording it again. Which part of the run judged it
 * is found by judging again, purely, on parts of the subject (one request, one scenario): the
 * first part on which the clause's checks alone pass it. A clause that passes on nothing at all
 * (judged on the launch configuration, say) gets no wire log. Every wire log is bounded like a
 * finding's, and all of them together by a total the kit chose (PASS_EVIDENCE_TOTAL_CHARS).
 */
import type { Check } from "./judge.js";
import { combineJudgements } from "./judge.js";
import type { Clause, ClauseResult, PassEvidence, WireEntry } from "./types.js";

/** Which findings keep their wire log (the default), or passes too. */
export type EvidenceLevel = "failures" | "all";

/**
 * The most text (characters of wire logs) the pass evidence of one report may hold: the kit's
 * bound, about 1 MB, so a run of 158 clauses keeps a report a browser opens at once.
 */
export const PASS_EVIDENCE_TOTAL_CHARS = 1_000_000;

/** One part of a run a clause can be judged on alone, and its wire log. */
export interface EvidenceUnit<T> {
  subject: T;
  scenario: string;
  requestId?: string;
  wire: () => WireEntry[];
}

export interface PassEvidenceInput<T> {
  clauses: readonly Clause[];
  checks: readonly Check<T>[];
  /** The subject with no request or session: a clause that passes on it was judged on something else. */
  empty: T;
  /** The parts to try, most specific first. */
  units: readonly EvidenceUnit<T>[];
  /** Total characters of wire text (default PASS_EVIDENCE_TOTAL_CHARS). */
  cap?: number;
}

function passesOn<T>(clause: Clause, checks: readonly Check<T>[], subject: T): boolean {
  try {
    return combineJudgements(clause, checks.map((check) => check.judge(subject))).status === "pass";
  } catch {
    // A check that cannot judge a part of a run alone says nothing about where the pass came from.
    return false;
  }
}

const size = (wire: readonly WireEntry[]): number => wire.reduce((sum, entry) => sum + entry.text.length, 0);

/** The results with each pass's evidence attached, and how many passes the total cap left without one. */
export function withPassEvidence<T>(results: readonly ClauseResult[], input: PassEvidenceInput<T>): { results: ClauseResult[]; cut: number } {
  const cap = input.cap ?? PASS_EVIDENCE_TOTAL_CHARS;
  const byId = new Map(input.clauses.map((c) => [c.id, c]));
  let used = 0;
  let cut = 0;
  const out = results.map((result): ClauseResult => {
    const clause = byId.get(result.id);
    if (result.status !== "pass" || clause === undefined) return result;
    const own = input.checks.filter((check) => check.clause === result.id);
    if (own.length === 0 || passesOn(clause, own, input.empty)) return result;
    const unit = input.units.find((u) => passesOn(clause, own, u.subject));
    if (unit === undefined) return result;
    const wire = unit.wire();
    if (used + size(wire) > cap) {
      cut++;
      return result;
    }
    used += size(wire);
    const passEvidence: PassEvidence = { scenario: unit.scenario, ...(unit.requestId !== undefined ? { requestId: unit.requestId } : {}), wire };
    return { ...result, passEvidence };
  });
  return { results: out, cut };
}

/** The report note when the total cap left passes without their wire log. */
export function passEvidenceCutNote(cut: number): string[] {
  if (cut === 0) return [];
  return [`--evidence all: ${cut} passing clause${cut === 1 ? "" : "s"} kept no wire log: the report holds at most ${PASS_EVIDENCE_TOTAL_CHARS} characters of them (the kit's bound); select fewer clauses with --clause to see theirs.`];
}
