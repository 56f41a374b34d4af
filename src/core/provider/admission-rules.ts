// Per-step rules of the v1alpha1 admission profile (provider-protocol.md, "Offline admission"
// and "PostTool text replacement"). Each rule returns the exact reasons a step is rejected;
// rules that the Provider's evidence cannot settle return what the Adapter must also support.
import { EFFECT_NAMES, EVENT_NAMES, PROFILE_EFFECTS, type ToolEvent } from "./types.js";
import type { AdapterEvidence, AdmissionStep, DeclaredOperation } from "./admission.js";

export const TOOL_EVENTS: readonly ToolEvent[] = ["tool.before", "tool.after"];
/** Events that act as guards (final checks); the profile does not implement their ordering. */
export const GUARD_EVENTS: readonly string[] = ["security.violation"];
/** Standard selectors of match.tools; anything else must be "*" or native:<adapter>:<name>. */
export const STANDARD_SELECTORS: readonly string[] = ["bash", "file_read", "file_write"];

const isToolEvent = (event: string): event is ToolEvent => (TOOL_EVENTS as readonly string[]).includes(event);
const list = (items: readonly string[]): string => (items.length === 0 ? "none" : items.join(", "));

/** Table rows "an enabled event outside the two tool events" and "a guard such as security.violation". */
export function eventReasons(step: AdmissionStep): string[] {
  const optional = step.required === false ? " (rejected even with required: false: an enabled unsupported step is never dropped silently)" : "";
  if (GUARD_EVENTS.includes(step.event)) {
    return [`${step.event} is a guard: rejected, this profile does not implement final-check ordering${optional}`];
  }
  if (!(EVENT_NAMES as readonly string[]).includes(step.event)) {
    return [`unknown event ${step.event}: not one of the 16 event names, and the profile executes only tool.before and tool.after`];
  }
  if (!isToolEvent(step.event)) return [`enabled event ${step.event} is outside the two tool events (tool.before, tool.after) the profile executes${optional}`];
  return [];
}

/** Table rows "tool.before: observe, block", "tool.after: observe", "tool.after: replace_result" and "ask, input replacement or a block after execution". */
export function effectReasons(step: AdmissionStep): string[] {
  const reasons: string[] = [];
  if (step.effects.length === 0) reasons.push("the step requests no effect");
  const seen = new Set<string>();
  for (const effect of step.effects) {
    if (seen.has(effect)) reasons.push(`effect ${effect} is requested twice`);
    seen.add(effect);
    if (!(EFFECT_NAMES as readonly string[]).includes(effect)) reasons.push(`unknown effect ${effect}: not one of ${EFFECT_NAMES.join(", ")}`);
    else if (effect === "ask") reasons.push("ask is rejected: the profile has no interactive approval");
    else if (effect === "replace_input") reasons.push("input replacement (replace_input) is rejected: argument rewrites are not supported");
    else if (effect === "block" && step.event === "tool.after") reasons.push("block after execution (tool.after: block) is rejected: the call has already run");
    else if (isToolEvent(step.event) && !PROFILE_EFFECTS[step.event].includes(effect)) reasons.push(`${effect} is not admitted on ${step.event} (only ${PROFILE_EFFECTS[step.event].join(", ")})`);
  }
  return reasons;
}

/** Table row "a guarantee beyond native_hook". */
export function guaranteeReasons(step: AdmissionStep): string[] {
  return step.guarantee === undefined || step.guarantee === "native_hook" ? [] : [`guarantee ${step.guarantee} is beyond native_hook: rejected`];
}

