import { KitError } from "../../core/errors.js";
import { wireJson } from "../../core/json/index.js";
import { configRevision } from "../../core/provider/digest.js";
import { hostileRequests, type HostileRequest } from "../../core/provider/hostile.js";
import { invocableOperations, planInvocations, probeTools } from "../../core/provider/plan.js";
import { describeRequest, invokeRequest, validateConfigRequest } from "../../core/provider/requests.js";
import { readResponse, responseObject } from "../../core/provider/response.js";
import { secretsOf, wrongTypedVariants } from "../../core/provider/config.js";
import { type JsonObject, type ProviderExchange, type ProviderTranscript, type Purpose } from "../../core/provider/types.js";
import { assertKitRequest } from "../../core/provider/validate.js";
import { callProvider } from "./call.js";

export interface ProviderSuiteOptions {
  argv: string[];
  /** The configuration declared valid, with its exact document (for config_revision). */
  config?: { value: JsonObject; document: string };
  invalidConfigs?: JsonObject[];
  /** budget_ms sent with every invocation (default 5000). */
  budgetMs?: number;
  /** Deadline of every call; default budget + grace. */
  timeoutMs?: number;
  /** Extra time past the budget before the kit kills a call (default 1000). */
  graceMs?: number;
  /** SIGTERM → SIGKILL delay when the kit stops a call (default 1000). */
  killGraceMs?: number;
  env?: Record<string, string>;
  cwd?: string;
  /** Which optional groups of requests to send (all by default); describe and the valid configuration always go. */
  send?: Partial<Record<RequestGroup, boolean>>;
  onExchange?: (exchange: ProviderExchange) => void;
}

/** invocations: at least the controls of the hostile probes; matrix: every planned invocation. */
export type RequestGroup = "invalidConfigs" | "unknownKey" | "wrongTypes" | "invocations" | "matrix" | "hostile";

const encoder = new TextEncoder();

interface Sent {
  purpose: Purpose;
  scenario: string;
  method: string;
  requestId: string;
  bytes: Uint8Array;
  value?: JsonObject;
  budgetMs?: number;
  controlSeq?: number;
}

