import { wireJson, type JsonValue } from "../json/index.js";
import { bind, describeRequest } from "./requests.js";
import { MAX_DEPTH, MAX_MESSAGE_BYTES, type HostileKind, type JsonObject } from "./types.js";

/** A request the upstream library would refuse to send, derived from one that was answered ok. */
export interface HostileRequest {
  kind: HostileKind;
  label: string;
  method: string;
  requestId: string;
  bytes: Uint8Array;
  /** The request value when the bytes are one JSON object the kit built. */
  value?: JsonObject;
  /** Which well-formed request it was derived from. */
  control: "describe" | "validate" | "invoke" | "invoke-before";
}

export interface HostileBases {
  validate?: JsonObject;
  invoke?: JsonObject;
  /** An ok-answered tool.before invocation, for the result-before-tool probe. */
  invokeBefore?: JsonObject;
}

const encoder = new TextEncoder();

function withId(request: JsonObject, id: string): JsonObject {
  return { ...request, request_id: id };
}

function fromValue(kind: HostileKind, label: string, control: HostileRequest["control"], value: JsonObject): HostileRequest {
  return { kind, label, control, method: String(value.method), requestId: String(value.request_id), bytes: encoder.encode(wireJson(value)), value };
}

function fromText(kind: HostileKind, label: string, control: HostileRequest["control"], base: JsonObject, text: string): HostileRequest {
  return { kind, label, control, method: String(base.method), requestId: String(base.request_id), bytes: encoder.encode(text) };
}

/** Inserts a raw member right after the opening brace of a compact object. */
function prepend(value: JsonObject, member: string): string {
  return `{${member},${wireJson(value).slice(1)}`;
}

