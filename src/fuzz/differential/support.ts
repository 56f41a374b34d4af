/**
 * Which side of a difference the contract supports, judged with the kit's own checks: a side
 * whose answer fails a clause (an invalid response, an accepted hostile request, a refusal
 * of a well-formed one) is wrong; when neither answer fails one, both are allowed by the
 * contract (two policies may decide differently). Pure: transcripts in, a judgement out.
 */
import type { ProviderTranscript } from "../../core/provider/types.js";
import { judgeProviderTranscript } from "../../core/provider/judge.js";
import { findingsOf, FUZZ_PROVIDER_CLAUSES, judgeProviderCase } from "../provider-run.js";

export type Supports = "candidate" | "against" | "neither" | "both";

export interface SupportJudgement {
  supports: Supports;
  /** Why, in one sentence a reader can check. */
  why: string;
  /** Clauses each side's answer fails on this case (the kit's checks). */
  candidateClauses: string[];
  againstClauses: string[];
}

/**
 * The fixed describe and validate_config calls are also judged on the clauses of one such
 * answer (its shape, its operations, the configuration accepted); not on those that need two
 * calls, a fresh folder or the invalid configurations the fixed suite sends.
 */
const PREPARATION_CLAUSES: ReadonlySet<string> = new Set([
  ...["answers-ok", "operation-count", "operation-shape", "operation-names", "operation-events", "operation-effects", "admissible-operation"].map((c) => `provider/describe/${c}`),
  ...["accepts-valid-config", "ok-shape"].map((c) => `provider/validate-config/${c}`),
]);

function clausesOf(transcript: ProviderTranscript): string[] {
  const prepared = transcript.exchanges.some((e) => e.purpose === "describe" || e.purpose === "config-valid");
  const results = prepared ? judgeProviderTranscript(transcript, (id) => FUZZ_PROVIDER_CLAUSES.includes(id) || PREPARATION_CLAUSES.has(id)).results : judgeProviderCase(transcript);
  return [...new Set(findingsOf(results).map((f) => f.clause))];
}

/** Who the contract supports on one differing case: each side's transcript judged on the clauses a fuzzed request can break. */
export function judgeSupport(mine: ProviderTranscript, theirs: ProviderTranscript): SupportJudgement {
  const candidateClauses = clausesOf(mine);
  const againstClauses = clausesOf(theirs);
  const clauses = { candidateClauses, againstClauses };
  const list = (ids: string[]): string => ids.join(", ");
  if (candidateClauses.length > 0 && againstClauses.length > 0) return { supports: "neither", why: `both answers fail the contract: the candidate's ${list(candidateClauses)}, the other's ${list(againstClauses)}`, ...clauses };
  if (candidateClauses.length > 0) return { supports: "against", why: `the candidate's answer fails ${list(candidateClauses)}; the other's fails no clause`, ...clauses };
  if (againstClauses.length > 0) return { supports: "candidate", why: `the other's answer fails ${list(againstClauses)}; the candidate's fails no clause`, ...clauses };
  return { supports: "both", why: "neither answer fails a clause: the two policies decide differently, each within the contract", ...clauses };
}
