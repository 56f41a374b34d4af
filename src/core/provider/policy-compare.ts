/** Comparing a Provider's decision with the one a policy-test case expects. */
import { compileTextPattern } from "../clauses/patterns.js";
import { printable } from "../printable.js";
import type { JsonObject } from "./types.js";
import type { Expectation } from "./policy-cases.js";

export interface Comparison {
  ok: boolean;
  /** The expectation in words: "block (reason_code tool_policy, text *blocked*)". */
  expected: string;
  /** The decision the response carries, in the same words: "observe (reason_code tool_seen)". */
  seen: string;
  /** The difference, when there is one. */
  difference?: string;
}

interface Effect {
  type: string;
  reasonCode?: string;
  text?: string;
}

const MAX_SHOWN = 120;
const shown = (text: string): string => JSON.stringify(printable(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text));

function effectsOf(response: JsonObject): Effect[] {
  const list = Array.isArray(response.effects) ? response.effects : [];
  return list.flatMap((e): Effect[] => {
    if (e === null || typeof e !== "object" || Array.isArray(e) || typeof e.type !== "string") return [];
    return [{ type: e.type, ...(typeof e.reason_code === "string" ? { reasonCode: e.reason_code } : {}), ...(typeof e.text === "string" ? { text: e.text } : {}) }];
  });
}

function describeEffect(e: Effect): string {
  const details = [e.reasonCode !== undefined ? `reason_code ${e.reasonCode}` : "", e.text !== undefined ? `text ${shown(e.text)}` : ""].filter((d) => d !== "");
  return details.length > 0 ? `${e.type} (${details.join(", ")})` : e.type;
}

export function describeExpectation(expect: Expectation): string {
  const details = [
    expect.reasonCode !== undefined ? `reason_code ${expect.reasonCode}` : "",
    expect.text !== undefined ? `text matching ${shown(expect.text)}` : "",
    expect.errorCode !== undefined ? `error_code ${expect.errorCode}` : "",
  ].filter((d) => d !== "");
  const base = expect.decision === "allow" ? "allow (ok, no effects)" : expect.decision;
  return details.length > 0 ? `${base} (${details.join(", ")})` : base;
}

/** The decision a response carries, in words. */
export function describeDecision(response: JsonObject): string {
  if (response.status === "error") return `error (error_code ${typeof response.error_code === "string" ? response.error_code : "absent"})`;
  const effects = effectsOf(response);
  return effects.length === 0 ? "allow (ok, no effects)" : effects.map(describeEffect).join(" + ");
}

/** Why the response's decision differs from the expectation, or undefined when it matches. */
function difference(expect: Expectation, response: JsonObject): string | undefined {
  if (expect.decision === "error") {
    if (response.status !== "error") return `expected an error response, the Provider answered status ${JSON.stringify(response.status)}`;
    if (expect.errorCode !== undefined && response.error_code !== expect.errorCode) return `error_code is ${JSON.stringify(response.error_code)}, not ${expect.errorCode}`;
    return undefined;
  }
  if (response.status !== "ok") return `expected ${expect.decision}, the Provider answered an error (error_code ${JSON.stringify(response.error_code)})`;
  const effects = effectsOf(response);
  const types = new Set(effects.map((e) => e.type));
  if (expect.decision === "allow") return effects.length === 0 ? undefined : `expected no effects, the Provider requested ${[...types].join(", ")}`;
  if (expect.decision === "observe") {
    const other = [...types].filter((t) => t !== "observe");
    if (other.length > 0) return `expected only observe, the Provider requested ${other.join(", ")}`;
    if (effects.length === 0) return "expected observe, the Provider requested no effects";
    if (expect.reasonCode !== undefined && !effects.some((e) => e.reasonCode === expect.reasonCode)) return `no observe effect has reason_code ${expect.reasonCode}`;
    return undefined;
  }
  const wanted = effects.filter((e) => e.type === expect.decision);
  if (wanted.length === 0) return `expected ${expect.decision}, the Provider requested ${effects.length === 0 ? "no effects" : [...types].join(", ")}`;
  if (expect.reasonCode !== undefined && !wanted.some((e) => e.reasonCode === expect.reasonCode)) {
    return `the ${expect.decision} effect has reason_code ${JSON.stringify(wanted[0]?.reasonCode ?? null)}, not ${expect.reasonCode}`;
  }
  if (expect.text !== undefined) {
    const pattern = compileTextPattern(expect.text);
    if (!wanted.some((e) => e.text !== undefined && pattern.test(e.text))) {
      const text = wanted[0]?.text;
      return `the ${expect.decision} effect's text ${text === undefined ? "is absent" : `${shown(text)} does not match ${shown(expect.text)}`}`;
    }
  }
  return undefined;
}

/** Compares the decision of a protocol-valid response object with a case's expectation. */
export function compareDecision(expect: Expectation, response: JsonObject): Comparison {
  const diff = difference(expect, response);
  return { ok: diff === undefined, expected: describeExpectation(expect), seen: describeDecision(response), ...(diff !== undefined ? { difference: diff } : {}) };
}
