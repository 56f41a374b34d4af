/** The report's differential section, from what the campaign kept (pure). */
import type { DifferentialSummary, FuzzDifference } from "../../core/report/types.js";
import { answerText } from "./answer.js";
import type { KeptDifference } from "./campaign.js";
import { differenceId } from "./replay.js";

/** The request as the report shows it: its first 2000 characters (as UTF-8, invalid bytes replaced). */
function requestText(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.subarray(0, 8000)).toString("utf8");
  return text.length > 2000 || bytes.length > 8000 ? `${text.slice(0, 2000)}… (${bytes.length} bytes)` : text;
}

export function differenceOfReport(k: KeptDifference): FuzzDifference {
  return {
    id: differenceId(k.difference),
    aspects: k.difference.aspects,
    request: { label: k.request.label, purpose: k.request.purpose, requestId: k.request.requestId, text: requestText(k.request.bytes) },
    seed: k.seed,
    path: k.path,
    shrunk: k.shrunk,
    candidate: { answer: answerText(k.difference.candidate), clauses: k.support.candidateClauses },
    against: { answer: answerText(k.difference.against), clauses: k.support.againstClauses },
    supports: k.support.supports,
    why: k.support.why,
    ...(k.file !== undefined ? { file: k.file } : {}),
    ...(k.reproduce !== undefined ? { reproduce: k.reproduce } : {}),
  };
}

export function differentialSection(against: string[], cases: number, calls: number, kept: readonly KeptDifference[], againstFailed: Iterable<string> = [], notCompared = 0): DifferentialSummary {
  return { against, cases, calls, ...(notCompared > 0 ? { notCompared } : {}), againstFailed: [...againstFailed].sort(), differences: kept.map(differenceOfReport) };
}