function nested(depth: number): JsonValue {
  let value: JsonValue = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function withTool(request: JsonObject, change: (tool: JsonObject) => JsonObject, eventChange: (event: JsonObject) => JsonObject = (e) => e): JsonObject {
  const event = request.event as JsonObject;
  return bind({ ...request, event: eventChange({ ...event, tool: change({ ...(event.tool as JsonObject) }) }) });
}

function invokeProbes(base: JsonObject, id: (n: string) => string): HostileRequest[] {
  const at = (n: string): JsonObject => withId(base, id(n));
  const rebound = (n: string): JsonObject => bind(at(n));
  /** Rebinds under a new id, then alters only the digest. */
  const digestProbe = (n: string, alter: (hex: string) => string): JsonObject => {
    const request = rebound(n);
    return { ...request, input_digest: alter(String(request.input_digest).slice("sha256:".length)) };
  };
  const padding = "x".repeat(MAX_MESSAGE_BYTES + 64 * 1024);
  return [
    fromText("duplicate-keys", "request_id repeated with an escaped spelling", "invoke", at("dup-escaped"), prepend(rebound("dup-escaped"), `"request\\u005fid":${JSON.stringify(id("dup-escaped"))}`)),
    fromText("trailing-document", "a second JSON document after the request", "invoke", at("trailing"), `${wireJson(rebound("trailing"))}\n{}`),
    ...malformedProbes(rebound),
    fromValue("out-of-bounds", "a tool name of 1025 characters", "invoke", withTool(at("long-name"), (tool) => ({ ...tool, name: "t".repeat(1025) }))),
    fromValue("out-of-bounds", "budget_ms 0", "invoke", bind({ ...at("zero-budget"), budget_ms: 0 })),
    fromValue("out-of-bounds", "an empty session_id", "invoke", withTool(at("empty-session"), (tool) => tool, (event) => ({ ...event, session_id: "" }))),
    fromValue("oversized-request", "a request of 1 MiB + 64 KiB", "invoke", withTool(at("oversized"), (tool) => ({ ...tool, input: { padding } }))),
    fromValue("excessive-depth", `tool input nested ${MAX_DEPTH + 2} levels`, "invoke", withTool(at("deep"), (tool) => ({ ...tool, input: nested(MAX_DEPTH + 1) }))),
    fromValue("out-of-range-integer", "an integer of 2^64 in the tool input", "invoke", withTool(at("big-integer"), (tool) => ({ ...tool, input: { count: 18446744073709551616n } }))),
    fromValue("unknown-field", "an unknown top-level field", "invoke", bind({ ...at("unknown-top"), x_awp_conformance: true })),
    fromValue("unknown-field", "an unknown field in the event", "invoke", withTool(at("unknown-event"), (tool) => tool, (event) => ({ ...event, x_awp_conformance: true }))),
    fromValue("wrong-api-version", "api_version aw-provider/v1alpha2", "invoke", bind({ ...at("wrong-version"), api_version: "aw-provider/v1alpha2" })),
    fromValue("malformed-digest", "input_digest with 63 hex digits", "invoke", digestProbe("digest-short", (hex) => `sha256:${hex.slice(1)}`)),
    fromValue("malformed-digest", "input_digest in upper case", "invoke", digestProbe("digest-upper", (hex) => `sha256:${hex.toUpperCase()}`)),
    fromValue("malformed-digest", "input_digest without the sha256: prefix", "invoke", digestProbe("digest-bare", (hex) => hex)),
    fromValue("mismatched-digest", "input_digest one hex digit off", "invoke", digestProbe("digest-off", (hex) => `sha256:${hex.slice(0, -1)}${hex.endsWith("0") ? "1" : "0"}`)),
  ];
}

/** Bytes that are not one well-formed UTF-8 JSON document: BOM, invalid UTF-8, cut short, empty. */
function malformedProbes(rebound: (n: string) => JsonObject): HostileRequest[] {
  const probe = (n: string, label: string, bytes: (wire: Uint8Array) => Uint8Array): HostileRequest => {
    const value = rebound(n);
    return { kind: "malformed-json", label, control: "invoke", method: "invoke", requestId: String(value.request_id), bytes: bytes(encoder.encode(wireJson(value))) };
  };
  const invalidUtf8 = (wire: Uint8Array): Uint8Array => {
    const at = Buffer.from(wire).indexOf('"session_id":"') + 14;
    const copy = new Uint8Array(wire);
    copy[at] = 0xff;
    return copy;
  };
  return [
    probe("bom", "a request starting with a byte order mark", (wire) => new Uint8Array([0xef, 0xbb, 0xbf, ...wire])),
    probe("bad-utf8", "a byte 0xFF inside a string", invalidUtf8),
    probe("cut-short", "a request cut off half way", (wire) => wire.subarray(0, Math.floor(wire.length / 2))),
    probe("empty", "an empty stdin", () => new Uint8Array()),
  ];
}

/** Every hostile probe the bases allow; probes whose base is missing are simply absent. */
export function hostileRequests(bases: HostileBases, prefix = "hostile"): HostileRequest[] {
  const id = (n: string): string => `${prefix}-${n}`;
  const probes: HostileRequest[] = [
    fromValue("unknown-method", "method \"explain\"", "describe", { ...describeRequest(id("unknown-method")), method: "explain" }),
  ];
  if (bases.validate !== undefined) {
    const base = withId(bases.validate, id("dup-plain"));
    probes.push(fromText("duplicate-keys", "request_id repeated", "validate", base, prepend(base, `"request_id":${JSON.stringify(id("dup-plain"))}`)));
    probes.push(fromValue("wrong-api-version", "validate_config with api_version aw-provider/v2", "validate", { ...withId(bases.validate, id("wrong-version-config")), api_version: "aw-provider/v2" }));
  }
  if (bases.invoke !== undefined) probes.push(...invokeProbes(bases.invoke, id));
  if (bases.invokeBefore !== undefined) {
    const before = withId(bases.invokeBefore, id("result-before"));
    probes.push(fromValue("result-before-tool", "a tool.before event with a tool result", "invoke-before", withTool(before, (tool) => ({ ...tool, result: { stdout: "already ran" } }))));
  }
  return probes;
}

