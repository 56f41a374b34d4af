import type { Finding } from "../../report/types.js";
import type { Check } from "../../report/judge.js";
import type { JsonValue } from "../../json/index.js";
import { responseObject } from "../response.js";
import { EFFECT_NAMES, type JsonObject, type ProviderExchange, type ProviderTranscript } from "../types.js";
import { finding, isInvocation, judgeEach, notApplicable, responses, show, skip, type Unjudged } from "./helpers.js";
import { invocationBlocker } from "./reasons.js";

/** Not applicable for `reason`, unless no invocation was answered ok at all: then skipped for the shared cause. */
function noneFound(t: ProviderTranscript, reason: string): Unjudged {
  const blocker = invocationBlocker(t);
  return blocker === undefined ? notApplicable(reason) : skip(blocker);
}

const ID = "provider/invoke";
const CODE = /^[A-Za-z0-9_.-]{1,128}$/;
const EFFECT_FIELDS = ["type", "reason_code", "text"];

interface Answer {
  exchange: ProviderExchange;
  response: JsonObject;
  request: JsonObject;
  event: string;
  allowed: string[];
  projection: boolean;
}

interface Effect extends Answer {
  effect: JsonObject;
  type: string;
  index: number;
}

function field(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value[key] : undefined;
}

/** ok answers to the kit's well-formed invocations, with what the request allowed. */
function okAnswers(t: ProviderTranscript): Answer[] {
  return responses(t)
    .filter((p) => isInvocation(p.exchange) && p.exchange.requestValue !== undefined && p.response.status === "ok")
    .map(({ exchange, response }) => {
      const request = exchange.requestValue as JsonObject;
      const tool = field(request.event, "tool");
      const allowed = Array.isArray(request.allowed_effects) ? request.allowed_effects.filter((e): e is string => typeof e === "string") : [];
      return { exchange, response, request, event: String(field(request.event, "name")), allowed, projection: field(tool, "result_projection") !== undefined };
    });
}

function effects(t: ProviderTranscript): Effect[] {
  return okAnswers(t).flatMap((answer) =>
    Array.isArray(answer.response.effects)
      ? answer.response.effects.flatMap((effect, index) =>
          effect !== null && typeof effect === "object" && !Array.isArray(effect)
            ? [{ ...answer, effect, type: typeof effect.type === "string" ? effect.type : "", index }]
            : [],
        )
      : [],
  );
}

function effectCheck(clause: string, select: (e: Effect) => boolean, problem: (e: Effect) => string | undefined, none: string, expected: string): Check<ProviderTranscript> {
  return {
    clause,
    judge: (t) =>
      judgeEach(
        effects(t).filter(select),
        (e): Finding[] => {
          const message = problem(e);
          return message === undefined ? [] : [finding(clause, e.exchange, `effects[${e.index}] ${message}`, { expected, seen: show(e.effect) })];
        },
        noneFound(t, none),
      ),
  };
}

function answerCheck(
  clause: string,
  select: (a: Answer) => boolean,
  problem: (a: Answer) => string | undefined,
  none: string,
  expected: string,
  seen: (a: Answer) => JsonValue | undefined = (a) => a.response.effects,
): Check<ProviderTranscript> {
  return {
    clause,
    judge: (t) =>
      judgeEach(
        okAnswers(t).filter(select),
        (a) => {
          const message = problem(a);
          return message === undefined ? [] : [finding(clause, a.exchange, message, { expected, seen: show(seen(a)) })];
        },
        noneFound(t, none),
      ),
  };
}

const known = (type: string): boolean => (EFFECT_NAMES as readonly string[]).includes(type);
const replaces = (a: Answer): number => (Array.isArray(a.response.effects) ? a.response.effects.filter((e) => field(e, "type") === "replace_result").length : 0);

