import { DIGEST_DIALECTS } from "../../core/json/index.js";
import { hostileProbes, type HostileBases } from "../../core/provider/hostile.js";
import { dialectProbeRequest } from "../../core/provider/requests.js";
import type { HostileKind, JsonObject, ProviderExchange, ProviderTranscript } from "../../core/provider/types.js";
import { acceptedOk, shapeOf, type BatchItem, type ProviderSender, type Sent } from "./sender.js";

/**
 * Sends `control` (an accepted invocation) again with exponent floats in tool.input, bound in
 * every digest dialect, the current one first. When some are accepted, the refused ones are
 * marked as dialect refusals and, if the current dialect was refused, the kit adopts the first
 * accepted one for everything that follows.
 */
export async function probeDialects(sender: ProviderSender, transcript: ProviderTranscript, control: ProviderExchange, budgetMs: number, jobs = 1): Promise<void> {
  const value = control.requestValue;
  if (value === undefined) return;
  const order = [sender.dialect, ...DIGEST_DIALECTS.map((d) => d.id).filter((id) => id !== sender.dialect)];
  // One request per dialect, none depending on another's answer: they go `jobs` at once.
  const sent = await sender.batch(
    order.map((dialect) => sender.sentOf("dialect", `the same invocation with exponent floats in tool.input, bound in the ${dialect} dialect`, dialectProbeRequest(value, `dialect-${dialect}`), { budgetMs, controlSeq: control.seq }, dialect)),
    jobs,
  );
  const accepted = sent.filter(acceptedOk).flatMap((e) => (e.digestDialect !== undefined ? [e.digestDialect] : []));
  if (accepted.length > 0) {
    for (const e of sent) if (!acceptedOk(e)) e.dialectRefused = true;
    if (!accepted.includes(sender.dialect)) sender.adopt(accepted[0] ?? sender.dialect);
  }
  transcript.context.digestDialect = { bound: sender.dialect, accepted };
}

/**
 * Sends every hostile probe the bases allow, each after its control: an earlier request that
 * was exactly the control (apart from request_id and input_digest) is reused, otherwise the
 * control is sent first (once for the probes that share it). The probes and the controls sent
 * here depend on no answer of theirs, so they go `jobs` at once (ProviderSender.batch), and
 * are recorded as if sent one after another: control, probe, next probe.
 */
export async function sendHostile(sender: ProviderSender, bases: HostileBases, budgetMs: number, kinds?: readonly HostileKind[], jobs = 1): Promise<void> {
  await sender.batch(hostileItems(sender, bases, budgetMs, kinds), jobs);
}

/** The calls of sendHostile, each probe made as the batch takes it. */
function* hostileItems(sender: ProviderSender, bases: HostileBases, budgetMs: number, kinds?: readonly HostileKind[]): Generator<BatchItem> {
  // The controls sent here, by shape: sentBefore knows only those that came back.
  const controls = new Map<string, Sent>();
  for (const probe of hostileProbes(bases, "hostile", sender.dialect)) {
    if (kinds !== undefined && !kinds.includes(probe.kind)) continue;
    const shape = shapeOf(probe.control.value);
    let control = controls.get(shape);
    const earlier = control === undefined ? sender.sentBefore(shape) : undefined;
    if (earlier === undefined && control === undefined) {
      const value: JsonObject = { ...probe.control.value, request_id: `${probe.requestId}-control` };
      // A control with its own budget_ms (budget 1 against budget 0) is not held to it: only the kit's budget is judged.
      const budget = value.method === "invoke" && value.budget_ms === budgetMs ? { budgetMs } : {};
      control = sender.sentOf("control", `control of "${probe.label}": ${probe.control.label}`, value, budget);
      controls.set(shape, control);
      yield control;
    }
    yield {
      purpose: `hostile:${probe.kind}`,
      scenario: probe.label,
      method: probe.method,
      requestId: probe.requestId,
      bytes: probe.bytes,
      ...(probe.value ? { value: probe.value } : {}),
      ...(probe.method === "invoke" ? { budgetMs } : {}),
      ...(earlier !== undefined ? { controlSeq: earlier.seq } : {}),
      controlLabel: probe.control.label,
      ...(control !== undefined ? { control } : {}),
    };
  }
}

/** The requests the hostile probes derive from: the accepted validate_config and invocations. */
export function hostileBases(validate: ProviderExchange | undefined, invocations: readonly ProviderExchange[]): HostileBases {
  const okInvokes = invocations.filter(acceptedOk);
  const isBefore = (e: ProviderExchange): boolean => (e.requestValue?.event as { name?: unknown } | undefined)?.name === "tool.before";
  const invoke = okInvokes.find(isBefore) ?? okInvokes[0];
  const before = okInvokes.find(isBefore);
  return {
    ...(acceptedOk(validate) && validate?.requestValue ? { validate: validate.requestValue } : {}),
    ...(invoke?.requestValue ? { invoke: invoke.requestValue } : {}),
    ...(before?.requestValue ? { invokeBefore: before.requestValue } : {}),
  };
}
