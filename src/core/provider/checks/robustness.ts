import type { Check } from "../../report/judge.js";
import type { Judgement } from "../../report/types.js";
import { responseObject } from "../response.js";
import type { HostileKind, ProviderExchange, ProviderTranscript } from "../types.js";
import { finding, isHostile, judgeEach, notApplicable, skip } from "./helpers.js";
import { howAnswered, invocationBlocker } from "./reasons.js";

const ID = "provider/robustness";

/** Every kind of hostile probe, each judged by provider/robustness/rejects-<kind>. */
export const HOSTILE_KINDS: readonly HostileKind[] = [
  "duplicate-keys", "trailing-document", "malformed-json", "out-of-bounds", "oversized-request", "excessive-depth", "out-of-range-integer",
  "unknown-field", "wrong-api-version", "unknown-method", "malformed-digest", "mismatched-digest", "result-before-tool",
  "bad-config", "malformed-config-revision", "bad-request-id", "bad-allowed-effects", "bad-event-name", "undeclared-operation",
];

/**
 * A hostile request as the subject of a sentence. Its label is a phrase of any form ("a tool
 * name of 1025 characters", "budget_ms 0", "method \"explain\"", a fuzzer's): it goes in
 * parentheses, never between "the" and "request" ("the a tool name ... request").
 */
export function hostileSubject(label: string): string {
  return `the hostile request (${label})`;
}

function hostile(t: ProviderTranscript): ProviderExchange[] {
  return t.exchanges.filter(isHostile);
}

/** The Host would take it as a success: exit 0, on time, stdout an object with status ok. */
function answeredOk(e: ProviderExchange): boolean {
  return responseObject(e)?.status === "ok";
}

function controlOf(t: ProviderTranscript, e: ProviderExchange): ProviderExchange | undefined {
  return t.exchanges.find((c) => c.seq === e.controlSeq);
}

/**
 * A rejection only means something when the control (the same request without the defect, or
 * at the limit the probe crosses) was answered ok: otherwise a Provider that rejects everything,
 * or rejects the probe for another reason, would pass.
 */
function controlAnsweredOk(t: ProviderTranscript, e: ProviderExchange): boolean {
  const control = controlOf(t, e);
  return control !== undefined && answeredOk(control);
}

/** Not applicable: every probe's control was refused. Names each refused control and how it ended. */
function controlsRefused(t: ProviderTranscript, probes: readonly ProviderExchange[]): Judgement {
  const refused = new Map<string, string>();
  for (const probe of probes) {
    const control = controlOf(t, probe);
    refused.set(probe.controlLabel ?? "the same request without the defect", control === undefined ? "not sent" : howAnswered(control));
  }
  const list = [...refused.entries()].map(([label, how]) => `${label}: ${how}`).join("; ");
  const one = refused.size === 1;
  return notApplicable(`the Provider refused the control request${one ? "" : "s"} (${list}), so a refusal of the probe${one ? "" : "s"} would prove nothing`);
}

function rejectionCheck(kind: HostileKind): Check<ProviderTranscript> {
  const clause = `${ID}/rejects-${kind}`;
  return {
    clause,
    judge: (t) => {
      const probes = t.exchanges.filter((e) => e.purpose === `hostile:${kind}`);
      const judged = probes.filter((e) => controlAnsweredOk(t, e));
      if (probes.length > 0 && judged.length === 0) return controlsRefused(t, probes);
      return judgeEach(
        judged,
        (e) => (answeredOk(e) ? [finding(clause, e, `${hostileSubject(e.scenario)} was answered ok`, { expected: "an error response or a nonzero exit", seen: 'exit 0 and status "ok"' })] : []),
        skip(invocationBlocker(t) ?? "the kit had no well-formed request to derive this probe from"),
      );
    },
  };
}

export const robustnessChecks: Check<ProviderTranscript>[] = [
  ...HOSTILE_KINDS.map(rejectionCheck),
  {
    clause: `${ID}/no-hang`,
    judge: (t) =>
      judgeEach(
        hostile(t).filter((e) => e.outcome.spawnError === undefined),
        (e) => (e.outcome.timedOut ? [finding(`${ID}/no-hang`, e, `${hostileSubject(e.scenario)} kept the Provider running until the deadline`, { expected: `exit within ${e.timeoutMs} ms`, seen: "killed at the deadline" })] : []),
        skip("no hostile request was sent: select a provider/robustness clause"),
      ),
  },
  {
    clause: `${ID}/no-signal-death`,
    judge: (t) =>
      judgeEach(
        hostile(t).filter((e) => e.outcome.spawnError === undefined && !e.outcome.killedByKit),
        (e) => (e.outcome.signal !== null ? [finding(`${ID}/no-signal-death`, e, `${hostileSubject(e.scenario)} crashed the Provider`, { expected: "an error response or a nonzero exit", seen: `killed by ${e.outcome.signal}` })] : []),
        skip("no hostile request was sent: select a provider/robustness clause"),
      ),
  },
];
