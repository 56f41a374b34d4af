import fc from "fast-check";
import { KitError } from "../../core/errors.js";
import type { JsonValue } from "../../core/json/index.js";
import { API_VERSION, PROFILE_EFFECTS, type JsonObject, type ToolEvent } from "../../core/provider/types.js";
import type { ProviderCase, ProviderFuzzContext } from "../types.js";
import { MAX_MESSAGE_BYTES } from "../../core/provider/types.js";
import { boundedString, labelled, printableAlphabetArb, type Labelled } from "./boundary.js";
import { validCase } from "./case.js";
import { nativeArb } from "./jsf.js";
import { assembleToolRequest, type ToolParts } from "./assemble.js";
import { fillArb } from "./sized.js";
import { toolValueArb } from "./values.js";

/** An operation/event pair the profile can invoke, with the effects it may admit there. */
export interface InvocableOp {
  operation: string;
  event: ToolEvent;
  /** op.effects ∩ PROFILE_EFFECTS[event], in the operation's order; never empty. */
  effects: string[];
}

export const ADAPTERS = ["qoder", "openclaw", "hermes", "qwenpaw"] as const;
const TOOL_EVENTS: readonly ToolEvent[] = ["tool.before", "tool.after"];

/** Every (operation, tool event) pair the operation declares and the profile admits an effect for. */
export function invocableOps(ctx: ProviderFuzzContext, events: readonly ToolEvent[] = TOOL_EVENTS): InvocableOp[] {
  return ctx.operations.flatMap((op) =>
    events
      .filter((event) => op.events.includes(event))
      .map((event) => ({ operation: op.name, event, effects: op.effects.filter((e, i) => PROFILE_EFFECTS[event].includes(e) && op.effects.indexOf(e) === i) }))
      .filter((pair) => pair.effects.length > 0),
  );
}

function checkContext(ctx: ProviderFuzzContext, pairs: readonly InvocableOp[]): void {
  const problems: string[] = [];
  if (pairs.length === 0) problems.push("no operation declares tool.before or tool.after with an effect the profile admits");
  for (const pair of pairs) if (!/^[!-~]{1,128}$/.test(pair.operation)) problems.push(`operation name ${JSON.stringify(pair.operation)} is not 1..128 printable characters`);
  if (!/^[0-9a-f]{64}$/.test(ctx.configRevision)) problems.push("configRevision is not 64 lowercase hex digits");
  if (!Number.isSafeInteger(ctx.budgetMs) || ctx.budgetMs < 1) problems.push("budgetMs is not an integer in 1..2^53-1");
  if (problems.length > 0) throw new KitError("usage", `cannot fuzz invoke requests: ${problems.join("; ")}`);
}

/** Strings found in the provider's config (e.g. blocked tool names), usable as tool names. */
function configNames(config: JsonObject): string[] {
  const names = new Set<string>();
  const visit = (value: JsonValue): void => {
    if (typeof value === "string" && [...value].length >= 1 && [...value].length <= 1024) names.add(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(config);
  return [...names].slice(0, 16);
}

const nullableIdArb = (what: string, plain: string): fc.Arbitrary<Labelled<string | null>> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(labelled<string | null>(plain)) },
    { weight: 1, arbitrary: fc.constant(labelled<string | null>(null, `${what} null`)) },
    { weight: 2, arbitrary: boundedString(what, 1, 512, [1, 512]) },
  );

const requestIdArb: fc.Arbitrary<Labelled<string>> = fc.oneof(
  // The number does not shrink: no id is simpler than another, and each step would cost a call.
  { weight: 3, arbitrary: fc.noShrink(fc.nat()).map((n) => labelled(`fuzz-${n}`)) },
  { weight: 1, arbitrary: boundedString("request_id", 1, 128, [1, 128], printableAlphabetArb) },
);

function toolNameArb(what: string, fromConfig: readonly string[], focus: boolean): fc.Arbitrary<Labelled<string>> {
  const lengths = boundedString(what, 1, 1024, [1, 200, 201, 1023, 1024]);
  const named = (name: string): Labelled<string> => labelled(name, fromConfig.includes(name) ? `${what} ${JSON.stringify(name)} from the config` : undefined);
  const plain = fc.constantFrom("Bash", "read_file", ...fromConfig).map(named);
  // Differential fuzzing: half the names come from the config, where two policies' decisions hang.
  const configured = focus && fromConfig.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...fromConfig).map(named) }] : [];
  return fc.oneof({ weight: 3, arbitrary: lengths }, { weight: 1, arbitrary: plain }, ...configured);
}

/** Projection texts of 0 to 16384 code points (at most 96 KiB each on the wire). */
const projectionTextArb = (what: string): fc.Arbitrary<Labelled<string>> => boundedString(what, 0, 16_384, [0, 1, 9, 99, 999, 16_384]);

