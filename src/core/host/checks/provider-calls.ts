/**
 * A provider host's calls as the mock's record shows them: which provider each process is,
 * what it was asked, what the mock answered and whether the call failed. Pure: the reaction
 * checks (provider-preparation.ts, provider-claims.ts) judge these.
 */
import type { Check } from "../../report/judge.js";
import { eventsOf, hostFinding, noLaunch, notApplicable, shown, type Problem, type Unjudged } from "../helpers.js";
import type { AnswerEvent, HostProcess, RequestEvent } from "../record.js";
import type { ConfiguredProvider, HostRun } from "../types.js";

export interface Call {
  process: HostProcess;
  /** The provider's key: its configured name, else its arguments after the executable. */
  provider: string;
  /** The provider as messages name it. */
  label: string;
  /** The configured provider, when --expect-providers-json names it. */
  configured?: ConfiguredProvider;
  request?: RequestEvent;
  answer?: AnswerEvent;
  method: string | null;
  /** When the process started (its launch line). */
  start: number;
}

const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((arg, i) => b[i] === arg);

/** The configured provider a process is, by its arguments (and its cwd when several share them). */
export function configuredOf(process: HostProcess, run: HostRun): [string, ConfiguredProvider] | undefined {
  const matches = Object.entries(run.expect.providers ?? {}).filter(([, p]) => same(p.args, process.launch.mockArgs));
  return matches.find(([, p]) => p.cwd === process.launch.cwd) ?? matches[0];
}

/** Every process of the run as a call, in launch order. */
export function callsOf(run: HostRun): Call[] {
  return run.processes.map((process) => {
    const found = configuredOf(process, run);
    const request = eventsOf(process, "request")[0];
    const answer = eventsOf(process, "answer")[0];
    const args = process.launch.mockArgs;
    return {
      process,
      provider: found?.[0] ?? JSON.stringify(process.launch.argv),
      label: found !== undefined ? `provider ${JSON.stringify(found[0])}` : `the provider run with ${shown(args)}`,
      ...(found !== undefined ? { configured: found[1] } : {}),
      ...(request !== undefined ? { request } : {}),
      ...(answer !== undefined ? { answer } : {}),
      method: request?.method ?? null,
      start: process.launch.at,
    };
  });
}

/** budget_ms of a request, from what the recorder kept of its deadline fields. */
export function budgetOf(request: RequestEvent): number | undefined {
  const deadline = request.deadline;
  if (typeof deadline === "number") return deadline;
  if (typeof deadline === "object" && deadline !== null && !Array.isArray(deadline)) {
    const budget = (deadline as Record<string, unknown>).budget_ms;
    if (typeof budget === "number") return budget;
  }
  return undefined;
}

export const invokes = (calls: readonly Call[]): Call[] => calls.filter((c) => c.method === "invoke");

/** Whether the mock wrote answer lines (mocks before they were added did not: their records cannot tell a failure). */
export const recordsAnswers = (run: HostRun): boolean => run.processes.some((p) => eventsOf(p, "answer").length > 0);

/** Why a call failed, as the record shows it, or undefined when it was answered ok (or never got a request). */
export function failureOf(call: Call): string | undefined {
  if (call.request === undefined) return undefined;
  const answer = call.answer;
  const exit = eventsOf(call.process, "exit")[0];
  if (answer === undefined) {
    if (exit !== undefined && exit.code === 0) return undefined;
    return exit === undefined ? "the process was killed before it answered (at its deadline?)" : `the process ended with ${exit.code} (${exit.reason}) before it answered`;
  }
  if (answer.rejected === true) return "the mock refused the request (exit 2)";
  if (answer.failures.length > 0) return `the fault${answer.failures.length === 1 ? "" : "s"} ${answer.failures.join(", ")} made the answer a failure`;
  if (answer.status !== "ok") return `the answer was not status ok (${answer.status ?? "not an object"})`;
  if (answer.exitCode !== null && answer.exitCode !== 0) return `the process exited with ${answer.exitCode}`;
  return undefined;
}

/** The event an invocation is about, when the record can tell it apart (a hash with a native call id). */
export function eventKey(call: Call): string | undefined {
  const event = call.request?.toolEvent;
  return event === undefined || event === null || event.callId === null ? undefined : event.sha256;
}

/** A short name of an invocation's event for messages. */
export function eventLabel(call: Call): string {
  const event = call.request?.toolEvent;
  return event === undefined || event === null ? "its event" : `event ${event.name ?? "?"} of call ${event.callId === null ? "(no call_id)" : JSON.stringify(event.callId)}`;
}

/** budget_ms of a call's request, when it has one. */
export const budgetOfCall = (call: Call): number | undefined => (call.request === undefined ? undefined : budgetOf(call.request));

/**
 * Invocations that repeat an earlier one of the same provider: the same request_id, or the same
 * operation on the same (told-apart) event. Each repeat is paired with the latest earlier call it repeats.
 */
export function repeats(calls: readonly Call[]): { earlier: Call; later: Call }[] {
  const out: { earlier: Call; later: Call }[] = [];
  const list = invokes(calls);
  list.forEach((later, j) => {
    const key = eventKey(later);
    for (let i = j - 1; i >= 0; i--) {
      const earlier = list[i] as Call;
      if (earlier.provider !== later.provider) continue;
      const sameId = earlier.request?.id != null && earlier.request.id === later.request?.id;
      const sameStep = key !== undefined && eventKey(earlier) === key && earlier.request?.operation === later.request?.operation;
      if (sameId || sameStep) {
        out.push({ earlier, later });
        return;
      }
    }
  });
  return out;
}

/** What a calls check found: how many things it judged, and the problems, each about one call. */
export interface CallsJudged {
  judged: number;
  problems: { call: Call; problem: Problem }[];
}

/** A check over the run's calls: `judge` returns what it judged, or why nothing could be. */
export function callsCheck(clause: string, judge: (calls: Call[], run: HostRun) => CallsJudged | Unjudged): Check<HostRun> {
  return {
    clause,
    judge: (run) => {
      if (run.processes.length === 0) return noLaunch(run);
      const result = judge(callsOf(run), run);
      if (!("judged" in result)) return result;
      if (result.judged === 0) throw new Error(`${clause}: judged nothing without saying why`);
      return { outcome: "judged", judged: result.judged, findings: result.problems.map(({ call, problem }) => hostFinding(clause, call.process, problem)) };
    },
  };
}

/**
 * Why a reaction that needs an invocation is not applicable: no invoke in the record, and, when a
 * describe or validate_config failed, that the host rightly stopped there (the fault also fires on
 * the preparation), with what to do instead.
 */
export function noInvoke(calls: readonly Call[], what = "no invoke"): Unjudged {
  const failed = calls.find((c) => (c.method === "describe" || c.method === "validate_config") && failureOf(c) !== undefined);
  const why = failed === undefined ? "let the host run a tool call through the provider" : `the host's preparation failed (${failed.method} of ${failed.label}: ${failureOf(failed) as string}), so it rightly invoked nothing: use a fault that fires on invoke only (wrong-digest, invoke-error, exit-nonzero-on-block, observe-not-admitted, slow-invoke) to judge this`;
  return notApplicable(`the record holds ${what}: ${why}`);
}
