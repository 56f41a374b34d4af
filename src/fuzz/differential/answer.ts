/**
 * What a host would act on in one provider answer, and the comparison of two such answers
 * (differential fuzzing, `fuzz --against`). Pure: exchanges in, plain data out.
 *
 * Compared: the outcome (ok, error, failed, invalid), the exit class (zero, nonzero, signal,
 * timed out, not started), for an ok invocation the effect types in order and the text of
 * each replace_result, for an error answer its error_code, for an ok describe its operations
 * (name, events, effects; in any order). Ignored, as a host does not act on them: timings,
 * key order, number spelling, whitespace, stderr, the exact nonzero exit code, reason_code and
 * block reason texts, and any field a host does not read.
 */
import { readResponse } from "../../core/provider/response.js";
import type { JsonValue } from "../../core/json/index.js";
import type { JsonObject, ProviderExchange } from "../../core/provider/types.js";

/** One answer as a host sees it. */
export interface HostAnswer {
  /** ok: effects applied; error: the provider's error (failure policy); failed: execution failed; invalid: exit 0 without a response a host could read. */
  outcome: "ok" | "error" | "failed" | "invalid";
  exit: "zero" | "nonzero" | "signal" | "timed out" | "not started";
  /** An ok invocation: the effect types, in order. */
  effects?: string[];
  /** An ok invocation: the text of each replace_result effect, in order. */
  replaceText?: string[];
  /** An error answer: its error_code. */
  errorCode?: string;
  /** An ok describe: "name events=[..] effects=[..]" per operation, sorted. */
  operations?: string[];
}

/** The aspects two answers can differ in, in the order they are reported. */
export const ASPECTS = ["outcome", "exit", "effects", "replace-text", "error-code", "operations"] as const;
export type Aspect = (typeof ASPECTS)[number];

const isObject = (value: JsonValue | undefined): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);
const strings = (value: JsonValue | undefined): string[] => (Array.isArray(value) ? value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))) : []);

function exitOf(exchange: ProviderExchange): HostAnswer["exit"] {
  const o = exchange.outcome;
  if (o.spawnError !== undefined) return "not started";
  if (o.timedOut) return "timed out";
  if (o.signal !== null || o.exitCode === null) return "signal";
  return o.exitCode === 0 ? "zero" : "nonzero";
}

function operationsOf(value: JsonValue | undefined): string[] {
  const list = Array.isArray(value) ? value : [];
  return list.map((op) => (isObject(op) ? `${String(op.name)} events=[${strings(op.events).join(",")}] effects=[${strings(op.effects).join(",")}]` : JSON.stringify(op))).sort();
}

/** The answer of one exchange as a host would act on it. */
export function hostAnswer(exchange: ProviderExchange): HostAnswer {
  const exit = exitOf(exchange);
  // A nonzero exit is a failed execution whatever stdout holds; so is a stdout over the cap.
  if (exit !== "zero" || exchange.outcome.stdoutCapped) return { outcome: "failed", exit };
  const response = readResponse(exchange.stdout).object;
  if (response === undefined || (response.status !== "ok" && response.status !== "error")) return { outcome: "invalid", exit };
  if (response.status === "error") return { outcome: "error", exit, errorCode: typeof response.error_code === "string" ? response.error_code : JSON.stringify(response.error_code ?? null) };
  if (exchange.method === "describe") return { outcome: "ok", exit, operations: operationsOf(response.operations) };
  if (exchange.method !== "invoke") return { outcome: "ok", exit };
  const effects = Array.isArray(response.effects) ? response.effects : [];
  const types = effects.map((e) => (isObject(e) && typeof e.type === "string" ? e.type : JSON.stringify(e)));
  const texts = effects.filter((e): e is JsonObject => isObject(e) && e.type === "replace_result").map((e) => (typeof e.text === "string" ? e.text : JSON.stringify(e.text ?? null)));
  return { outcome: "ok", exit, effects: types, ...(texts.length > 0 ? { replaceText: texts } : {}) };
}

const same = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The aspects in which two answers differ (empty: a host would act the same on both). */
export function compareAnswers(a: HostAnswer, b: HostAnswer): Aspect[] {
  const differs: Record<Aspect, boolean> = {
    outcome: a.outcome !== b.outcome,
    exit: a.exit !== b.exit,
    effects: !same(a.effects, b.effects),
    "replace-text": !same(a.replaceText, b.replaceText),
    "error-code": a.errorCode !== b.errorCode,
    operations: !same(a.operations, b.operations),
  };
  // Different outcomes carry different parts: the outcome says it all.
  if (differs.outcome) return ["outcome", ...(differs.exit ? (["exit"] as const) : [])];
  return ASPECTS.filter((aspect) => differs[aspect]);
}

/** One answer in a line: "ok: effects [observe, block]", "failed: exit nonzero", "error: error_code bad_config". */
export function answerText(a: HostAnswer): string {
  if (a.outcome === "failed") return `failed (exit ${a.exit})`;
  if (a.outcome === "invalid") return "invalid (exit zero, no ok or error response on stdout)";
  if (a.outcome === "error") return `error (error_code ${a.errorCode ?? "?"})`;
  if (a.operations !== undefined) return `ok (operations ${a.operations.join("; ") || "none"})`;
  if (a.effects === undefined) return "ok";
  const texts = a.replaceText === undefined ? "" : `, replace_result text ${a.replaceText.map((t) => JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}…` : t)).join(", ")}`;
  return `ok (effects [${a.effects.join(", ")}]${texts})`;
}
