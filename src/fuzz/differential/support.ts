/**
 * Which side of a difference the contract supports, judged with the kit's own checks: a side
 * whose answer fails a clause (an invalid response, an accepted hostile request, a refusal
 * of a well-formed one) is wrong; when neither answer fails one, both are allowed by the
 * contract (two policies may decide differently). Pure: transcripts in, a judgement out.
 */
import type { ProviderTranscript } from "../../core/provider/types.js";
import { findingsOf, judgeProviderCase } from "../provider-run.js";
import type { ProviderCase } from "../types.js";
import type { CaseDifference } from "./pair.js";

export type Supports = "candidate" | "against" | "neither" | "both";

export interface SupportJudgement {
  supports: Supports;
  /** Why, in one sentence a reader can check. */
  why: string;
  /** Clauses each side's answer fails on this case (the kit's checks). */
  candidateClauses: string[];
  againstClauses: string[];
}

const clausesOf = (transcript: ProviderTranscript): string[] => [...new Set(findingsOf(judgeProviderCase(transcript)).map((f) => f.clause))];

/**
 * A well-formed request (a valid case, or the control of a hostile one: the kit checks both
 * against its request schema) that one side answers and the other refuses with a failed
 * execution: the contract keeps a nonzero exit for failures, so it supports the side that answered.
 */
function refusedWellFormed(difference: CaseDifference, request: ProviderCase): Supports | undefined {
  if (request.kind !== "valid") return undefined;
  const answered = (outcome: string): boolean => outcome === "ok" || outcome === "error";
  if (difference.candidate.outcome === "failed" && answered(difference.against.outcome)) return "against";
  if (difference.against.outcome === "failed" && answered(difference.candidate.outcome)) return "candidate";
  return undefined;
}

export function judgeSupport(difference: CaseDifference, request: ProviderCase, mine: ProviderTranscript, theirs: ProviderTranscript): SupportJudgement {
  const candidateClauses = clausesOf(mine);
  const againstClauses = clausesOf(theirs);
  const clauses = { candidateClauses, againstClauses };
  const list = (ids: string[]): string => ids.join(", ");
  if (candidateClauses.length > 0 && againstClauses.length > 0) return { supports: "neither", why: `both answers fail the contract: the candidate's ${list(candidateClauses)}, the other's ${list(againstClauses)}`, ...clauses };
  if (candidateClauses.length > 0) return { supports: "against", why: `the candidate's answer fails ${list(candidateClauses)}; the other's fails no clause`, ...clauses };
  if (againstClauses.length > 0) return { supports: "candidate", why: `the other's answer fails ${list(againstClauses)}; the candidate's fails no clause`, ...clauses };
  const refused = refusedWellFormed(difference, request);
  if (refused !== undefined) {
    const failing = refused === "candidate" ? "the other" : "the candidate";
    return { supports: refused, why: `${failing} refused a well-formed request (it passes the kit's request schema) that the other side answered; the contract keeps a nonzero exit for failed executions`, ...clauses };
  }
  return { supports: "both", why: "neither answer fails a clause: the two policies decide differently, each within the contract", ...clauses };
}
