import { wireBytes, type DigestDialectId, type JsonValue } from "../json/index.js";
import { bind, describeRequest } from "./requests.js";
import { MAX_DEPTH, MAX_MESSAGE_BYTES, type HostileKind, type JsonObject } from "./types.js";

/**
 * A request the upstream library would refuse to send, paired with its control: a well-formed
 * request that differs from it in exactly one property (one value in the parsed request, apart
 * from request_id and input_digest, or one defect in the bytes). A refusal of the probe only
 * means something when the control was accepted.
 */
export interface HostileRequest {
  kind: HostileKind;
  label: string;
  method: string;
  requestId: string;
  bytes: Uint8Array;
  /** The request value when the bytes are one JSON object the kit built. */
  value?: JsonObject;
  control: {
    /** What the control is, for reports: "tool.input nested 32 levels, within the limit". */
    label: string;
    /** The control under the probe's request_id (bound when it is an invocation). */
    value: JsonObject;
  };
}

export interface HostileBases {
  validate?: JsonObject;
  invoke?: JsonObject;
  /** An ok-answered tool.before invocation, for the result-before-tool probe. */
  invokeBefore?: JsonObject;
}

const encoder = new TextEncoder();
/** Containers around event.tool.input: the request (level 1), event and tool. */
const INPUT_LEVEL = 3;

type Rebind = (request: JsonObject) => JsonObject;

function withId(request: JsonObject, id: string): JsonObject {
  return { ...request, request_id: id };
}

function probe(kind: HostileKind, label: string, control: HostileRequest["control"], value: JsonObject, bytes?: Uint8Array): HostileRequest {
  return {
    kind,
    label,
    control,
    method: String(value.method),
    requestId: String(value.request_id),
    bytes: bytes ?? wireBytes(value),
    ...(bytes === undefined ? { value } : {}),
  };
}

/** A probe whose bytes are the control's wire bytes with one defect. */
function defect(kind: HostileKind, label: string, control: HostileRequest["control"], edit: (wire: Uint8Array) => Uint8Array): HostileRequest {
  return probe(kind, label, control, control.value, edit(wireBytes(control.value)));
}

function insert(wire: Uint8Array, at: number, text: string): Uint8Array {
  const added = encoder.encode(text);
  const out = new Uint8Array(wire.length + added.length);
  out.set(wire.subarray(0, at));
  out.set(added, at);
  out.set(wire.subarray(at), at + added.length);
  return out;
}

function withTool(request: JsonObject, change: (tool: JsonObject) => JsonObject, rebind: Rebind): JsonObject {
  const event = request.event as JsonObject;
  return rebind({ ...request, event: { ...event, tool: change({ ...(event.tool as JsonObject) }) } });
}