/** The on_error rules: before report|block (block needs Adapter blocking), after report|withhold_result (declared by the Adapter). */
export function onErrorRules(step: AdmissionStep, adapter: AdapterEvidence): { reasons: string[]; adapterNeeds: string[] } {
  const action = step.onError;
  if (action === undefined || action === "report" || !isToolEvent(step.event)) return { reasons: [], adapterNeeds: [] };
  if (step.event === "tool.before") {
    if (action !== "block") return { reasons: [`on_error ${action} is rejected on tool.before (report, or block when the Adapter supports blocking)`], adapterNeeds: [] };
    if (adapter.blocking === false) return { reasons: ["on_error block is rejected: the Adapter does not support blocking"], adapterNeeds: [] };
    return { reasons: [], adapterNeeds: adapter.blocking === true ? [] : ["blocking, for on_error: block"] };
  }
  if (action !== "withhold_result") return { reasons: [`on_error ${action} is rejected on tool.after (report, or withhold_result when the Adapter declares it)`], adapterNeeds: [] };
  if (adapter.withholdResult === false) return { reasons: ["on_error withhold_result is rejected: the Adapter does not declare that tool.after failure action"], adapterNeeds: [] };
  // Adapter evidence the kit does not have: only the ordinary QwenPaw resident entrypoint declares it today.
  return { reasons: [], adapterNeeds: adapter.withholdResult === true ? [] : ["the tool.after failure action withhold_result (declared today only by the ordinary QwenPaw resident entrypoint)"] };
}

/** Table row "event and step match.tools": "*", bash, file_read, file_write or native:<adapter>:<name>, no patterns. */
export function selectorReasons(step: AdmissionStep): string[] {
  return (step.tools ?? []).flatMap((selector) => {
    if (selector === "*" || STANDARD_SELECTORS.includes(selector)) return [];
    const native = /^native:([^:]+):(.+)$/.exec(selector);
    if (native !== null && !/[*?[\]]/.test(selector)) return [];
    return [`tool selector ${selector} is not "*", ${STANDARD_SELECTORS.join(", ")} or an exact native:<adapter>:<name> (no glob or regex patterns)`];
  });
}

/** The operation a step runs: the one it names, or the first that takes the event and declares every effect. */
export function chooseOperation(step: AdmissionStep, operations: readonly DeclaredOperation[]): { operation?: DeclaredOperation; reasons: string[] } {
  if (step.operation !== undefined) {
    const named = operations.find((op) => op.name === step.operation);
    if (named === undefined) return { reasons: [`the Provider declares no operation ${step.operation} (it declares ${list(operations.map((op) => op.name))})`] };
    if (!named.events.includes(step.event)) return { operation: named, reasons: [`operation ${named.name} does not take ${step.event} (it declares ${list(named.events)})`] };
    return { operation: named, reasons: undeclared(step, named) };
  }
  const taking = operations.filter((op) => op.events.includes(step.event));
  if (taking.length === 0) return { reasons: [`no operation takes ${step.event} (declared: ${list(operations.map((op) => `${op.name} [${op.events.join(", ")}]`))})`] };
  const full = taking.find((op) => undeclared(step, op).length === 0);
  if (full !== undefined) return { operation: full, reasons: [] };
  const first = taking[0] as DeclaredOperation;
  return { operation: first, reasons: taking.length === 1 ? undeclared(step, first) : [`no operation that takes ${step.event} declares every effect ${list(step.effects)} (${taking.map((op) => `${op.name}: ${list(op.effects)}`).join("; ")})`] };
}

function undeclared(step: AdmissionStep, op: DeclaredOperation): string[] {
  return step.effects
    .filter((effect) => !op.effects.includes(effect))
    .map((effect) => `effect ${effect} is not declared by operation ${op.name} (it declares ${list(op.effects)})`);
}

/**
 * Adapter evidence: the pairs the Adapter supports, when the caller knows them. The kit never
 * has that evidence from a Provider (it is the Host's, from a trusted source), so by default an
 * admitted step carries what the Adapter must also support.
 */
export function effectAdapterRules(step: AdmissionStep, adapter: AdapterEvidence): { reasons: string[]; adapterNeeds: string[] } {
  const supported = adapter.effects?.[step.event];
  if (supported !== undefined) {
    return { reasons: step.effects.filter((e) => !supported.includes(e)).map((e) => `the Adapter does not support ${e} on ${step.event}`), adapterNeeds: [] };
  }
  const needs = [`${step.event} with ${step.effects.join(", ")}`];
  if (step.effects.includes("replace_result")) needs.push("trusted text replacement, supplying event.tool.result_projection");
  return { reasons: [], adapterNeeds: needs };
}
