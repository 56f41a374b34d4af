import type { Finding } from "../../report/types.js";
import type { Check } from "../../report/judge.js";
import type { JsonIssueKind } from "../../json/index.js";
import { readResponse } from "../response.js";
import { MAX_MESSAGE_BYTES, type ProviderExchange, type ProviderTranscript } from "../types.js";
import { answeredExchanges, finding, judgeEach, NO_ANSWER, notApplicable, show, skip, validExchanges } from "./helpers.js";
import { leftoverChecks } from "./leftovers.js";
import { invocationBlocker } from "./reasons.js";

const ID = "provider/transport";

function issueCheck(clause: string, kinds: readonly JsonIssueKind[], what: string): Check<ProviderTranscript> {
  return {
    clause,
    judge: (t) =>
      judgeEach(
        answeredExchanges(t),
        (e) =>
          readResponse(e.stdout)
            .issues.filter((issue) => kinds.includes(issue.kind))
            .slice(0, 3)
            .map((issue) => finding(clause, e, `${what}: ${issue.message}`, { at: issue.offset, seen: issue.key })),
        NO_ANSWER,
      ),
  };
}

function okOnStdout(e: ProviderExchange): boolean {
  return readResponse(e.stdout).object?.status === "ok";
}

/** Ended on its own: not killed at the deadline or for flooding stdout, and actually started. */
function endedOnItsOwn(e: ProviderExchange): boolean {
  return !e.outcome.timedOut && !e.outcome.stdoutCapped && e.outcome.spawnError === undefined;
}

export const transportChecks: Check<ProviderTranscript>[] = [
  {
    clause: `${ID}/single-json-object`,
    judge: (t) =>
      judgeEach(
        answeredExchanges(t),
        (e): Finding[] => {
          const r = readResponse(e.stdout);
          const clause = `${ID}/single-json-object`;
          if (r.document === undefined) {
            const why = r.failure?.kind === "empty" ? "stdout is empty" : `stdout is not JSON: ${r.failure?.message ?? "no object found"}`;
            return [finding(clause, e, why, { expected: "one JSON object", at: r.failure?.offset })];
          }
          if (r.object === undefined) {
            return [finding(clause, e, "the response is not a JSON object", { expected: "a JSON object", seen: show(r.document) })];
          }
          return [];
        },
        NO_ANSWER,
      ),
  },
  {
    clause: `${ID}/no-trailing-data`,
    judge: (t) =>
      judgeEach(
        answeredExchanges(t),
        (e) => {
          const extra = readResponse(e.stdout).trailingDocument;
          if (extra === undefined) return [];
          return [finding(`${ID}/no-trailing-data`, e, "a second JSON document follows the response", { expected: "only whitespace after the object", seen: extra.text, at: extra.offset })];
        },
        NO_ANSWER,
      ),
  },
  {
    clause: `${ID}/diagnostics-on-stderr`,
    judge: (t) =>
      judgeEach(
        answeredExchanges(t),
        (e) => {
          const r = readResponse(e.stdout);
          const text = r.leadingText ?? r.trailingText;
          if (text === undefined) return [];
          const where = r.leadingText ? "before" : "after";
          return [finding(`${ID}/diagnostics-on-stderr`, e, `non-JSON text on stdout ${where} the response`, { expected: "diagnostics on stderr only", seen: text.text, at: text.offset })];
        },
        NO_ANSWER,
      ),
  },
  issueCheck(`${ID}/utf8`, ["invalid-utf8", "bom", "lone-surrogate"], "stdout is not well-formed UTF-8 JSON text"),
  issueCheck(`${ID}/depth-limit`, ["depth"], "the response nests too deeply"),
  issueCheck(`${ID}/no-duplicate-keys`, ["duplicate-key"], "an object repeats a key"),
  issueCheck(`${ID}/numbers-in-range`, ["integer-range", "non-finite-number"], "a number is out of range"),
  {
    clause: `${ID}/size-limit`,
    judge: (t) =>
      judgeEach(
        validExchanges(t).filter((e) => e.outcome.spawnError === undefined && !e.outcome.timedOut),
        (e) =>
          e.outcome.stdoutBytes > MAX_MESSAGE_BYTES
            ? [finding(`${ID}/size-limit`, e, "stdout exceeds 1 MiB", { expected: `at most ${MAX_MESSAGE_BYTES} bytes`, seen: e.outcome.stdoutCapped ? `more than ${MAX_MESSAGE_BYTES} bytes (stopped reading)` : `${e.outcome.stdoutBytes} bytes`, at: MAX_MESSAGE_BYTES })]
            : [],
        skip("no call ran to completion (each was killed at the deadline or could not start): see provider/transport/terminates, and raise --timeout if the Provider is slow"),
      ),
  },
  {
    clause: `${ID}/exit-zero-on-success`,
    judge: (t) =>
      judgeEach(
        t.exchanges.filter((e) => endedOnItsOwn(e) && okOnStdout(e)),
        (e) =>
          e.outcome.exitCode === 0
            ? []
            : [finding(`${ID}/exit-zero-on-success`, e, "an ok response came with a failed exit", { expected: "exit status 0", seen: e.outcome.signal ? `killed by ${e.outcome.signal}` : `exit status ${e.outcome.exitCode}` })],
        notApplicable("the Provider never printed an ok response, so no exit status of one could be checked"),
      ),
  },
  {
    clause: `${ID}/valid-request-exits-zero`,
    judge: (t) =>
      judgeEach(
        validExchanges(t).filter(endedOnItsOwn),
        (e) => {
          // An ok response with a bad exit is reported under exit-zero-on-success.
          if (e.outcome.exitCode === 0 || okOnStdout(e)) return [];
          const seen = e.outcome.signal ? `killed by ${e.outcome.signal}` : `exit status ${e.outcome.exitCode}`;
          return [finding(`${ID}/valid-request-exits-zero`, e, "a well-formed request ended in a failed process", { expected: "exit status 0 with a response on stdout", seen })];
        },
        skip("no call ended on its own (each was killed at the deadline or flooded stdout): see provider/transport/terminates, and raise --timeout if the Provider is slow"),
      ),
  },
  {
    clause: `${ID}/terminates`,
    judge: (t) =>
      judgeEach(
        // Invocations carry a budget: their deadline is judged by within-budget.
        validExchanges(t).filter((e) => e.budgetMs === undefined && e.outcome.spawnError === undefined && !(e.outcome.stdoutCapped && !e.outcome.timedOut)),
        (e) =>
          e.outcome.timedOut
            ? [finding(`${ID}/terminates`, e, `still running at the kit's deadline of ${e.timeoutMs} ms`, { expected: "the process exits after answering", seen: `killed after ${Math.round(e.outcome.durationMs)} ms` })]
            : [],
        skip("no call was started: check that the candidate is an executable file"),
      ),
  },
  {
    clause: `${ID}/within-budget`,
    judge: (t) =>
      judgeEach(
        validExchanges(t).filter((e) => e.budgetMs !== undefined && e.outcome.spawnError === undefined),
        (e) => {
          const budget = e.budgetMs ?? 0;
          if (e.outcome.durationMs <= budget) return [];
          return [finding(`${ID}/within-budget`, e, "the invocation ran past its budget_ms", { expected: `exit within ${budget} ms`, seen: e.outcome.timedOut ? `still running at ${Math.round(e.outcome.durationMs)} ms (killed)` : `${Math.round(e.outcome.durationMs)} ms` })];
        },
        skip(invocationBlocker(t) ?? "no invocation was sent"),
      ),
  },
  ...leftoverChecks,
];
