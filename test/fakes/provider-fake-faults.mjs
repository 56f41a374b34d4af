// The faults of provider-fake.mjs, by stage: what the fake does to a request before the
// reference policy sees it, to the response object, to the stdout text, and to the process.

import { readdirSync, writeFileSync } from "node:fs";

const API = "aw-provider/v1alpha1";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const forever = () => new Promise(() => setInterval(() => {}, 1 << 30));
const nested = (depth) => (depth === 0 ? 1 : [nested(depth - 1)]);

/** Faults on a request that passed the reference's checks (configuration handling, method failures). */
const REQUEST = {
  "accept-unknown-keys": (r) => ({ ...r, config: r.config && withoutKey(r.config, "x_awp_conformance_unknown") }),
  "loose-redact-terms": (r) => ({ ...r, config: r.config?.redact_terms === "not-an-array" ? withoutKey(r.config, "redact_terms") : r.config }),
  // Runs whatever operation it is asked for: an unknown name falls back to check.
  "accept-undeclared-operation": (r) => (r.method === "invoke" && r.operation !== "check" && r.operation !== "redact" ? { ...r, operation: "check" } : r),
};

function withoutKey(object, key) {
  const copy = { ...object };
  delete copy[key];
  return copy;
}

const effectsOf = (response) => (Array.isArray(response.effects) ? response.effects : []);
const isError = (response) => response.status === "error";