/** Plays the Host: one process per request, in the order describe, validate_config, invoke, hostile. */
export async function recordProviderSession(options: ProviderSuiteOptions): Promise<ProviderTranscript> {
  const budgetMs = options.budgetMs ?? 5000;
  const sends = (group: RequestGroup): boolean => options.send?.[group] !== false;
  const timeoutMs = options.timeoutMs ?? budgetMs + (options.graceMs ?? 1000);
  const config = options.config?.value ?? {};
  const transcript: ProviderTranscript = {
    argv: options.argv,
    context: { config, configGiven: options.config !== undefined, invalidConfigsGiven: options.invalidConfigs?.length ?? 0, secrets: secretsOf(config), notes: [] },
    exchanges: [],
  };

  const call = async (sent: Sent): Promise<ProviderExchange> => {
    const { stdout, stderr, outcome } = await callProvider(options.argv, sent.bytes, {
      timeoutMs,
      ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    if (outcome.spawnError !== undefined && transcript.exchanges.length === 0) {
      throw new KitError("candidate_not_found", `cannot start ${options.argv[0]}: ${outcome.spawnError.code} ${outcome.spawnError.message}`);
    }
    const exchange: ProviderExchange = {
      seq: transcript.exchanges.length + 1,
      scenario: sent.scenario,
      purpose: sent.purpose,
      method: sent.method,
      requestId: sent.requestId,
      request: sent.bytes,
      timeoutMs,
      outcome,
      stdout,
      stderr,
      ...(sent.value ? { requestValue: sent.value } : {}),
      ...(sent.budgetMs !== undefined ? { budgetMs: sent.budgetMs } : {}),
      ...(sent.controlSeq !== undefined ? { controlSeq: sent.controlSeq } : {}),
    };
    transcript.exchanges.push(exchange);
    options.onExchange?.(exchange);
    return exchange;
  };
  const valid = (purpose: Purpose, scenario: string, value: JsonObject, budget?: number): Promise<ProviderExchange> => {
    assertKitRequest(value);
    return call({ purpose, scenario, method: String(value.method), requestId: String(value.request_id), bytes: encoder.encode(wireJson(value)), value, ...(budget !== undefined ? { budgetMs: budget } : {}) });
  };
  const ok = (e: ProviderExchange | undefined): boolean => e !== undefined && responseObject(e)?.status === "ok";

  const describe = await valid("describe", "describe", describeRequest("describe-1"));
  const validate = await valid("config-valid", "validate_config with the valid configuration", validateConfigRequest("validate-1", config));
  for (const [index, invalid] of (sends("invalidConfigs") ? (options.invalidConfigs ?? []) : []).entries()) {
    await valid("config-invalid", `validate_config with invalid configuration #${index + 1}`, validateConfigRequest(`validate-invalid-${index + 1}`, invalid));
  }
  const accepted = ok(validate);
  if (accepted) {
    if (sends("unknownKey")) {
      await valid("config-unknown-key", "validate_config with an unknown setting", validateConfigRequest("validate-unknown-key", { ...config, x_awp_conformance_unknown: true }));
    }
    for (const [index, variant] of (sends("wrongTypes") ? wrongTypedVariants(config) : []).entries()) {
      await valid("config-wrong-type", `validate_config with ${variant.key} as ${variant.type}`, validateConfigRequest(`validate-wrong-type-${index + 1}`, variant.config));
    }
  } else {
    transcript.context.notes.push("The valid configuration was not accepted: no invocations and no configuration probes were sent.");
  }

  const invocations: ProviderExchange[] = [];
  const operations = ok(describe) ? invocableOperations(readResponse(describe.stdout).object) : [];
  if (accepted && operations.length > 0 && sends("invocations")) {
    const revision = configRevision(options.config?.document ?? "{}");
    const { invocations: plan, dropped } = planInvocations(operations, probeTools(config));
    if (dropped > 0) transcript.context.notes.push(`${dropped} planned invocations were dropped (limit ${plan.length}).`);
    const isBefore = (e: ProviderExchange): boolean => (e.requestValue?.event as JsonObject | undefined)?.name === "tool.before";
    for (const [index, planned] of plan.entries()) {
      // Without the matrix, invocations only serve as controls: stop at the first ok tool.before.
      if (!sends("matrix") && invocations.some((e) => ok(e) && isBefore(e))) break;
      const n = index + 1;
      const request = invokeRequest({ ...planned, requestId: `invoke-${n}`, callId: `call-${n}`, configRevision: revision, budgetMs, config });
      const label = `invoke ${planned.operation} ${planned.event} [${planned.allowedEffects.join(",")}] tool=${planned.tool.nativeName}${planned.withProjection ? " +projection" : ""}`;
      invocations.push(await valid("invoke", label, request, budgetMs));
    }
  }

  if (sends("hostile")) {
    const okInvokes = invocations.filter(ok);
    const isBefore = (e: ProviderExchange): boolean => (e.requestValue?.event as JsonObject | undefined)?.name === "tool.before";
    const controls: Record<HostileRequest["control"], ProviderExchange | undefined> = {
      describe,
      validate: accepted ? validate : undefined,
      invoke: okInvokes.find(isBefore) ?? okInvokes[0],
      "invoke-before": okInvokes.find(isBefore),
    };
    const bases = {
      ...(controls.validate?.requestValue ? { validate: controls.validate.requestValue } : {}),
      ...(controls.invoke?.requestValue ? { invoke: controls.invoke.requestValue } : {}),
      ...(controls["invoke-before"]?.requestValue ? { invokeBefore: controls["invoke-before"].requestValue } : {}),
    };
    for (const probe of hostileRequests(bases)) {
      const control = controls[probe.control];
      await call({
        purpose: `hostile:${probe.kind}`,
        scenario: probe.label,
        method: probe.method,
        requestId: probe.requestId,
        bytes: probe.bytes,
        ...(probe.value ? { value: probe.value } : {}),
        ...(probe.method === "invoke" ? { budgetMs } : {}),
        ...(control ? { controlSeq: control.seq } : {}),
      });
    }
  }
  return transcript;
}
