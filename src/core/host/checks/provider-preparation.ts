/**
 * host/provider-reactions: preparation. Every enabled provider described and validated before
 * the first invoke, once each and in that order; a disabled provider never started.
 */
import { notApplicable } from "../helpers.js";
import type { HostRun } from "../types.js";
import { callsCheck, failureOf, invokes, noInvoke, recordsAnswers, type Call, type CallsJudged } from "./provider-calls.js";

const ID = "host/provider-reactions";

/** The enabled providers: the configured ones not disabled, else every provider the record shows invoked. */
function enabledProviders(calls: readonly Call[], run: HostRun): { key: string; label: string }[] {
  const configured = run.expect.providers;
  if (configured !== undefined) return Object.entries(configured).filter(([, p]) => p.enabled).map(([name]) => ({ key: name, label: `provider ${JSON.stringify(name)}` }));
  const seen = new Map<string, string>();
  for (const call of invokes(calls)) if (!seen.has(call.provider)) seen.set(call.provider, call.label);
  return [...seen].map(([key, label]) => ({ key, label }));
}

function preparedBeforeInvoke(calls: Call[], run: HostRun): CallsJudged | ReturnType<typeof notApplicable> {
  const first = invokes(calls)[0];
  if (first === undefined) return noInvoke(calls);
  const problems: CallsJudged["problems"] = [];
  const providers = enabledProviders(calls, run);
  if (providers.length === 0) return notApplicable("--expect-providers-json names no enabled provider: name the providers the host runs");
  const answers = recordsAnswers(run);
  for (const { key, label } of providers) {
    const missing = (["describe", "validate_config"] as const).flatMap((method): string[] => {
      const done = calls.filter((c) => c.provider === key && c.method === method && c.start < first.start);
      if (done.length === 0) return [`no ${method} started before it`];
      if (!answers) return [];
      const answered = done.filter((c) => c.answer !== undefined && c.answer.at <= first.start);
      if (answered.length === 0) return [`its ${method} had not answered yet`];
      const ok = answered.some((c) => failureOf(c) === undefined);
      return ok ? [] : [`its ${method} failed (${answered.map(failureOf).join("; ")}), so it cannot be admitted`];
    });
    if (missing.length === 0) continue;
    problems.push({
      call: first,
      problem: {
        message: `the first invoke (${first.label}, request ${JSON.stringify(first.request?.id ?? null)}) started before ${label} was prepared: ${missing.join("; ")}`,
        expected: "describe and validate_config of every enabled provider answered ok before any invoke",
        events: first.request !== undefined ? [first.process.launch, first.request] : [first.process.launch],
      },
    });
  }
  return { judged: providers.length, problems };
}

function preparedOnceInOrder(calls: Call[]): CallsJudged | ReturnType<typeof notApplicable> {
  const prep = calls.filter((c) => c.method === "describe" || c.method === "validate_config");
  const providers = [...new Set(prep.map((c) => c.provider))];
  if (providers.length === 0) return notApplicable("the record holds no describe or validate_config call: record the host from its start, while it prepares its providers");
  const problems: CallsJudged["problems"] = [];
  for (const provider of providers) {
    const describes = prep.filter((c) => c.provider === provider && c.method === "describe");
    const validates = prep.filter((c) => c.provider === provider && c.method === "validate_config");
    for (const [list, method] of [[describes, "describe"], [validates, "validate_config"]] as const) {
      const again = list[1];
      if (again !== undefined) problems.push({ call: again, problem: { message: `${again.label} got ${list.length} ${method} calls in one run of the host`, expected: `one ${method}`, seen: `${list.length}` } });
    }
    const describe = describes[0];
    // Without a describe (or one whose request the record lacks), the order is not judged: prepared-before-invoke sees a missing one.
    const early = describe === undefined ? undefined : validates.find((v) => v.start < describe.start);
    if (early !== undefined) problems.push({ call: early, problem: { message: `${early.label} got validate_config before describe`, expected: "describe, then validate_config" } });
  }
  return { judged: providers.length, problems };
}

function disabledNotStarted(calls: Call[], run: HostRun): CallsJudged | ReturnType<typeof notApplicable> {
  const configured = run.expect.providers;
  if (configured === undefined) return notApplicable("the mock cannot know which providers the configuration disables: give --expect-providers-json naming each configured provider with its args and \"enabled\"");
  const disabled = Object.entries(configured).filter(([, p]) => !p.enabled).map(([name]) => name);
  if (disabled.length === 0) return notApplicable("--expect-providers-json names no provider with \"enabled\": false: configure one disabled provider pointing at the mock to judge it");
  const started = calls.filter((c) => c.configured !== undefined && !c.configured.enabled);
  return {
    judged: disabled.length,
    problems: started.map((call) => ({ call, problem: { message: `${call.label} is disabled in the configuration, and the host started it (${call.method ?? "no request"})`, expected: "no process of a disabled provider" } })),
  };
}

export const providerPreparationChecks = [
  callsCheck(`${ID}/prepared-before-invoke`, preparedBeforeInvoke),
  callsCheck(`${ID}/prepared-once-in-order`, (calls) => preparedOnceInOrder(calls)),
  callsCheck(`${ID}/disabled-not-started`, disabledNotStarted),
];
