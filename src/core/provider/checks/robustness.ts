import type { Check } from "../../report/judge.js";
import { responseObject } from "../response.js";
import type { HostileKind, ProviderExchange, ProviderTranscript } from "../types.js";
import { finding, isHostile, judgeEach, skip } from "./helpers.js";

const ID = "provider/robustness";

const KINDS: HostileKind[] = [
  "duplicate-keys", "trailing-document", "malformed-json", "out-of-bounds", "oversized-request", "excessive-depth", "out-of-range-integer",
  "unknown-field", "wrong-api-version", "unknown-method", "malformed-digest", "mismatched-digest", "result-before-tool",
];

function hostile(t: ProviderTranscript): ProviderExchange[] {
  return t.exchanges.filter(isHostile);
}

/** The Host would take it as a success: exit 0, on time, stdout an object with status ok. */
function answeredOk(e: ProviderExchange): boolean {
  return responseObject(e)?.status === "ok";
}

/**
 * A rejection only means something when the same request without the defect was answered
 * ok: otherwise a Provider that rejects everything would pass.
 */
function controlAnsweredOk(t: ProviderTranscript, e: ProviderExchange): boolean {
  const control = t.exchanges.find((c) => c.seq === e.controlSeq);
  return control !== undefined && answeredOk(control);
}

function rejectionCheck(kind: HostileKind): Check<ProviderTranscript> {
  const clause = `${ID}/rejects-${kind}`;
  return {
    clause,
    judge: (t) => {
      const probes = t.exchanges.filter((e) => e.purpose === `hostile:${kind}`);
      const judged = probes.filter((e) => controlAnsweredOk(t, e));
      if (probes.length > 0 && judged.length === 0) {
        return skip("the unaltered request was not answered ok, so a rejection would prove nothing");
      }
      return judgeEach(
        judged,
        (e) => (answeredOk(e) ? [finding(clause, e, `the ${e.scenario} request was answered ok`, { expected: "an error response or a nonzero exit", seen: 'exit 0 and status "ok"' })] : []),
        skip("the kit had no well-formed request to derive this probe from"),
      );
    },
  };
}

export const robustnessChecks: Check<ProviderTranscript>[] = [
  ...KINDS.map(rejectionCheck),
  {
    clause: `${ID}/no-hang`,
    judge: (t) =>
      judgeEach(
        hostile(t).filter((e) => e.outcome.spawnError === undefined),
        (e) => (e.outcome.timedOut ? [finding(`${ID}/no-hang`, e, `the ${e.scenario} request kept the Provider running until the deadline`, { expected: `exit within ${e.timeoutMs} ms`, seen: "killed at the deadline" })] : []),
        skip("no hostile request was sent"),
      ),
  },
  {
    clause: `${ID}/no-signal-death`,
    judge: (t) =>
      judgeEach(
        hostile(t).filter((e) => e.outcome.spawnError === undefined && !e.outcome.killedByKit),
        (e) => (e.outcome.signal !== null ? [finding(`${ID}/no-signal-death`, e, `the ${e.scenario} request crashed the Provider`, { expected: "an error response or a nonzero exit", seen: `killed by ${e.outcome.signal}` })] : []),
        skip("no hostile request was sent"),
      ),
  },
];