/** Faults on the response object, given the request. */
const RESPONSE = {
  // Reads its operations from the working directory: in an empty one, redact is missing.
  "describe-depends-on-cwd": (res, req) => (req.method === "describe" && res.operations && readdirSync(process.cwd()).length === 0 ? { ...res, operations: res.operations.filter((op) => op.name !== "redact") } : res),
  // Quotes the tool input's private value in its observe reason_code.
  "reason-quotes-input": (res, req) => (res.effects && typeof req.event.tool.input?.private_token === "string" ? { ...res, effects: res.effects.map((e) => (e.type === "observe" ? { ...e, reason_code: req.event.tool.input.private_token } : e)) } : res),
  "describe-error": (res, req) => (req.method === "describe" ? { api_version: API, request_id: req.request_id, status: "error", error_code: "not_ready" } : res),
  "invoke-error": (res, req) => (req.method === "invoke" ? { api_version: API, request_id: req.request_id, status: "error", error_code: "scan_error" } : res),
  "reject-all-configs": (res, req) => (req.method === "validate_config" ? { api_version: API, request_id: req.request_id, status: "error", error_code: "invalid_config" } : res),
  "accept-invalid-configs": (res, req) => (req.method === "validate_config" && !Object.hasOwn(req.config, "blocked_tools") ? { api_version: API, request_id: req.request_id, status: "ok" } : res),
  "config-ok-extra": (res, req) => (req.method === "validate_config" && res.status === "ok" ? { ...res, operations: [] } : res),
  "deep-response": (res) => (isError(res) ? { ...res, x_trace: nested(40) } : res),
  "big-number": (res) => (isError(res) ? { ...res, x_count: 18446744073709551616n } : res),
  "wrong-api-version": (res) => ({ ...res, api_version: "aw-provider/v1alpha2" }),
  "wrong-request-id": (res) => ({ ...res, request_id: `${res.request_id}-x` }),
  "status-failure": (res) => (isError(res) ? { ...res, status: "failure" } : res),
  "extra-field": (res, req) => (req.method === "describe" ? { ...res, x_debug: "1" } : res),
  "bad-error-code": (res) => (isError(res) ? { ...res, error_code: "invalid config" } : res),
  "error-with-effects": (res) => (isError(res) ? { ...res, effects: [] } : res),
  "too-many-operations": (res, req) => (req.method === "describe" && res.operations ? { ...res, operations: [...res.operations, ...Array.from({ length: 63 }, (_, i) => ({ name: `extra-${i + 1}`, events: ["session.start"], effects: ["observe"] }))] } : res),
  "operation-extra-field": (res) => (res.operations ? { ...res, operations: res.operations.map((op, i) => (i === 0 ? { ...op, description: "x" } : op)) } : res),
  "duplicate-operation-name": (res) => (res.operations ? { ...res, operations: [...res.operations, res.operations[0]] } : res),
  "unknown-event": (res) => (res.operations ? { ...res, operations: res.operations.map((op, i) => (i === 0 ? { ...op, events: [...op.events, "tool.during"] } : op)) } : res),
  "unknown-effect": (res) => (res.operations ? { ...res, operations: res.operations.map((op, i) => (i === 0 ? { ...op, effects: [...op.effects, "allow"] } : op)) } : res),
  "no-admissible-operation": (res) => (res.operations ? { ...res, operations: [{ name: "audit", events: ["session.start"], effects: ["observe"] }] } : res),
  "wrong-digest": (res) => (res.input_digest ? { ...res, input_digest: res.input_digest.slice(0, -1) + (res.input_digest.endsWith("0") ? "1" : "0") } : res),
  "too-many-effects": (res, req) => (res.effects && req.allowed_effects.includes("observe") ? { ...res, effects: Array.from({ length: 65 }, () => ({ type: "observe" })) } : res),
  "effect-extra-field": (res) => (res.effects ? { ...res, effects: res.effects.map((e) => ({ ...e, severity: "high" })) } : res),
  "observe-not-admitted": (res, req) => (res.effects && !req.allowed_effects.includes("observe") ? { ...res, effects: [...res.effects, { type: "observe" }] } : res),
  "bad-reason-code": (res) => (res.effects ? { ...res, effects: res.effects.map((e) => (e.reason_code ? { ...e, reason_code: "tool policy" } : e)) } : res),
  "block-after-tool": (res, req) => (res.effects && req.operation === "check" && req.event.name === "tool.after" && req.config.blocked_tools.includes(req.event.tool.native_name) ? { ...res, effects: [{ type: "block", reason_code: "tool_policy" }] } : res),
  "replace-before-tool": (res, req) => (res.effects && req.event.name === "tool.before" ? { ...res, effects: [...res.effects, { type: "replace_result", text: "x" }] } : res),
  "double-replace": (res) => (effectsOf(res).some((e) => e.type === "replace_result") ? { ...res, effects: [...res.effects, ...res.effects.filter((e) => e.type === "replace_result")] } : res),
  "replace-without-text": (res) => (res.effects ? { ...res, effects: res.effects.map((e) => (e.type === "replace_result" ? { type: "replace_result" } : e)) } : res),
  "replace-without-projection": (res, req) => (res.effects && req.allowed_effects.includes("replace_result") && !req.event.tool.result_projection ? { ...res, effects: [{ type: "replace_result", text: "[redacted]" }] } : res),
  "empty-block-text": (res) => (res.effects ? { ...res, effects: res.effects.map((e) => (e.type === "block" ? { ...e, text: "" } : e)) } : res),
  "observe-with-text": (res) => (res.effects ? { ...res, effects: res.effects.map((e) => (e.type === "observe" ? { ...e, text: "seen" } : e)) } : res),
  // For `awp-conformance admit` (test/integration/admit.test.ts), not a clause: a protocol-valid
  // description with one more operation the v1alpha1 profile cannot admit (ask and input
  // replacement on tool.before, and a permission.request event).
  "inadmissible-operation": (res, req) => (req.method === "describe" && res.operations ? { ...res, operations: [...res.operations, { name: "approve", events: ["tool.before", "permission.request"], effects: ["ask", "replace_input"] }] } : res),
  // policy-test (issue 11): a protocol-valid wrong decision, for `awp-conformance policy-test`; fails no
  // clause of `run`. It never blocks: a block becomes an observe when observe is admitted, else no effect.
  "wrong-decision": (res, req) => (res.effects ? { ...res, effects: res.effects.flatMap((e) => (e.type !== "block" ? [e] : req.allowed_effects.includes("observe") ? [{ type: "observe", reason_code: "tool_seen" }] : [])) } : res),
};

/** JSON text as the fake writes it (bigint as digits). */
const stringify = (value) => JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `@@${v}@@` : v)).replace(/"@@(\d+)@@"/g, "$1");

