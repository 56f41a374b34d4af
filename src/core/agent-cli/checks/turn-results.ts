/** The result events of an agent-cli run, and what the turns clauses read of error results: their flag, subtype and code. */
import type { JsonRecord, OutLine } from "../analysis.js";
import type { Transcript } from "../types.js";
import { allProcesses, notApplicable, show, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { refusedViews } from "./refusals.js";

/**
 * A machine-readable code, as the contract asks and leaves open: one token of printable
 * characters, no whitespace (a sentence is text for people, not a code).
 */
const CODE_TOKEN = /^[^\s\p{Cc}]+$/u;
/**
 * The upstream reference CLI's form of its codes (not the contract's: the contract gives none):
 * its publicError keeps a message that matches this, case-insensitively, as a code.
 */
export const REFERENCE_CODE = /^[a-z0-9_:-]{1,160}$/iu;

/** A result event the CLI wrote, with its line and transcript. */
export interface ResultEvent {
  transcript: Transcript;
  line: OutLine;
  result: JsonRecord;
}

/** Every result event the CLI wrote, but a refused launch's (agent-cli/session/refusal-reported judges how it said so). */
export function results(run: AgentRun): ResultEvent[] {
  const refused = refusedViews(run);
  return allProcesses(run).filter(({ item }) => !refused.has(item)).flatMap(({ transcript, item }) =>
    item.lines.filter((l) => l.object?.type === "result").map((line) => ({ transcript, line, result: line.object as JsonRecord })),
  );
}

/** Results that say is_error true. */
export const flaggedErrors = (run: AgentRun): ResultEvent[] => results(run).filter(({ result }) => result.is_error === true);

/** Consistent error results only (of those flagged): an inconsistent one fails result-shape. */
export function errorResults(flagged: ResultEvent[]): ResultEvent[] {
  return flagged.filter(({ result }) => typeof result.subtype === "string" && result.subtype !== "success");
}

/**
 * Why error-code judged nothing, given the results flagged is_error true: there were none, or
 * every one was inconsistent (subtype success, as Claude Code writes after a model error),
 * which result-shape fails; its code is judged once that is fixed, not taken as absent.
 * `refusedAnswers`: the refused launches that wrote an error result (left out of `results`).
 */
export function unjudgedErrors(flagged: ResultEvent[], refusedAnswers = 0): Unjudged {
  if (flagged.length === 0) return notApplicable(refusedAnswers > 0 ? "no error result was written but by launches the CLI refused (agent-cli/session/refusal-reported judges those)" : "no error result was written");
  return skip(`every error result (is_error true) said subtype ${show(flagged[0]?.result.subtype)}: agent-cli/turns/result-shape fails them; with an error subtype their code is judged here`);
}

export const codeInResult = (r: JsonRecord): boolean => typeof r.result === "string" && CODE_TOKEN.test(r.result);

/**
 * The code the Desktop shows for an error result: result when it is a string, else the
 * subtype (shown as cc_<subtype>), which names something only when it is specific (not the
 * generic "error").
 */
export function codeOf(r: JsonRecord): string | undefined {
  if (typeof r.result === "string") return r.result;
  return typeof r.subtype === "string" && r.subtype !== "error" ? r.subtype : undefined;
}

/** The error result names a machine-readable code (see CODE_TOKEN). */
export function hasCode(r: JsonRecord): boolean {
  const code = codeOf(r);
  return code !== undefined && CODE_TOKEN.test(code);
}
