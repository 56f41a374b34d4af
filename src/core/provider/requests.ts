import type { DigestDialectId, JsonValue } from "../json/index.js";
import { computeInputDigest } from "./digest.js";
import { API_VERSION, type JsonObject, type ToolEvent } from "./types.js";

export function describeRequest(requestId: string): JsonObject {
  return { api_version: API_VERSION, method: "describe", request_id: requestId };
}

export function validateConfigRequest(requestId: string, config: JsonObject): JsonObject {
  return { api_version: API_VERSION, method: "validate_config", request_id: requestId, config };
}

/** A tool call the kit presents to the Provider. */
export interface ToolProbe {
  name: string;
  nativeName: string;
  input: JsonValue;
  /** The tool's result on tool.after (tool.before always sends null). */
  result: JsonValue;
  /** Text of the result projection, sent only when replace_result is admitted. */
  projectionText: string;
}

export interface InvokeSpec {
  requestId: string;
  operation: string;
  configRevision: string;
  budgetMs: number;
  allowedEffects: readonly string[];
  config: JsonObject;
  event: ToolEvent;
  tool: ToolProbe;
  callId: string | null;
  withProjection: boolean;
  /** event.agent.adapter (default qwenpaw). */
  adapter?: string;
  /** event.session_id (default awp-conformance-session). */
  sessionId?: string | null;
  /** event.native (default: source, event and tool). */
  native?: JsonObject;
}

/** The normalized event, shaped as an Adapter would send it. */
export function toolEvent(spec: InvokeSpec): JsonObject {
  const tool: JsonObject = {
    name: spec.tool.name,
    native_name: spec.tool.nativeName,
    call_id: spec.callId,
    input: spec.tool.input,
    result: spec.event === "tool.before" ? null : spec.tool.result,
  };
  if (spec.withProjection) {
    tool.result_projection = { text: spec.tool.projectionText, status: "success", content_origin: "tool" };
  }
  return {
    name: spec.event,
    agent: { adapter: spec.adapter ?? "qwenpaw", binding_id: "awp-conformance", instance_id: null },
    session_id: spec.sessionId === undefined ? "awp-conformance-session" : spec.sessionId,
    tool,
    native: spec.native ?? { source: "awp-conformance", event: spec.event, tool: spec.tool.nativeName },
  };
}

/** An invoke request bound with its input_digest, as Protocol::bind_invocation would produce. */
export function invokeRequest(spec: InvokeSpec, dialect?: DigestDialectId): JsonObject {
  const unbound: JsonObject = {
    api_version: API_VERSION,
    method: "invoke",
    request_id: spec.requestId,
    operation: spec.operation,
    config_revision: spec.configRevision,
    budget_ms: spec.budgetMs,
    allowed_effects: [...spec.allowedEffects],
    config: spec.config,
    event: toolEvent(spec),
  };
  return bind(unbound, dialect);
}

/** Adds (or replaces) input_digest, computed over the request without it, in the given dialect (default: the kit's). */
export function bind(request: JsonObject, dialect?: DigestDialectId): JsonObject {
  const { input_digest: _previous, ...unbound } = request;
  return { ...unbound, input_digest: computeInputDigest(unbound, dialect) };
}

/**
 * Floats the digest dialects write differently (1.7976931348623157e308 vs e+308, 1e21 vs
 * e+21; 1e-7 is the same in both) and that serde_json's reader reads exactly in every version.
 */
export const DIALECT_FLOATS: readonly number[] = [1.7976931348623157e308, 1e21, 1e-7];

/** The invocation `base` (unbound) with DIALECT_FLOATS added to tool.input as "exponent_floats". */
export function dialectProbeRequest(base: JsonObject, requestId: string): JsonObject {
  const { input_digest: _digest, ...unbound } = base;
  const event = unbound.event as JsonObject;
  const tool = event.tool as JsonObject;
  const input = tool.input !== null && typeof tool.input === "object" && !Array.isArray(tool.input) ? tool.input : {};
  return { ...unbound, request_id: requestId, event: { ...event, tool: { ...tool, input: { ...input, exponent_floats: [...DIALECT_FLOATS] } } } };
}

/** Nonempty subsets of a small set, in a stable order (singletons first). */
export function nonEmptySubsets<T>(items: readonly T[]): T[][] {
  const subsets: T[][] = [];
  for (let mask = 1; mask < 1 << items.length; mask++) {
    subsets.push(items.filter((_, index) => (mask & (1 << index)) !== 0));
  }
  return subsets.sort((a, b) => a.length - b.length);
}
