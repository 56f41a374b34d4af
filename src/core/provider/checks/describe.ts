import type { Finding } from "../../report/types.js";
import type { Check } from "../../report/judge.js";
import type { JsonValue } from "../../json/index.js";
import { EFFECT_NAMES, EVENT_NAMES, PROFILE_EFFECTS, type JsonObject, type ProviderExchange, type ProviderTranscript } from "../types.js";
import { finding, judgeEach, show, skip } from "./helpers.js";
import { responses } from "./helpers.js";
import { describeBlocker } from "./reasons.js";

const ID = "provider/describe";
const NAME = /^[!-~]{1,128}$/;

type Pair = { exchange: ProviderExchange; response: JsonObject };

function describeAnswers(t: ProviderTranscript): Pair[] {
  return responses(t).filter((p) => p.exchange.purpose === "describe");
}

function okDescriptions(t: ProviderTranscript): Pair[] {
  return describeAnswers(t).filter((p) => p.response.status === "ok");
}

/** Operation objects of ok describe answers (operations that are not objects are shape failures). */
function operations(t: ProviderTranscript): { exchange: ProviderExchange; op: JsonObject; index: number }[] {
  return okDescriptions(t).flatMap(({ exchange, response }) =>
    Array.isArray(response.operations)
      ? response.operations.flatMap((op, index) => (op !== null && typeof op === "object" && !Array.isArray(op) ? [{ exchange, op, index }] : []))
      : [],
  );
}

const NO_OPS_REASON = "describe returned no operation objects (see provider/describe/operation-count and operation-shape): declare at least one operation";

/** Skipped because describe gave no operations: the shared reason when it was not answered ok. */
const noOps = (t: ProviderTranscript): ReturnType<typeof skip> => skip(describeBlocker(t) ?? NO_OPS_REASON);

function listCheck(clause: string, field: "events" | "effects", vocabulary: readonly string[], max: number): Check<ProviderTranscript> {
  return {
    clause,
    judge: (t) =>
      judgeEach(
        operations(t),
        ({ exchange, op, index }): Finding[] => {
          const list: JsonValue | undefined = op[field];
          const where = `operations[${index}].${field}`;
          if (!Array.isArray(list)) return [finding(clause, exchange, `${where} is not an array`, { seen: show(list) })];
          const problems: string[] = [];
          if (list.length < 1 || list.length > max) problems.push(`has ${list.length} entries (1..${max} allowed)`);
          const unknown = list.filter((v) => typeof v !== "string" || !vocabulary.includes(v));
          if (unknown.length > 0) problems.push(`names unknown ${field} ${show(unknown)}`);
          if (new Set(list.map((v) => show(v))).size !== list.length) problems.push("repeats an entry");
          return problems.map((p) => finding(clause, exchange, `${where} ${p}`, { expected: `1..${max} unique known ${field}`, seen: show(list) }));
        },
        noOps(t),
      ),
  };
}

export const describeChecks: Check<ProviderTranscript>[] = [
  {
    clause: `${ID}/answers-ok`,
    judge: (t) =>
      judgeEach(
        describeAnswers(t),
        ({ exchange, response }) =>
          response.status === "ok"
            ? []
            : [finding(`${ID}/answers-ok`, exchange, "describe was not answered ok", { expected: 'status "ok"', seen: show(response.status) + (response.error_code ? ` (${show(response.error_code)})` : "") })],
        skip("describe produced no readable response: make it print one JSON object on stdout and exit 0 (see provider/transport/single-json-object and valid-request-exits-zero)"),
      ),
  },
  {
    clause: `${ID}/operation-count`,
    judge: (t) =>
      judgeEach(
        okDescriptions(t),
        ({ exchange, response }) => {
          const ops = response.operations;
          if (!Array.isArray(ops)) return [finding(`${ID}/operation-count`, exchange, "operations is missing or not an array", { seen: show(ops) })];
          if (ops.length >= 1 && ops.length <= 64) return [];
          return [finding(`${ID}/operation-count`, exchange, `the description declares ${ops.length} operations`, { expected: "1 to 64", seen: String(ops.length) })];
        },
        skip(describeBlocker(t) ?? NO_OPS_REASON),
      ),
  },
  {
    clause: `${ID}/operation-shape`,
    judge: (t) =>
      judgeEach(
        okDescriptions(t).filter((p) => Array.isArray(p.response.operations)),
        ({ exchange, response }) =>
          (response.operations as JsonValue[]).flatMap((op, index) => {
            if (op === null || typeof op !== "object" || Array.isArray(op)) {
              return [finding(`${ID}/operation-shape`, exchange, `operations[${index}] is not an object`, { seen: show(op) })];
            }
            const keys = Object.keys(op).sort().join(",");
            return keys === "effects,events,name" ? [] : [finding(`${ID}/operation-shape`, exchange, `operations[${index}] has fields ${keys}`, { expected: "exactly name, events, effects", seen: keys })];
          }),
        skip(describeBlocker(t) ?? NO_OPS_REASON),
      ),
  },
  {
    clause: `${ID}/operation-names`,
    judge: (t) =>
      judgeEach(
        okDescriptions(t).filter((p) => Array.isArray(p.response.operations)),
        ({ exchange, response }) => {
          const seen = new Set<string>();
          const found: Finding[] = [];
          (response.operations as JsonValue[]).forEach((op, index) => {
            if (op === null || typeof op !== "object" || Array.isArray(op) || !("name" in op)) return;
            const name = op.name;
            if (typeof name !== "string" || !NAME.test(name)) {
              found.push(finding(`${ID}/operation-names`, exchange, `operations[${index}].name is not a nonempty printable ASCII name`, { expected: "1-128 characters from ! to ~", seen: show(name) }));
            } else if (seen.has(name)) {
              found.push(finding(`${ID}/operation-names`, exchange, `operation name ${show(name)} is declared twice`, { expected: "unique names", seen: name }));
            }
            if (typeof name === "string") seen.add(name);
          });
          return found;
        },
        skip(describeBlocker(t) ?? NO_OPS_REASON),
      ),
  },
  listCheck(`${ID}/operation-events`, "events", EVENT_NAMES, 16),
  listCheck(`${ID}/operation-effects`, "effects", EFFECT_NAMES, 5),
  {
    clause: `${ID}/admissible-operation`,
    judge: (t) =>
      judgeEach(
        okDescriptions(t).filter((p) => Array.isArray(p.response.operations)),
        ({ exchange }) => {
          const runnable = operations(t).some(({ op }) =>
            (["tool.before", "tool.after"] as const).some(
              (event) => Array.isArray(op.events) && op.events.includes(event) && Array.isArray(op.effects) && op.effects.some((e) => typeof e === "string" && PROFILE_EFFECTS[event].includes(e)),
            ),
          );
          return runnable ? [] : [finding(`${ID}/admissible-operation`, exchange, "no operation pairs tool.before with observe/block or tool.after with observe/replace_result", { expected: "one operation the profile can run" })];
        },
        skip(describeBlocker(t) ?? NO_OPS_REASON),
      ),
  },
];