/** Faults on the stdout text. */
const TEXT = {
  "stdout-not-object": (text, res) => (isError(res) ? `[${JSON.stringify(res.error_code)}]\n` : text),
  "trailing-document": (text) => `${text}{}\n`,
  "log-on-stdout": (text) => `provider-fake: handling request\n${text}`,
  bom: (text) => `\uFEFF${text}`,
  "huge-response": (text, res) => (isError(res) ? `${text.trimEnd()}${" ".repeat(1_100_000)}\n` : text),
  "duplicate-key": (text, res) => `{"status":${JSON.stringify(res.status)},${text.slice(1)}`,
};

/** Faults that look at the request bytes or act on the machine. */
const RAW = {
  // Refuses a request with whitespace around the object (an error response, exit 0).
  "refuse-request-whitespace": (res, req, bytes) => (/^\s|\s$/.test(bytes.toString("latin1")) ? { api_version: API, request_id: req.request_id, status: "error", error_code: "invalid_request" } : res),
  // Creates its state file on describe and validate_config in a working directory that has none
  // (only an empty one, so the fake never writes into a directory the tests did not make for it).
  "write-state-file": (res, req) => {
    if ((req.method === "describe" || req.method === "validate_config") && readdirSync(process.cwd()).length === 0) writeFileSync(".provider-state.json", "{}\n");
    return res;
  },
};

/** Nesting depth of a parsed value (a scalar is 0). */
function depthOf(value) {
  if (value === null || typeof value !== "object" || value.constructor?.name === "JsonNumber") return 0;
  const items = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...items.map(depthOf));
}

/** Bugs only the fuzzer finds: the fixed scenarios never send such requests. */
const CRASH = {
  "crash-on-long-tool-name": (r) => r.method === "invoke" && [...String(r.event?.tool?.name ?? "")].length > 200,
  "crash-on-nesting-20": (r) => r.method === "invoke" && depthOf(r.event?.tool?.input) >= 20,
  "crash-on-input-over-50-members": (r) => r.method === "invoke" && isPlainObject(r.event?.tool?.input) && Object.keys(r.event.tool.input).length > 50,
};

/** A JSON object as the reference's reader builds it (null prototype), not an array or number. */
function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) && value.constructor?.name !== "JsonNumber";
}

/** Applies the request, response and text faults, and decides the exit status and what happens after writing. */
export function outputFaults(fault, request, respond, bytes) {
  if (CRASH[fault]?.(request)) process.kill(process.pid, "SIGSEGV");
  const req = REQUEST[fault] ? REQUEST[fault](request) : request;
  let response = respond(req);
  if (RESPONSE[fault]) response = RESPONSE[fault](response, req);
  if (RAW[fault]) response = RAW[fault](response, req, bytes);
  let text = `${stringify(response)}\n`;
  if (TEXT[fault]) text = TEXT[fault](text, response);
  let exitCode;
  let after;
  if (fault === "exit-nonzero-on-block" && effectsOf(response).some((e) => e.type === "block")) exitCode = 1;
  if (fault === "exit-nonzero-on-reject" && isError(response)) exitCode = 1;
  if (fault === "linger-after-unknown-key" && request.config && Object.hasOwn(request.config, "x_awp_conformance_unknown")) after = forever;
  if (fault === "slow-invoke" && request.request_id === "invoke-1") {
    const delay = Number(request.budget_ms?.value ?? request.budget_ms) + 300; // numbers arrive as JsonNumber
    return { text: "", after: async () => { await sleep(delay); process.stdout.write(text); } };
  }
  return { text, exitCode, after };
}

/** Faults on a request the reference rejects: hang or crash instead of exiting 2. */
export function processFault(fault, _stage, message) {
  // A live interval keeps the process running after it reports the rejection.
  if (fault === "hang-on-trailing" && /trailing data/.test(message)) setInterval(() => {}, 1 << 30);
  if (fault === "crash-on-deep" && /nesting deeper/.test(message)) process.kill(process.pid, "SIGSEGV");
}
