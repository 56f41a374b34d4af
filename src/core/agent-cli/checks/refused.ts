/**
 * Model requests the kit's fixture refused because they broke the real API's documented
 * rules (a missing anthropic-version or max_tokens, the key in the wrong header, an OpenAI
 * part on /v1/messages, an empty text block...). The fixture refuses what the real service
 * refuses, so a turn that failed on such a refusal would fail in production too: the clause
 * of that turn fails, quoting the refusal, instead of counting the error result as an
 * explicit rejection.
 */
import type { Finding } from "../../report/types.js";
import { callsIn, modelCalls, type Segment } from "../analysis.js";
import type { ModelCall, Transcript } from "../types.js";
import { finding } from "./helpers.js";

export interface Refused {
  call: ModelCall;
  /** Index of the model event in the transcript. */
  at: number;
}

/**
 * Refused under the API's own rules: a 400, or a 401 for a request that carried the right key
 * in the wrong header. A missing or wrong key, a wrong path or method are not about the turn's
 * content (agent-cli/failures and the run's model cause judge those).
 */
const byRule = (call: ModelCall): boolean => call.refusal !== undefined && call.authorized && (call.status === 400 || call.status === 401);

/** The turn's model requests the fixture refused under the API's rules, in order. */
export function refusedIn(transcript: Transcript, segment: Segment): Refused[] {
  const calls = callsIn(transcript, segment);
  return modelCalls(transcript).filter(({ call }) => calls.includes(call) && byRule(call)).map(({ call, at }) => ({ call, at }));
}

const API_NAMES: Readonly<Record<ModelCall["api"], string>> = { anthropic: "Anthropic Messages API", openai: "OpenAI chat completions API" };
const MAX_QUOTE = 400;

/** The finding of a turn that ended in failure after the fixture refused its request as the real API would. */
export function refusalFinding(clause: string, transcript: Transcript, segment: Segment, what: string, refused: readonly Refused[]): Finding {
  const first = refused[0] as Refused;
  const event = transcript.events[first.at];
  const quoted = (first.call.refusal ?? "").length > MAX_QUOTE ? `${(first.call.refusal ?? "").slice(0, MAX_QUOTE)}…` : (first.call.refusal ?? "");
  const more = refused.length > 1 ? ` (${refused.length} of its requests were refused)` : "";
  return finding(
    clause,
    { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(event !== undefined ? { events: [{ event, at: first.at }] } : {}) },
    `the ${what} turn failed because the kit's model fixture refused its model request as the real ${API_NAMES[first.call.api]} would, so it fails against the real service too: ${first.call.method} ${first.call.path} -> ${quoted}${more}`,
    { expected: "a model request the real API accepts (the block in a form the API documents, or a documented fallback), or an explicit error result before any model request", seen: quoted },
  );
}
