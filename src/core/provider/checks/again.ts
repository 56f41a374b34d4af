import type { Check } from "../../report/judge.js";
import type { JsonValue } from "../../json/index.js";
import { stableJson } from "../../json/stable.js";
import { responseObject } from "../response.js";
import type { JsonObject, ProviderExchange, ProviderTranscript } from "../types.js";
import { finding, judgeEach, show, skip } from "./helpers.js";
import { describeBlocker, howAnswered } from "./reasons.js";

/**
 * Requests the kit sends a second time, changed in a way that must not change the answer:
 * with JSON whitespace around the object (provider/transport/request-whitespace), and describe
 * in a fresh empty working directory and HOME (provider/describe/same-answer-twice); plus the
 * files those fresh-directory calls left behind (provider/describe/leaves-no-files).
 */

export { stableJson };

/** A description with operations in name order and their events and effects sorted: the order carries no meaning. */
function normalDescription(response: JsonObject): JsonObject {
  const ops = response.operations;
  if (!Array.isArray(ops)) return response;
  const sorted = (v: JsonValue | undefined): JsonValue | undefined => (Array.isArray(v) ? [...v].sort((a, b) => stableJson(a).localeCompare(stableJson(b))) : v);
  const normal = ops.map((op) => (op !== null && typeof op === "object" && !Array.isArray(op) ? { ...op, events: sorted(op.events) ?? null, effects: sorted(op.effects) ?? null } : op));
  return { ...response, operations: normal.sort((a, b) => stableJson(a).localeCompare(stableJson(b))) };
}

interface Pair {
  again: ProviderExchange;
  plain: ProviderExchange;
  plainResponse: JsonObject;
}

/** The repeated requests of `purpose` whose plain request was answered ok. */
function pairs(t: ProviderTranscript, purpose: "whitespace" | "fresh-dir", method?: string): Pair[] {
  return t.exchanges.flatMap((again) => {
    if (again.purpose !== purpose || (method !== undefined && again.method !== method)) return [];
    const plain = t.exchanges.find((e) => e.seq === again.plainSeq);
    const plainResponse = plain === undefined ? undefined : responseObject(plain);
    return plain !== undefined && plainResponse?.status === "ok" ? [{ again, plain, plainResponse }] : [];
  });
}

/** Findings when `again` was not answered like `plain` (compared without request_id and input_digest). */
function compare(clause: string, { again, plain, plainResponse }: Pair, how: string, normal: (r: JsonObject) => JsonObject = (r) => r): ReturnType<typeof finding>[] {
  const response = responseObject(again);
  const expected = `the answer to request ${plain.requestId}, status "ok"`;
  if (response === undefined) return [finding(clause, again, `${how} was not answered (${howAnswered(again)}) while the plain request was answered ok`, { expected, seen: howAnswered(again) })];
  const drop = ["request_id", "input_digest"];
  const seen = stableJson(normal(response), drop);
  const wanted = stableJson(normal(plainResponse), drop);
  if (seen === wanted) return [];
  return [finding(clause, again, `${how} was answered differently from the plain request (${plain.requestId})`, { expected: show(JSON.parse(wanted)), seen: show(JSON.parse(seen)) })];
}

const WS = "provider/transport/request-whitespace";
const SAME = "provider/describe/same-answer-twice";
const FILES = "provider/describe/leaves-no-files";

export const againChecks: Check<ProviderTranscript>[] = [
  {
    clause: WS,
    judge: (t) =>
      judgeEach(
        pairs(t, "whitespace"),
        (p) => compare(WS, p, `the ${p.again.method} request with whitespace around it`),
        skip(describeBlocker(t) ?? "no request was sent with whitespace around it: select provider/transport/request-whitespace"),
      ),
  },
  {
    clause: SAME,
    judge: (t) =>
      judgeEach(
        pairs(t, "fresh-dir", "describe"),
        (p) => compare(SAME, p, "describe, run again in a fresh empty directory and HOME,", normalDescription),
        skip(describeBlocker(t) ?? "describe was not run a second time: select provider/describe/same-answer-twice"),
      ),
  },
  {
    clause: FILES,
    judge: (t) =>
      judgeEach(
        t.exchanges.filter((e) => e.purpose === "fresh-dir" && e.leftFiles !== undefined && e.outcome.spawnError === undefined),
        (e) => {
          const left = e.leftFiles ?? [];
          if (left.length === 0) return [];
          const listed = left.slice(0, 10).join(", ") + (left.length > 10 ? `, … (${left.length} in all)` : "");
          return [finding(FILES, e, `${e.method} left ${left.length} file${left.length === 1 ? "" : "s"} in its fresh working directory (cwd/) and HOME (home/): ${listed}`, { expected: "cwd and HOME as empty as the kit made them", seen: listed })];
        },
        skip("describe and validate_config were not run in a fresh directory: select provider/describe/leaves-no-files (the kit could not create a temporary directory if this persists)"),
      ),
  },
];