/** `levels` objects, one inside the other, around the integer 1. */
function nestedObjects(levels: number): JsonValue {
  let value: JsonValue = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/**
 * `length` x's: a slice of one string made once, flat (Buffer's latin1 text is; "x".repeat is a
 * tree of halves that is copied flat on first reading), so the oversized probe and its control
 * cost no fresh megabyte each for their padding.
 */
let pad = "";
function padding(length: number): string {
  if (pad.length < length) pad = Buffer.alloc(Math.max(length, MAX_MESSAGE_BYTES + 2048), "x").toString("latin1");
  return pad.slice(0, length);
}

/** tool.input {"padding": "xxx…"} sized so that the request's wire form is `size` bytes. */
function padded(request: JsonObject, size: number, rebind: Rebind): JsonObject {
  const at = (length: number): JsonObject => withTool(request, (tool) => ({ ...tool, input: { padding: padding(length) } }), rebind);
  const bare = wireBytes(at(0)).length;
  return at(Math.max(0, size - bare));
}

function* invokeProbes(base: JsonObject, id: (n: string) => string, rebind: Rebind): Generator<HostileRequest> {
  const at = (n: string): JsonObject => rebind(withId(base, id(n)));
  const same = (n: string): HostileRequest["control"] => ({ label: "the same invocation without the defect", value: at(n) });
  const tool = (n: string, change: (tool: JsonObject) => JsonObject): JsonObject => withTool(at(n), change, rebind);
  /** Alters only the digest of the control's binding. */
  const digestProbe = (n: string, label: string, alter: (hex: string) => string): HostileRequest => {
    const control = same(n);
    return probe("malformed-digest", label, control, { ...control.value, input_digest: alter(String(control.value.input_digest).slice("sha256:".length)) });
  };
  const name = (length: number) => (t: JsonObject): JsonObject => ({ ...t, name: "t".repeat(length) });
  const depth = (levels: number) => (t: JsonObject): JsonObject => ({ ...t, input: nestedObjects(levels) });
  const count = (n: bigint) => (t: JsonObject): JsonObject => ({ ...t, input: { count: n } });
  const legalLevels = MAX_DEPTH - INPUT_LEVEL;
  // Each probe is made when it is taken (its 1 MiB requests too), so sending overlaps making.
  const made: (() => HostileRequest)[] = [
    () => defect("duplicate-keys", "request_id repeated with an escaped spelling", same("dup-escaped"), (w) => insert(w, 1, `"request\\u005fid":${JSON.stringify(id("dup-escaped"))},`)),
    () => defect("trailing-document", "a second JSON document after the request", same("trailing"), (w) => insert(w, w.length, "\n{}")),
    () => defect("malformed-json", "a request starting with a byte order mark", same("bom"), (w) => insert(w, 0, "\ufeff")),
    () => defect("malformed-json", "a byte 0xFF inside a string", same("bad-utf8"), (w) => {
      const copy = new Uint8Array(w);
      copy[Buffer.from(w).indexOf('"session_id":"') + 14] = 0xff;
      return copy;
    }),
    () => defect("malformed-json", "a request cut off half way", same("cut-short"), (w) => w.subarray(0, Math.floor(w.length / 2))),
    () => defect("malformed-json", "an empty stdin", same("empty"), () => new Uint8Array()),
    () => probe("out-of-bounds", "a tool name of 1025 characters", { label: "a tool name of 1024 characters, the longest allowed", value: tool("long-name", name(1024)) }, tool("long-name", name(1025))),
    // The control keeps the kit's budget: budget_ms 1 is valid, but a Provider that honours its budget rightly refuses it
    // (deadline_exceeded: provider/transport/tight-budget), and a refused control would leave the probe unjudged.
    () => probe("out-of-bounds", "budget_ms 0", same("zero-budget"), rebind({ ...at("zero-budget"), budget_ms: 0 })),
    () => probe("out-of-bounds", "an empty session_id", same("empty-session"), withEvent(at("empty-session"), { session_id: "" }, rebind)),
    () => probe(
      "oversized-request",
      "a request 1 KiB over the 1 MiB limit",
      { label: "the same request 1 KiB under the 1 MiB limit (the same padding field, shorter)", value: padded(at("oversized"), MAX_MESSAGE_BYTES - 1024, rebind) },
      padded(at("oversized"), MAX_MESSAGE_BYTES + 1024, rebind),
    ),
    () => probe(
      "excessive-depth",
      `tool.input nested ${MAX_DEPTH + 1} levels (the request object is level 1)`,
      { label: `tool.input nested ${MAX_DEPTH} levels, within the limit`, value: tool("deep", depth(legalLevels)) },
      tool("deep", depth(legalLevels + 1)),
    ),
    () => probe(
      "out-of-range-integer",
      "the integer 18446744073709551616 (2^64) in tool.input",
      { label: "the integer 18446744073709551615 (the u64 maximum) in tool.input", value: tool("big-integer", count(18446744073709551615n)) },
      tool("big-integer", count(18446744073709551616n)),
    ),
    () => probe("unknown-field", "an unknown top-level field", same("unknown-top"), rebind({ ...at("unknown-top"), x_awp_conformance: true })),
    () => probe("unknown-field", "an unknown field in the event", same("unknown-event"), withEvent(at("unknown-event"), { x_awp_conformance: true }, rebind)),
    () => probe("wrong-api-version", "api_version aw-provider/v1alpha2", same("wrong-version"), rebind({ ...at("wrong-version"), api_version: "aw-provider/v1alpha2" })),
    () => digestProbe("digest-short", "input_digest with 63 hex digits", (hex) => `sha256:${hex.slice(1)}`),
    () => digestProbe("digest-upper", "input_digest in upper case", (hex) => `sha256:${hex.toUpperCase()}`),
    () => digestProbe("digest-bare", "input_digest without the sha256: prefix", (hex) => hex),
  ];
  for (const make of made) yield make();
  const effects = (base.allowed_effects as string[] | undefined) ?? [];
  const first = effects[0] ?? "observe";
  const revision = String(at("revision").config_revision);
  const upper = revision.toUpperCase();
  const more: (() => HostileRequest)[] = [
    () => probe("malformed-config-revision", upper === revision ? "config_revision with 63 hex digits" : "config_revision in upper case", same("revision"), rebind({ ...at("revision"), config_revision: upper === revision ? revision.slice(1) : upper })),
    () => probe("bad-allowed-effects", "allowed_effects empty", same("effects-empty"), rebind({ ...at("effects-empty"), allowed_effects: [] })),
    () => probe("bad-allowed-effects", `allowed_effects with ${first} twice`, same("effects-twice"), rebind({ ...at("effects-twice"), allowed_effects: [...effects, first] })),
    () => probe("bad-allowed-effects", 'allowed_effects with "allow", outside the vocabulary', same("effects-unknown"), rebind({ ...at("effects-unknown"), allowed_effects: [...effects, "allow"] })),
    () => probe("bad-event-name", "an invocation for event session.start", same("event-name"), withEvent(at("event-name"), { name: "session.start" }, rebind)),
    () => probe("undeclared-operation", `operation "${UNDECLARED_OPERATION}", not declared by describe`, same("undeclared"), rebind({ ...at("undeclared"), operation: UNDECLARED_OPERATION })),
  ];
  for (const make of more) yield make();
  const off = same("digest-off");
  const hex = String(off.value.input_digest);
  yield probe("mismatched-digest", "input_digest one hex digit off", off, { ...off.value, input_digest: `${hex.slice(0, -1)}${hex.endsWith("0") ? "1" : "0"}` });
}

/** An operation name no Provider declares (the kit never sees it in a description it invokes). */
export const UNDECLARED_OPERATION = "x-awp-conformance-undeclared";

function withEvent(request: JsonObject, fields: JsonObject, rebind: Rebind): JsonObject {
  return rebind({ ...request, event: { ...(request.event as JsonObject), ...fields } });
}

/**
 * Every hostile probe the bases allow, with its control; probes whose base is missing are
 * absent. Invocations are bound in `dialect`.
 */
export function hostileRequests(bases: HostileBases, prefix = "hostile", dialect?: DigestDialectId): HostileRequest[] {
  return [...hostileProbes(bases, prefix, dialect)];
}

/** hostileRequests, each probe made as it is taken. */
export function* hostileProbes(bases: HostileBases, prefix = "hostile", dialect?: DigestDialectId): Generator<HostileRequest> {
  const id = (n: string): string => `${prefix}-${n}`;
  const rebind: Rebind = (request) => bind(request, dialect);
  const describeControl = { label: "a describe request, otherwise the same", value: describeRequest(id("unknown-method")) };
  yield probe("unknown-method", 'method "explain"', describeControl, { ...describeControl.value, method: "explain" });
  // The control is the same describe under a well-formed id: describe-1, already sent.
  yield probe("bad-request-id", "a request_id with a space", describeControl, describeRequest(id("bad id")));
  yield probe("bad-request-id", "a request_id of 129 characters", describeControl, describeRequest(`${id("long-id")}-${"x".repeat(128)}`.slice(0, 129)));
  if (bases.validate !== undefined) {
    const control = { label: "the same validate_config request without the defect", value: withId(bases.validate, id("dup-plain")) };
    yield defect("duplicate-keys", "request_id repeated", control, (w) => insert(w, 1, `"request_id":${JSON.stringify(id("dup-plain"))},`));
    const versionControl = { ...control, value: withId(bases.validate, id("wrong-version-config")) };
    yield probe("wrong-api-version", "validate_config with api_version aw-provider/v2", versionControl, { ...versionControl.value, api_version: "aw-provider/v2" });
    const configControl = (n: string): HostileRequest["control"] => ({ label: "the same validate_config request with its config object", value: withId(bases.validate as JsonObject, id(n)) });
    const { config, ...withoutConfig } = withId(bases.validate, id("no-config"));
    yield probe("bad-config", "validate_config without config", configControl("no-config"), withoutConfig);
    yield probe("bad-config", "validate_config with config an array holding the configuration", configControl("array-config"), { ...withoutConfig, request_id: id("array-config"), config: [config ?? {}] });
  }
  if (bases.invoke !== undefined) yield* invokeProbes(bases.invoke, id, rebind);
  if (bases.invokeBefore !== undefined) {
    const control = { label: "the same tool.before invocation with result null", value: rebind(withId(bases.invokeBefore, id("result-before"))) };
    yield probe("result-before-tool", "a tool.before event with a tool result", control, withTool(control.value, (t) => ({ ...t, result: { stdout: "already ran" } }), rebind));
  }
}
