import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { INPUT_CANARY, RESULT_CANARY } from "../plan.js";
import { responseObject } from "../response.js";
import type { ProviderExchange, ProviderTranscript } from "../types.js";
import { finding, isInvocation, judgeEach, skip, validExchanges } from "./helpers.js";
import { invocationBlocker } from "./reasons.js";

const CLAUSE = "provider/invoke/private-data-stays-private";
const CANARIES: readonly [string, string][] = [[INPUT_CANARY, "tool.input"], [RESULT_CANARY, "tool.result"]];

/**
 * Which canaries a request carries, looked up once per request: its bytes are scanned in place
 * (Buffer.from(view) would copy a request of up to several MB), and each check asks again.
 */
const carried = new WeakMap<Uint8Array, Set<string>>();

function carries(e: ProviderExchange, canary: string): boolean {
  let found = carried.get(e.request);
  if (found === undefined) {
    const bytes = Buffer.from(e.request.buffer, e.request.byteOffset, e.request.byteLength);
    found = new Set(CANARIES.map(([c]) => c).filter((c) => bytes.includes(c)));
    carried.set(e.request, found);
  }
  return found.has(canary);
}

/** The reason texts, reason codes and error code of one answer that repeat a planted value. */
function leaks(e: ProviderExchange): Finding[] {
  const response = responseObject(e);
  if (response === undefined) return [];
  const fields: [string, unknown][] = [["error_code", response.error_code]];
  const effects = Array.isArray(response.effects) ? response.effects : [];
  for (const [index, effect] of effects.entries()) {
    if (effect === null || typeof effect !== "object" || Array.isArray(effect)) continue;
    fields.push([`effects[${index}].reason_code`, effect.reason_code]);
    // A replacement's text is the new result: it may hold what the result held.
    if (effect.type !== "replace_result") fields.push([`effects[${index}].text (${String(effect.type)})`, effect.text]);
  }
  return fields.flatMap(([where, value]) =>
    CANARIES.filter(([canary]) => typeof value === "string" && value.includes(canary) && carries(e, canary)).map(([canary, from]) =>
      finding(CLAUSE, e, `${where} repeats the private value the kit planted in ${from} (${canary})`, { expected: `no reason or error code quoting ${from}`, seen: `${where}: ${String(value).slice(0, 200)}` }),
    ),
  );
}

export const privacyChecks: Check<ProviderTranscript>[] = [
  {
    clause: CLAUSE,
    judge: (t) =>
      judgeEach(
        validExchanges(t).filter((e) => isInvocation(e) && responseObject(e) !== undefined && CANARIES.some(([canary]) => carries(e, canary))),
        leaks,
        skip(invocationBlocker(t) ?? "no invocation carrying the kit's planted private values was answered: make the Provider answer invocations (see provider/invoke/answers-ok)"),
      ),
  },
];
