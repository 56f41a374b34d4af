// request.mjs: the envelope checks the host applies before a request is valid.
//
// These mirror the upstream request schema (request-v1alpha1.schema.json) plus
// the extra rules the host library and the newer contract add. Written by
// hand so a provider author can see every rule in one place:
//
//   * every object in the envelope (top level, event, agent, tool,
//     result_projection) has exactly its listed fields, no unknown ones;
//     `config`, `native`, `tool.input` and `tool.result` are free JSON;
//   * string lengths count Unicode code points, as JSON Schema does;
//   * "integer" means a number with no fractional part, so budget_ms 5.0 is
//     accepted exactly like 5 (that is what the upstream schema validator does);
//   * a tool.before event carries `result: null` and no result_projection;
//   * admission: tool.before may admit only observe/block, tool.after only
//     observe/replace_result. The rest of the vocabulary (ask,
//     replace_input) is valid JSON Schema but is not executable in v1alpha1.
//
// The digest check lives in digest.mjs; provider.mjs runs it after this.

import { JsonNumber } from "./strict-json.mjs";

export const API_VERSION = "aw-provider/v1alpha1";

const COMMON_FIELDS = ["api_version", "method", "request_id"];
const FIELDS_BY_METHOD = {
  __proto__: null,
  describe: COMMON_FIELDS,
  validate_config: [...COMMON_FIELDS, "config"],
  invoke: [...COMMON_FIELDS, "operation", "config_revision", "budget_ms", "allowed_effects",
    "input_digest", "config", "event"],
};
const EFFECTS = ["observe", "block", "ask", "replace_input", "replace_result"];
const ADMITTED_EFFECTS = {
  __proto__: null,
  "tool.before": ["observe", "block"],
  "tool.after": ["observe", "replace_result"],
};
const ADAPTERS = ["qoder", "openclaw", "hermes", "qwenpaw"];
const MAX_BUDGET_MS = 9007199254740991; // 2^53 - 1

/** Thrown for a request the host would never have sent. */
export class RequestError extends Error {}

function reject(why) {
  throw new RequestError(why);
}

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
    !(value instanceof JsonNumber);
}

function isText(value, min, max) {
  if (typeof value !== "string") return false;
  const length = [...value].length; // code points, not UTF-16 units
  return length >= min && length <= max;
}

const isNullableText = (value, min, max) => value === null || isText(value, min, max);

// request_id and operation: 1..128 printable ASCII characters, "!" to "~".
const isToken = (value) => typeof value === "string" && /^[!-~]{1,128}$/.test(value);

/** Requires exactly `required` (plus any of `optional`) as the object's keys. */
function checkFields(object, where, required, optional = []) {
  if (!isObject(object)) reject(`${where} must be an object`);
  for (const key of required) {
    if (!Object.hasOwn(object, key)) reject(`${where} lacks "${key}"`);
  }
  for (const key of Object.keys(object)) {
    if (!required.includes(key) && !optional.includes(key)) {
      reject(`${where} has an unknown field ${JSON.stringify(key)}`);
    }
  }
}

function isBudget(value) {
  if (!(value instanceof JsonNumber)) return false;
  if (value.isInteger) {
    const big = BigInt(value.text); // exact, even beyond 2^53
    return big >= 1n && big <= BigInt(MAX_BUDGET_MS);
  }
  return Number.isInteger(value.value) && value.value >= 1 && value.value <= MAX_BUDGET_MS;
}

/** Throws RequestError unless `request` is a well-formed v1alpha1 request. */
export function validateRequest(request) {
  if (!isObject(request)) reject("the request must be a JSON object");
  const method = request.method;
  const fields = typeof method === "string" ? FIELDS_BY_METHOD[method] : undefined;
  if (fields === undefined) reject("method must be describe, validate_config or invoke");
  checkFields(request, "request", fields);
  if (request.api_version !== API_VERSION) reject(`api_version must be "${API_VERSION}"`);
  if (!isToken(request.request_id)) reject("request_id must be 1..128 characters in ! to ~");
  if (method !== "describe" && !isObject(request.config)) reject("config must be an object");
  if (method === "invoke") validateInvoke(request);
}

function validateInvoke(request) {
  if (!isToken(request.operation)) reject("operation must be 1..128 characters in ! to ~");
  if (typeof request.config_revision !== "string" || !/^[0-9a-f]{64}$/.test(request.config_revision)) {
    reject("config_revision must be 64 lowercase hex characters");
  }
  if (!isBudget(request.budget_ms)) reject("budget_ms must be an integer in 1..9007199254740991");
  const effects = request.allowed_effects;
  if (!Array.isArray(effects) || effects.length < 1 || effects.length > 5) {
    reject("allowed_effects must be an array of 1..5 effects");
  }
  for (const effect of effects) {
    if (!EFFECTS.includes(effect)) reject(`unknown effect ${JSON.stringify(effect)}`);
  }
  if (new Set(effects).size !== effects.length) reject("allowed_effects must be unique");
  if (typeof request.input_digest !== "string" || !/^sha256:[0-9a-f]{64}$/.test(request.input_digest)) {
    reject("input_digest must be sha256: and 64 lowercase hex characters");
  }
  validateEvent(request.event);
  // Effect admission depends on the event: the contract (newer than the
  // upstream library) adds replace_result after a tool ran.
  for (const effect of effects) {
    if (!ADMITTED_EFFECTS[request.event.name].includes(effect)) {
      reject(`${effect} cannot be admitted on ${request.event.name}`);
    }
  }
}

function validateEvent(event) {
  checkFields(event, "event", ["name", "agent", "session_id", "tool", "native"]);
  const before = event.name === "tool.before";
  if (!before && event.name !== "tool.after") reject("event.name must be tool.before or tool.after");

  const agent = event.agent;
  checkFields(agent, "event.agent", ["adapter", "binding_id", "instance_id"]);
  if (!ADAPTERS.includes(agent.adapter)) reject(`event.agent.adapter must be one of ${ADAPTERS}`);
  if (!isText(agent.binding_id, 1, 128)) reject("event.agent.binding_id must be 1..128 characters");
  if (!isNullableText(agent.instance_id, 1, 512)) reject("event.agent.instance_id: 1..512 characters or null");

  if (!isNullableText(event.session_id, 1, 512)) reject("event.session_id: 1..512 characters or null");

  const tool = event.tool;
  checkFields(tool, "event.tool", ["name", "native_name", "call_id", "input", "result"],
    ["result_projection"]);
  if (!isText(tool.name, 1, 1024)) reject("event.tool.name must be 1..1024 characters");
  if (!isText(tool.native_name, 1, 1024)) reject("event.tool.native_name must be 1..1024 characters");
  if (!isNullableText(tool.call_id, 1, 512)) reject("event.tool.call_id: 1..512 characters or null");
  // tool.input and tool.result may be any JSON; before the call there is no result.
  if (before && tool.result !== null) reject("a tool.before event must have result: null");
  if (Object.hasOwn(tool, "result_projection")) {
    if (before) reject("result_projection is only valid on tool.after");
    validateProjection(tool.result_projection);
  }

  if (!isObject(event.native)) reject("event.native must be an object");
}

// The adapter's text view of a tool result, offered to a replace_result step.
function validateProjection(projection) {
  checkFields(projection, "event.tool.result_projection", ["text", "status", "content_origin"],
    ["command"]);
  for (const key of Object.keys(projection)) {
    if (typeof projection[key] !== "string") reject(`result_projection.${key} must be a string`);
  }
}
