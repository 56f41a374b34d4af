import { performance } from "node:perf_hooks";
import { secretsOf } from "../../core/provider/config.js";
import { invocableOperations } from "../../core/provider/plan.js";
import type { CaseConfig, PolicyCase } from "../../core/provider/policy-cases.js";
import { describeProblem, type PolicyRecord } from "../../core/provider/policy-judge.js";
import { caseRequest, checkCaseRequest, configsOf, planCases } from "../../core/provider/policy-plan.js";
import { describeRequest, validateConfigRequest } from "../../core/provider/requests.js";
import { readResponse } from "../../core/provider/response.js";
import type { JsonObject, ProviderExchange, ProviderTranscript } from "../../core/provider/types.js";
import { DEFAULT_RUN_TIMEOUT_MS, runTimeoutReason } from "../../core/run-timeout.js";
import { interruptReason } from "../../core/interrupt.js";
import { acceptedOk, ProviderSender, RunInterrupted, RunTimedOut } from "./sender.js";

export interface PolicyRunOptions {
  argv: string[];
  cases: PolicyCase[];
  /** The configuration of cases that give none (--config-json/--config-file; default {}). */
  config: CaseConfig;
  budgetMs: number;
  timeoutMs: number;
  jobs: number;
  killGraceMs?: number;
  runTimeoutMs?: number;
  onExchange?: (exchange: ProviderExchange) => void;
}

/**
 * Plays the Host for policy tests: describe once, validate_config once per configuration the
 * cases use, then one invocation per case (bound with its input_digest, `jobs` at a time),
 * every call through the bounded runner. Returns what was sent and answered, for judging.
 * A case-file mistake only visible once describe answered (an ambiguous operation, a request
 * no Host could send) throws a usage error before any invocation.
 */
export async function recordPolicyCases(options: PolicyRunOptions): Promise<PolicyRecord> {
  const runTimeoutMs = options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  const transcript: ProviderTranscript = {
    argv: options.argv,
    context: { config: options.config.value, configGiven: true, invalidConfigsGiven: 0, secrets: secretsOf(options.config.value), notes: [] },
    exchanges: [],
  };
  const sender = new ProviderSender(
    {
      argv: options.argv,
      timeoutMs: options.timeoutMs,
      deadline: performance.now() + runTimeoutMs,
      ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
      ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    },
    transcript,
  );
  const record: PolicyRecord = { transcript, plans: [], validations: new Map(), invocations: new Map() };
  try {
    await sendAll(options, sender, record);
  } catch (error) {
    if (!(error instanceof RunTimedOut)) throw error;
    const what = `after ${transcript.exchanges.length} calls, before the kit sent every case`;
    record.halted = error instanceof RunInterrupted ? interruptReason(error.signal, what) : runTimeoutReason(runTimeoutMs, what, "--case");
  }
  return record;
}

async function sendAll(options: PolicyRunOptions, sender: ProviderSender, record: PolicyRecord): Promise<void> {
  const { transcript } = record;
  const describe = await sender.valid("describe", "describe", describeRequest("describe-1"));
  record.describe = describe;
  const operations = acceptedOk(describe) ? invocableOperations(readResponse(describe.stdout).object) : [];
  record.plans = planCases(options.cases, operations, options.config, describeProblem(transcript, describe));
  // Every case's request is built and checked before the first invocation: a bad case file costs no calls.
  const requests = new Map<number, JsonObject>();
  record.plans.forEach((plan, index) => {
    if (plan.kind !== "invoke") return;
    const request = caseRequest(plan, index, options.budgetMs);
    checkCaseRequest(request, plan.case);
    requests.set(index, request);
  });
  for (const secret of options.cases.flatMap((c) => (c.config !== undefined ? secretsOf(c.config.value) : []))) {
    if (!transcript.context.secrets.includes(secret)) transcript.context.secrets.push(secret);
  }
  for (const [n, config] of configsOf(record.plans).entries()) {
    const exchange = await sender.valid("config-valid", `validate_config with configuration #${n + 1}`, validateConfigRequest(`validate-${n + 1}`, config.value));
    record.validations.set(config.document, exchange);
  }
  const pending = [...requests.entries()].filter(([index]) => {
    const plan = record.plans[index];
    return plan?.kind === "invoke" && acceptedOk(record.validations.get(plan.config.document));
  });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pending.length) {
      const [index, request] = pending[next++]!;
      const plan = record.plans[index]!;
      const label = `case "${plan.case.name}": ${plan.case.event} tool=${plan.case.nativeName}`;
      record.invocations.set(index, await sender.valid("invoke", label, request, { budgetMs: options.budgetMs }));
    }
  };
  // Every worker ends (a deadline ends them all) before the first error is passed on.
  const settled = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(options.jobs, pending.length)) }, worker));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}
