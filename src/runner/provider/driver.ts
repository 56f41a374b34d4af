import { performance } from "node:perf_hooks";
import { configRevision } from "../../core/provider/digest.js";
import { DEFAULT_RUN_TIMEOUT_MS } from "../../core/run-timeout.js";
import { invocableOperations, planInvocations, probeTools } from "../../core/provider/plan.js";
import { describeRequest, invokeRequest, validateConfigRequest } from "../../core/provider/requests.js";
import { readResponse } from "../../core/provider/response.js";
import { secretsOf, wrongTypedVariants } from "../../core/provider/config.js";
import { DEFAULT_DIGEST_DIALECT } from "../../core/json/index.js";
import { DEFAULT_PROVIDER_JOBS } from "./jobs.js";
import type { HostileKind, JsonObject, ProviderExchange, ProviderTranscript } from "../../core/provider/types.js";
import { hostileBases, probeDialects, sendHostile } from "./phases.js";
import { sendFreshDir, sendTightBudget, sendWhitespace } from "./again.js";
import { acceptedOk, ProviderSender, RunInterrupted, RunTimedOut, type Sent, type SenderOptions } from "./sender.js";

export interface ProviderSuiteOptions {
  argv: string[];
  /** The configuration declared valid, with its exact document (for config_revision). */
  config?: { value: JsonObject; document: string };
  invalidConfigs?: JsonObject[];
  /** budget_ms sent with every invocation (default 5000). */
  budgetMs?: number;
  /** Deadline of every call; default budget + grace. */
  timeoutMs?: number;
  /** --budget-slack: how long past the tight-budget probe's budget an answer counts as on time (default: checks/budget.ts). */
  budgetSlackMs?: number;
  /** Extra time past the budget before the kit kills a call (default 1000). */
  graceMs?: number;
  /** SIGTERM → SIGKILL delay when the kit stops a call (default 1000). */
  killGraceMs?: number;
  env?: Record<string, string>;
  cwd?: string;
  /** The kinds of hostile probe to send (default: every kind). */
  hostileKinds?: readonly HostileKind[];
  /** Which optional groups of requests to send (all by default); describe and the valid configuration always go. */
  send?: Partial<Record<RequestGroup, boolean>>;
  onExchange?: (exchange: ProviderExchange) => void;
  /** Bound of the whole run (default 15 min): the kit then stops sending and the run judges what it has. */
  runTimeoutMs?: number;
  /**
   * Calls in flight at once where none depends on another's answer (default 2, DEFAULT_PROVIDER_JOBS): describe and
   * validate_config, the configuration probes, the digest dialect probe, the whitespace pair, the hostile probes and their controls. The
   * transcript is the same at any value.
   */
  jobs?: number;
}

/**
 * invocations: at least the controls of the hostile probes; matrix: every planned invocation; dialects: the digest dialect probe;
 * tightBudget: the first accepted invocation again with budget_ms 1;
 * whitespace: describe and an invocation again with whitespace around them; freshDir: describe and validate_config again in a fresh directory.
 */
export type RequestGroup = "invalidConfigs" | "unknownKey" | "wrongTypes" | "invocations" | "matrix" | "dialects" | "tightBudget" | "hostile" | "whitespace" | "freshDir";

const isBefore = (e: ProviderExchange): boolean => (e.requestValue?.event as JsonObject | undefined)?.name === "tool.before";

/**
 * Plays the Host: one process per request, in the order describe, validate_config, invoke,
 * dialects, whitespace, hostile, fresh directory; requests that depend on no answer of each
 * other's go `jobs` at once, recorded in that order. At --run-timeout it stops sending (a call still running is ended) and
 * returns what it has, marked context.runTimedOut; interrupted (core/interrupt.ts), likewise, marked context.interrupted.
 */
export async function recordProviderSession(options: ProviderSuiteOptions): Promise<ProviderTranscript> {
  const runTimeoutMs = options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  const deadline = performance.now() + runTimeoutMs;
  const transcript = emptyTranscript(options);
  try {
    await sendAll(options, transcript, deadline);
  } catch (error) {
    if (!(error instanceof RunTimedOut)) throw error;
    if (error instanceof RunInterrupted) transcript.context.interrupted = error.signal;
    else transcript.context.runTimedOut = runTimeoutMs;
  }
  return transcript;
}

function emptyTranscript(options: ProviderSuiteOptions): ProviderTranscript {
  const config = options.config?.value ?? {};
  return {
    argv: options.argv,
    context: { config, configGiven: options.config !== undefined, invalidConfigsGiven: options.invalidConfigs?.length ?? 0, secrets: secretsOf(config), notes: [], ...(options.budgetSlackMs !== undefined ? { budgetSlackMs: options.budgetSlackMs } : {}) },
    exchanges: [],
  };
}

