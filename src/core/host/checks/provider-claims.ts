/**
 * host/provider-reactions: invocations. Each spawned before its event's deadline, each step
 * answered by one process, a failed call not repeated, and a failure taken as a failure.
 */
import { notApplicable, skip, type Unjudged } from "../helpers.js";
import type { HostRun } from "../types.js";
import { budgetOfCall, callsCheck, noInvoke, eventKey, eventLabel, failureOf, invokes, recordsAnswers, repeats, type Call, type CallsJudged } from "./provider-calls.js";

const ID = "host/provider-reactions";

const OLD_MOCK = "the record was written by a mock that does not record its answers, so it cannot tell which calls failed: record the host again with this version's mock";
const NO_FAILURE = "no invoke of the record failed: give the mock a failure fault on a provider the host invokes that fires on invoke only (wrong-digest, invoke-error, exit-nonzero-on-block, observe-not-admitted, slow-invoke past the budget) so the host has to apply on_error";

const requestOf = (call: Call): string => JSON.stringify(call.request?.id ?? null);

function spawnBeforeDeadline(calls: Call[], run: HostRun): CallsJudged | Unjudged {
  const budgeted = invokes(calls).filter((c) => budgetOfCall(c) !== undefined);
  if (budgeted.length === 0) return noInvoke(calls, "no invoke with budget_ms");
  // The event's deadline: the earliest request time + budget_ms over its invocations (an event without a call id alone).
  const deadlines = new Map<string, number>();
  for (const call of budgeted) {
    const key = eventKey(call);
    const own = (call.request?.at ?? call.start) + (budgetOfCall(call) as number);
    if (key !== undefined) deadlines.set(key, Math.min(deadlines.get(key) ?? Infinity, own));
  }
  const problems: CallsJudged["problems"] = [];
  for (const call of budgeted) {
    const budget = budgetOfCall(call) as number;
    const events = call.request !== undefined ? [call.process.launch, call.request] : [call.process.launch];
    if (budget <= 0) {
      problems.push({ call, problem: { message: `${call.label} was invoked (request ${requestOf(call)}) with budget_ms ${budget}: nothing was left of the deadline when it started`, expected: "a positive budget_ms, or no invocation", events } });
      continue;
    }
    const key = eventKey(call);
    const deadline = key === undefined ? undefined : deadlines.get(key);
    if (deadline === undefined || call.start <= deadline + run.bounds.slackMs) continue;
    problems.push({
      call,
      problem: {
        message: `${call.label} was started for ${eventLabel(call)} ${Math.round(call.start - deadline)} ms after that event's deadline (an earlier step's request time + budget_ms), past the slack of ${run.bounds.slackMs} ms`,
        expected: `started by ${Math.round(deadline + run.bounds.slackMs - (calls[0]?.start ?? 0))} ms into the record`,
        seen: `started at ${Math.round(call.start - (calls[0]?.start ?? 0))} ms with budget_ms ${budget}`,
        events,
      },
    });
  }
  return { judged: budgeted.length, problems };
}

function onePerClaim(calls: Call[], run: HostRun): CallsJudged | Unjudged {
  const list = invokes(calls);
  if (list.length === 0) return noInvoke(calls);
  if (!recordsAnswers(run)) return skip(OLD_MOCK);
  const problems = repeats(calls)
    .filter(({ earlier }) => failureOf(earlier) === undefined)
    .map(({ earlier, later }) => ({
      call: later,
      problem: {
        message: `${later.label} got the same step twice: request ${requestOf(later)} repeats request ${requestOf(earlier)} (operation ${JSON.stringify(later.request?.operation ?? null)}, ${eventLabel(later)}), which did not fail`,
        expected: "one process per step of an event",
        events: [earlier.process.launch, later.process.launch],
      },
    }));
  return { judged: list.length, problems };
}

/** The failed invocations of the record, or why the failure reactions cannot be judged on it. */
function failedInvokes(calls: Call[], run: HostRun): Call[] | Unjudged {
  if (invokes(calls).length === 0) return noInvoke(calls);
  if (!recordsAnswers(run)) return skip(OLD_MOCK);
  const failed = invokes(calls).filter((c) => failureOf(c) !== undefined);
  return failed.length === 0 ? notApplicable(NO_FAILURE) : failed;
}

function noRetry(calls: Call[], run: HostRun): CallsJudged | Unjudged {
  const failed = failedInvokes(calls, run);
  if (!Array.isArray(failed)) return failed;
  const problems = repeats(calls)
    .filter(({ earlier }) => failureOf(earlier) !== undefined)
    .map(({ earlier, later }) => ({
      call: later,
      problem: {
        message: `${later.label} was invoked again (request ${requestOf(later)}) for ${eventLabel(later)} after request ${requestOf(earlier)} failed: ${failureOf(earlier) as string}`,
        expected: "the step's on_error applied, no second call",
        events: [earlier.answer ?? earlier.process.launch, later.process.launch],
      },
    }));
  return { judged: failed.length, problems };
}

function failureNotBlock(calls: Call[], run: HostRun): CallsJudged | Unjudged {
  const failed = failedInvokes(calls, run);
  if (!Array.isArray(failed)) return failed;
  const outcomes = run.expect.outcomes;
  if (outcomes === undefined) {
    return skip(`${failed.length} invoke${failed.length === 1 ? "" : "s"} failed, and whether the host took ${failed.length === 1 ? "it" : "them"} as a failure or as a block decision is not visible to the mock: give --host-outcomes FILE, the host's own account ({"REQUEST_ID": "failure" | "decision"})`);
  }
  const accounted = failed.filter((c) => c.request?.id != null && Object.hasOwn(outcomes, c.request.id));
  if (accounted.length === 0) return skip(`--host-outcomes names none of the failed requests (${failed.map(requestOf).join(", ")}): let the host write an outcome for every invoke`);
  const problems = accounted
    .filter((c) => outcomes[c.request?.id as string] !== "failure")
    .map((call) => ({
      call,
      problem: {
        message: `the host took request ${requestOf(call)} (${call.label}) as a policy decision, though it failed: ${failureOf(call) as string}`,
        expected: "failure (the step's on_error applies)",
        seen: outcomes[call.request?.id as string] as string,
        events: [call.answer ?? call.process.launch],
      },
    }));
  return { judged: accounted.length, problems };
}

export const providerClaimChecks = [
  callsCheck(`${ID}/spawn-before-deadline`, spawnBeforeDeadline),
  callsCheck(`${ID}/one-process-per-claim`, onePerClaim),
  callsCheck(`${ID}/no-retry-after-failure`, noRetry),
  callsCheck(`${ID}/failure-not-block`, failureNotBlock),
];