export const invokeChecks: Check<ProviderTranscript>[] = [
  {
    clause: `${ID}/answers-ok`,
    judge: (t) => {
      const byOperation = new Map<string, ProviderExchange[]>();
      for (const { exchange } of responses(t).filter((p) => p.exchange.purpose === "invoke")) {
        const op = String(exchange.requestValue?.operation);
        byOperation.set(op, [...(byOperation.get(op) ?? []), exchange]);
      }
      const anyOk = (list: readonly ProviderExchange[]): boolean => list.some((e) => responseObject(e)?.status === "ok");
      const operations = [...byOperation.entries()];
      // A run cut short (--run-timeout, an interruption) may not have sent the invocation an
      // operation answers ok: "none so far" is not "none", so such an operation is not judged.
      const cut = t.context.runTimedOut !== undefined || t.context.interrupted !== undefined;
      const judged = cut ? operations.filter(([, list]) => anyOk(list)) : operations;
      return judgeEach(
        judged,
        ([op, list]) => {
          const first = list[0] as ProviderExchange;
          return anyOk(list) ? [] : [finding(`${ID}/answers-ok`, first, `operation ${show(op)} answered none of ${list.length} valid invocations with status ok`, { expected: 'status "ok" for at least one', seen: "only error answers" })];
        },
        skip(
          cut && operations.length > 0
            ? "the run was cut short before every valid invocation was sent"
            : (invocationBlocker(t) ?? "no invocation produced a readable response: make invocations print one JSON object on stdout and exit 0 (see provider/transport/valid-request-exits-zero)"),
        ),
      );
    },
  },
  answerCheck(
    `${ID}/echoes-input-digest`,
    () => true,
    (a) => (a.response.input_digest === a.request.input_digest ? undefined : `input_digest is not the request's ${show(a.request.input_digest)}`),
    "no invocation was answered ok",
    "the request's input_digest, byte for byte",
    (a) => a.response.input_digest,
  ),
  answerCheck(`${ID}/effect-count`, () => true, (a) => (Array.isArray(a.response.effects) ? (a.response.effects.length <= 64 ? undefined : `${a.response.effects.length} effects`) : "effects is missing or not an array"), "no invocation was answered ok", "an array of 0 to 64 effects"),
  {
    clause: `${ID}/effect-shape`,
    judge: (t) =>
      judgeEach(
        okAnswers(t).filter((a) => Array.isArray(a.response.effects) && a.response.effects.length > 0),
        (a) =>
          (a.response.effects as JsonValue[]).flatMap((effect, index) => {
            if (effect === null || typeof effect !== "object" || Array.isArray(effect)) return [finding(`${ID}/effect-shape`, a.exchange, `effects[${index}] is not an object`, { seen: show(effect) })];
            const extra = Object.keys(effect).filter((k) => !EFFECT_FIELDS.includes(k));
            const problems = [
              typeof effect.type === "string" && known(effect.type) ? "" : `has unknown type ${show(effect.type)}`,
              extra.length > 0 ? `has unknown field ${extra.join(", ")}` : "",
            ].filter((p) => p !== "");
            return problems.map((p) => finding(`${ID}/effect-shape`, a.exchange, `effects[${index}] ${p}`, { expected: "type from the vocabulary; fields type, reason_code, text", seen: show(effect) }));
          }),
        noneFound(t, "the Provider returned no effect in any ok answer, so there was no effect to check"),
      ),
  },
  effectCheck(
    `${ID}/effect-admitted`,
    // Unknown types, a block after the tool and a replacement before it have their own clauses.
    (e) => known(e.type) && !(e.type === "block" && e.event === "tool.after") && !(e.type === "replace_result" && e.event === "tool.before"),
    (e) => (e.allowed.includes(e.type) ? undefined : `requests ${e.type}, which allowed_effects ${show(e.allowed)} does not admit`),
    "the Provider returned no effect in any ok answer, so there was no effect to check",
    "an effect type listed in allowed_effects",
  ),
  effectCheck(`${ID}/reason-code-form`, (e) => Object.hasOwn(e.effect, "reason_code"), (e) => (typeof e.effect.reason_code === "string" && CODE.test(e.effect.reason_code) ? undefined : "has a malformed reason_code"), "no effect carried a reason_code (it is optional)", "1-128 of A-Z a-z 0-9 _ . -"),
  answerCheck(`${ID}/block-before-tool`, (a) => a.event === "tool.after", (a) => (Array.isArray(a.response.effects) && a.response.effects.some((e) => field(e, "type") === "block") ? "requests block on tool.after, after the tool ran" : undefined), "no tool.after invocation was answered ok: declare an operation on tool.after to have it judged, or see provider/invoke/answers-ok if they were refused", "no block on tool.after"),
  answerCheck(`${ID}/replace-result-after-tool`, (a) => a.event === "tool.before", (a) => (replaces(a) > 0 ? "requests replace_result on tool.before" : undefined), "no tool.before invocation was answered ok: declare an operation on tool.before to have it judged, or see provider/invoke/answers-ok if they were refused", "no replace_result on tool.before"),
  answerCheck(`${ID}/replace-result-once`, (a) => a.allowed.includes("replace_result"), (a) => (replaces(a) > 1 ? `requests replace_result ${replaces(a)} times` : undefined), "no invocation that admitted replace_result was answered ok (the kit admits it only to operations that declare replace_result on tool.after)", "at most one replace_result"),
  effectCheck(`${ID}/replace-result-text`, (e) => e.type === "replace_result", (e) => (typeof e.effect.text === "string" ? undefined : "is a replace_result without a string text"), "the Provider never requested replace_result (it is optional)", "a string text"),
  answerCheck(`${ID}/replace-result-needs-projection`, (a) => a.allowed.includes("replace_result") && !a.projection, (a) => (replaces(a) > 0 ? "requests replace_result although the request has no result_projection" : undefined), "no invocation admitted replace_result without a projection (the kit sends one only to operations that declare replace_result)", "no replace_result without event.tool.result_projection"),
  effectCheck(`${ID}/block-text`, (e) => e.type === "block" && Object.hasOwn(e.effect, "text"), (e) => (typeof e.effect.text === "string" && e.effect.text.length > 0 ? undefined : "is a block whose text is not a nonempty string"), "no block effect carried text (it is optional)", "a nonempty string"),
  effectCheck(`${ID}/text-only-on-block-or-replace`, (e) => known(e.type) && e.type !== "block" && e.type !== "replace_result", (e) => (Object.hasOwn(e.effect, "text") ? `is a ${e.type} effect carrying text` : undefined), "the Provider returned no effect other than block and replace_result, so no text could be misplaced", "no text field"),
];
