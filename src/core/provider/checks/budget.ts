import type { Check } from "../../report/judge.js";
import { responseObject } from "../response.js";
import type { ProviderTranscript } from "../types.js";
import { finding, isHostile, notApplicable, skip } from "./helpers.js";
import { howAnswered, invocationBlocker } from "./reasons.js";

const CLAUSE = "provider/transport/tight-budget";

/** budget_ms of the tight-budget probe: no process can start, decide and exit within it. */
export const TIGHT_BUDGET_MS = 1;

/**
 * How long past the tight budget an answer still counts as on time, at the least (--budget-slack,
 * the kit's choice, not the contract's): its allowance for process start-up and for its own
 * measurement (spawn to exit, timed by the kit), so a Provider that ignores budget_ms but
 * answers at once is not held to 1 ms. On a loaded 2-core machine a Node provider's start-up
 * alone came past 250 ms, so the default is a second. The allowance grows to the longest
 * describe call of the run: the Provider's start-up as the machine showed it then (a loaded
 * machine slows every call, not only this one).
 */
export const TIGHT_BUDGET_SLACK_MS = 1000;

/** The allowance of a run: --budget-slack (or TIGHT_BUDGET_SLACK_MS), or the longest describe call that ended on its own, when longer. */
export function tightBudgetAllowance(t: ProviderTranscript): number {
  const describes = t.exchanges.filter((e) => e.method === "describe" && !isHostile(e) && !e.outcome.timedOut && e.outcome.spawnError === undefined);
  return Math.max(slackOf(t), ...describes.map((e) => Math.ceil(e.outcome.durationMs)));
}

const slackOf = (t: ProviderTranscript): number => t.context.budgetSlackMs ?? TIGHT_BUDGET_SLACK_MS;

/**
 * provider/transport/tight-budget: the tight-budget probe (an accepted invocation again with
 * budget_ms 1) is answered within the budget plus the kit's allowance, or with an error
 * response; an ok after that fails. A call killed at the kit's deadline shows no answer (skip);
 * a late answer the Host would not read is the transport clauses' (not applicable).
 */
export const budgetChecks: Check<ProviderTranscript>[] = [
  {
    clause: CLAUSE,
    judge: (t) => {
      const probe = t.exchanges.find((e) => e.purpose === "tight-budget" && e.outcome.spawnError === undefined);
      if (probe === undefined) return skip(invocationBlocker(t) ?? "the kit sent no invocation with a tight budget_ms (it resends the first accepted invocation)");
      const budget = typeof probe.requestValue?.budget_ms === "number" ? probe.requestValue.budget_ms : TIGHT_BUDGET_MS;
      const took = Math.round(probe.outcome.durationMs);
      if (probe.outcome.timedOut) {
        return skip(`the invocation with budget_ms ${budget} was still running at the kit's deadline of ${probe.timeoutMs} ms and was killed, so its answer could not be seen (see provider/transport/terminates): raise --timeout to see it`);
      }
      const allowance = tightBudgetAllowance(t);
      const onTime = budget + allowance;
      if (probe.outcome.durationMs <= onTime) return { outcome: "judged", judged: 1, findings: [] };
      const response = responseObject(probe);
      if (response === undefined) {
        return notApplicable(`the invocation with budget_ms ${budget} ended after ${took} ms with no response the Host would read (${howAnswered(probe)}), so whether the Provider answers a late ok could not be told (the transport clauses judge that answer)`);
      }
      if (response.status !== "ok") return { outcome: "judged", judged: 1, findings: [] };
      const how = allowance > slackOf(t) ? `${allowance} ms, the longest describe call of the run` : `${allowance} ms (--budget-slack)`;
      const message = `the invocation with budget_ms ${budget} was answered ok after ${took} ms, past its budget and the kit's allowance of ${how}`;
      const expected = `an answer within ${onTime} ms, or an error response (deadline_exceeded is the code upstream providers use)`;
      const late = finding(CLAUSE, probe, message, { expected, seen: `status "ok" after ${took} ms` });
      return { outcome: "judged", judged: 1, findings: [{ ...late, kitBound: { option: "--budget-slack", value: allowance, unit: "ms", activity: `answering ok after ${took} ms` } }] };
    },
  },
];