async function sendAll(options: ProviderSuiteOptions, transcript: ProviderTranscript, deadline: number): Promise<void> {
  const budgetMs = options.budgetMs ?? 5000;
  const sends = (group: RequestGroup): boolean => options.send?.[group] !== false;
  const timeoutMs = options.timeoutMs ?? budgetMs + (options.graceMs ?? 1000);
  const config = options.config?.value ?? {};
  const senderOptions: SenderOptions = {
    argv: options.argv,
    timeoutMs,
    deadline,
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  };
  const sender = new ProviderSender(senderOptions, transcript);

  const jobs = options.jobs ?? DEFAULT_PROVIDER_JOBS;
  // Requests that depend on no answer of each other's go `jobs` at once (ProviderSender.batch).
  const [describe, validate] = (await sender.batch([
    sender.sentOf("describe", "describe", describeRequest("describe-1")),
    sender.sentOf("config-valid", "validate_config with the valid configuration", validateConfigRequest("validate-1", config)),
  ], jobs)) as [ProviderExchange, ProviderExchange];
  const accepted = acceptedOk(validate);
  const configProbes: Sent[] = (sends("invalidConfigs") ? (options.invalidConfigs ?? []) : []).map((invalid, index) =>
    sender.sentOf("config-invalid", `validate_config with invalid configuration #${index + 1}`, validateConfigRequest(`validate-invalid-${index + 1}`, invalid)),
  );
  if (accepted) {
    if (sends("unknownKey")) {
      configProbes.push(sender.sentOf("config-unknown-key", "validate_config with an unknown setting", validateConfigRequest("validate-unknown-key", { ...config, x_awp_conformance_unknown: true })));
    }
    for (const [index, variant] of (sends("wrongTypes") ? wrongTypedVariants(config) : []).entries()) {
      configProbes.push(sender.sentOf("config-wrong-type", `validate_config with ${variant.key} as ${variant.type}`, validateConfigRequest(`validate-wrong-type-${index + 1}`, variant.config)));
    }
  }
  await sender.batch(configProbes, jobs);

  const invocations: ProviderExchange[] = [];
  const operations = acceptedOk(describe) ? invocableOperations(readResponse(describe.stdout).object) : [];
  let dialectsProbed = !sends("dialects");
  if (accepted && operations.length > 0 && sends("invocations")) {
    const revision = configRevision(options.config?.document ?? "{}");
    const { invocations: plan, dropped } = planInvocations(operations, probeTools(config));
    if (dropped > 0) transcript.context.notes.push(`${dropped} planned invocations were dropped (limit ${plan.length}).`);
    for (const [index, planned] of plan.entries()) {
      // Without the matrix, invocations only serve as controls: stop at the first ok tool.before.
      if (!sends("matrix") && dialectsProbed && invocations.some((e) => acceptedOk(e) && isBefore(e))) break;
      const n = index + 1;
      const request = invokeRequest({ ...planned, requestId: `invoke-${n}`, callId: `call-${n}`, configRevision: revision, budgetMs, config });
      const label = `invoke ${planned.operation} ${planned.event} [${planned.allowedEffects.join(",")}] tool=${planned.tool.nativeName}${planned.withProjection ? " +projection" : ""}`;
      const answer = await sender.valid("invoke", label, request, { budgetMs });
      invocations.push(answer);
      // The first accepted invocation is the control of the dialect probe, which settles the dialect early.
      if (!dialectsProbed && acceptedOk(answer)) {
        dialectsProbed = true;
        await probeDialects(sender, transcript, answer, budgetMs, jobs);
      }
    }
  }
  if (transcript.context.digestDialect === undefined && sender.dialect !== DEFAULT_DIGEST_DIALECT) {
    transcript.context.digestDialect = { bound: sender.dialect, accepted: [sender.dialect] };
  }

  const firstAccepted = invocations.find((e) => acceptedOk(e) && isBefore(e)) ?? invocations.find(acceptedOk);
  if (sends("tightBudget")) await sendTightBudget(sender, firstAccepted);
  if (sends("whitespace")) await sendWhitespace(sender, describe, firstAccepted, budgetMs, jobs);
  if (sends("hostile")) await sendHostile(sender, hostileBases(validate, invocations), budgetMs, options.hostileKinds, jobs);
  if (sends("freshDir")) await sendFreshDir(senderOptions, transcript, describe, validate, config);
}