const projectionArb = fc.record({
  mode: fc.constantFrom("present", "absent", "with command"),
  text: projectionTextArb("result_projection.text"),
  status: fc.constantFrom("success", "error"),
  origin: fc.constantFrom("tool", "mcp", "shell"),
  command: projectionTextArb("result_projection.command"),
});

export interface ValidCaseOptions {
  /** Only these tool events (default both). */
  events?: readonly ToolEvent[];
  /** Only requests that carry event.tool.result_projection (replace_result admitted). */
  projection?: boolean;
  /** Largest request in bytes (default the 1 MiB message limit); size-planned values get what the rest leaves. */
  maxBytes?: number;
}

/**
 * Well-formed invoke requests the profile admits: tool events the operation declares, a
 * nonempty admissible effect subset, the context's config and revision, boundary lengths,
 * Unicode, numbers at the limits and legal deep nesting. Each case is checked against the
 * kit's request schema.
 */
export function validCaseArb(ctx: ProviderFuzzContext, options: ValidCaseOptions = {}): fc.Arbitrary<ProviderCase> {
  const events = options.events ?? TOOL_EVENTS;
  const projected = options.projection === true;
  const pairs = invocableOps(ctx, events).filter((pair) => !projected || pair.effects.includes("replace_result"));
  checkContext(ctx, invocableOps(ctx));
  if (pairs.length === 0) throw new KitError("usage", `cannot fuzz invoke requests: no operation admits ${projected ? "replace_result on " : ""}${events.join(" or ")}`);
  const fromConfig = configNames(ctx.config);
  const maxBytes = options.maxBytes ?? MAX_MESSAGE_BYTES;
  return fc
    // Shrinking goes field by field in this order and, after each accepted step, tries again
    // what an earlier field could not shed: what rarely matters comes first, sizes last.
    .record({
      pair: fc.nat({ max: pairs.length - 1 }),
      effectMask: fc.nat({ max: 31 }),
      adapter: fc.constantFrom(...ADAPTERS),
      native: nativeArb,
      projection: projectionArb,
      requestId: requestIdArb,
      bindingId: fc.oneof(fc.constant(labelled("awp-fuzz")), boundedString("binding_id", 1, 128, [1, 128])),
      instanceId: nullableIdArb("instance_id", "instance-1"),
      sessionId: nullableIdArb("session_id", "session-1"),
      callId: nullableIdArb("call_id", "call-1"),
      fill: fillArb,
      nativeName: toolNameArb("native_name", fromConfig, ctx.configFocus === true),
      name: toolNameArb("tool name", fromConfig, ctx.configFocus === true),
      result: toolValueArb("tool.result"),
      input: toolValueArb("tool.input"),
    })
    .map((spec) => {
      const pair = pairs[spec.pair] as InvocableOp;
      const chosen = pair.effects.filter((e, i) => (spec.effectMask & (1 << i)) !== 0 || (projected && e === "replace_result"));
      const effects = chosen.length > 0 ? chosen : pair.effects.slice(0, 1);
      const after = pair.event === "tool.after";
      const tool: JsonObject = {
        name: spec.name.value,
        native_name: spec.nativeName.value,
        call_id: spec.callId.value,
        input: null,
        result: null,
      };
      const notes = [spec.requestId, spec.bindingId, spec.instanceId, spec.sessionId, spec.callId, spec.name, spec.nativeName].map((l) => l.label);
      const later: (string | undefined)[] = [];
      if (effects.includes("replace_result") && (projected || spec.projection.mode !== "absent")) {
        const { text, status, origin, command } = spec.projection;
        tool.result_projection = { text: text.value, status, content_origin: origin, ...(spec.projection.mode === "with command" ? { command: command.value } : {}) };
        later.push(`result_projection ${spec.projection.mode === "with command" ? "with" : "without"} command`, text.label, spec.projection.mode === "with command" ? command.label : undefined);
      }
      later.push(`adapter ${spec.adapter}`);
      const envelope = ({ padding, ...values }: ToolParts): JsonObject => ({
        api_version: API_VERSION,
        method: "invoke",
        request_id: spec.requestId.value,
        operation: pair.operation,
        config_revision: ctx.configRevision,
        budget_ms: ctx.budgetMs,
        allowed_effects: effects,
        config: ctx.config,
        event: {
          name: pair.event,
          agent: { adapter: spec.adapter, binding_id: spec.bindingId.value, instance_id: spec.instanceId.value },
          session_id: spec.sessionId.value,
          tool: { ...tool, ...values },
          native: padding === undefined ? spec.native : { ...spec.native, awp_fuzz_padding: padding },
        },
      });
      const request = assembleToolRequest(envelope, spec.input, after ? spec.result : undefined, maxBytes, spec.fill);
      notes.push(...request.labels, ...later);
      const special = notes.filter((n): n is string => n !== undefined);
      return validCase(`${pair.operation} ${pair.event} [${effects.join(",")}]: ${special.join(", ")}`, request.value, ctx.budgetMs, request.bytes, request.shell);
    });
}
