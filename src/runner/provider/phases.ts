import { DIGEST_DIALECTS } from "../../core/json/index.js";
import { hostileRequests, type HostileBases } from "../../core/provider/hostile.js";
import { dialectProbeRequest } from "../../core/provider/requests.js";
import type { HostileKind, JsonObject, ProviderExchange, ProviderTranscript } from "../../core/provider/types.js";
import { acceptedOk, type ProviderSender } from "./sender.js";

/**
 * Sends `control` (an accepted invocation) again with exponent floats in tool.input, bound in
 * every digest dialect, the current one first. When some are accepted, the refused ones are
 * marked as dialect refusals and, if the current dialect was refused, the kit adopts the first
 * accepted one for everything that follows.
 */
export async function probeDialects(sender: ProviderSender, transcript: ProviderTranscript, control: ProviderExchange, budgetMs: number): Promise<void> {
  if (control.requestValue === undefined) return;
  const order = [sender.dialect, ...DIGEST_DIALECTS.map((d) => d.id).filter((id) => id !== sender.dialect)];
  const sent: ProviderExchange[] = [];
  for (const dialect of order) {
    const request = dialectProbeRequest(control.requestValue, `dialect-${dialect}`);
    sent.push(await sender.send("dialect", `the same invocation with exponent floats in tool.input, bound in the ${dialect} dialect`, request, { budgetMs, controlSeq: control.seq }, dialect));
  }
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
 * control is sent first.
 */
export async function sendHostile(sender: ProviderSender, bases: HostileBases, budgetMs: number, kinds?: readonly HostileKind[]): Promise<void> {
  for (const probe of hostileRequests(bases, "hostile", sender.dialect).filter((p) => kinds === undefined || kinds.includes(p.kind))) {
    let control = sender.sentBefore(probe.control.value);
    if (control === undefined) {
      const value: JsonObject = { ...probe.control.value, request_id: `${probe.requestId}-control` };
      // A control with its own budget_ms (budget 1 against budget 0) is not held to it: only the kit's budget is judged.
      const budget = value.method === "invoke" && value.budget_ms === budgetMs ? { budgetMs } : {};
      control = await sender.send("control", `control of "${probe.label}": ${probe.control.label}`, value, budget);
    }
    await sender.call({
      purpose: `hostile:${probe.kind}`,
      scenario: probe.label,
      method: probe.method,
      requestId: probe.requestId,
      bytes: probe.bytes,
      ...(probe.value ? { value: probe.value } : {}),
      ...(probe.method === "invoke" ? { budgetMs } : {}),
      controlSeq: control.seq,
      controlLabel: probe.control.label,
    });
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
