/**
 * The provider faults on answers to requests the reference accepted (the catalogue groups
 * transport, envelope, describe, validate-config, invoke): on the request the policy sees,
 * on the response object, on the exit status and on the stdout text.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { countParam } from "../run.js";
import { at, isObj, list, type Obj } from "../process.js";
import type { ProviderFault, ProviderHooks } from "./hooks.js";

const API = "aw-provider/v1alpha1";
const fixed = (hooks: ProviderHooks): ProviderFault => () => hooks;
const isError = (res: Obj): boolean => res.status === "error";
const errorOf = (req: Obj, code: string): Obj => ({ api_version: API, request_id: req.request_id, status: "error", error_code: code });
const emptyCwd = (): boolean => readdirSync(process.cwd()).length === 0;
const allowed = (req: Obj, effect: string): boolean => list(req.allowed_effects).includes(effect);
const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

function withoutKey(value: unknown, key: string): unknown {
  if (!isObj(value)) return value;
  const copy = { ...value };
  delete copy[key];
  return copy;
}

/** A response fault that changes only responses carrying `field` as an array. */
const withList = (field: "operations" | "effects", change: (items: unknown[], res: Obj, req: Obj) => unknown[], when: (res: Obj, req: Obj) => boolean = () => true): ProviderFault =>
  fixed({ response: (res, req) => (Array.isArray(res[field]) && when(res, req) ? { ...res, [field]: change(res[field], res, req) } : res) });
/** Maps each object item of a list (other items kept). */
const each = (change: (item: Obj) => unknown) => (items: unknown[]): unknown[] => items.map((item) => (isObj(item) ? change(item) : item));
/** Changes the first operation. */
const first = (change: (op: Obj) => Obj) => (ops: unknown[]): unknown[] => ops.map((op, i) => (i === 0 && isObj(op) ? change(op) : op));
const response = (change: NonNullable<ProviderHooks["response"]>): ProviderFault => fixed({ response: change });
const text = (change: NonNullable<ProviderHooks["text"]>): ProviderFault => fixed({ text: change });

export const ANSWER_FAULTS: Readonly<Record<string, ProviderFault>> = {
  // ---- on the request the policy sees (configuration handling, method failures)
  "accept-unknown-keys": fixed({ request: (r) => ({ ...r, config: withoutKey(r.config, "x_awp_conformance_unknown") }) }),
  "loose-redact-terms": fixed({ request: (r) => ({ ...r, config: at(r, "config", "redact_terms") === "not-an-array" ? withoutKey(r.config, "redact_terms") : r.config }) }),
  // Runs whatever operation it is asked for: an unknown name falls back to check.
  "accept-undeclared-operation": fixed({ request: (r) => (r.method === "invoke" && r.operation !== "check" && r.operation !== "redact" ? { ...r, operation: "check" } : r) }),

  // A Provider built on serde_json 1.0.147+ only: it verifies the digest in the zmij dialect alone.
  "zmij-only": fixed({
    verify: (request, ref) => {
      if (request.method === "invoke" && ref.requestDigest(request, "zmij") !== request.input_digest) throw new ref.RequestError("invocation binding mismatch (zmij dialect only)");
    },
  }),

  // ---- on the response object
  // Reads its operations from the working directory: in an empty one, redact is missing.
  "describe-depends-on-cwd": withList("operations", (ops) => ops.filter((op) => at(op, "name") !== "redact"), (_res, req) => req.method === "describe" && emptyCwd()),
  // Quotes the tool input's private value in its observe reason_code.
  "reason-quotes-input": response((res, req) => {
    const token = at(req, "event", "tool", "input", "private_token");
    return Array.isArray(res.effects) && typeof token === "string" ? { ...res, effects: each((e) => (e.type === "observe" ? { ...e, reason_code: token } : e))(res.effects) } : res;
  }),
  "describe-error": response((res, req) => (req.method === "describe" ? errorOf(req, "not_ready") : res)),
  "invoke-error": response((res, req) => (req.method === "invoke" ? errorOf(req, "scan_error") : res)),
  "reject-all-configs": response((res, req) => (req.method === "validate_config" ? errorOf(req, "invalid_config") : res)),
  "accept-invalid-configs": response((res, req) => (req.method === "validate_config" && !(isObj(req.config) && Object.hasOwn(req.config, "blocked_tools")) ? { api_version: API, request_id: req.request_id, status: "ok" } : res)),
  "config-ok-extra": response((res, req) => (req.method === "validate_config" && res.status === "ok" ? { ...res, operations: [] } : res)),
  "deep-response": (p) => ({ response: (res) => (isError(res) ? { ...res, x_trace: nested(countParam(p, "depth")) } : res) }),
  "big-number": response((res) => (isError(res) ? { ...res, x_count: 18446744073709551616n } : res)),
  "wrong-api-version": response((res) => ({ ...res, api_version: "aw-provider/v1alpha2" })),
  "wrong-request-id": response((res) => ({ ...res, request_id: `${String(res.request_id)}-x` })),
  "status-failure": response((res) => (isError(res) ? { ...res, status: "failure" } : res)),
  "extra-field": response((res, req) => (req.method === "describe" ? { ...res, x_debug: "1" } : res)),
  "bad-error-code": response((res) => (isError(res) ? { ...res, error_code: "invalid config" } : res)),
  "error-with-effects": response((res) => (isError(res) ? { ...res, effects: [] } : res)),
  "too-many-operations": withList("operations", (ops) => [...ops, ...Array.from({ length: 63 }, (_, i) => ({ name: `extra-${i + 1}`, events: ["session.start"], effects: ["observe"] }))], (_res, req) => req.method === "describe"),
  "operation-extra-field": withList("operations", first((op) => ({ ...op, description: "x" }))),
  "duplicate-operation-name": withList("operations", (ops) => [...ops, ops[0]]),
  "unknown-event": withList("operations", first((op) => ({ ...op, events: [...list(op.events), "tool.during"] }))),
  "unknown-effect": withList("operations", first((op) => ({ ...op, effects: [...list(op.effects), "allow"] }))),
  "no-admissible-operation": withList("operations", () => [{ name: "audit", events: ["session.start"], effects: ["observe"] }]),
  "inadmissible-operation": withList("operations", (ops) => [...ops, { name: "approve", events: ["tool.before", "permission.request"], effects: ["ask", "replace_input"] }], (_res, req) => req.method === "describe"),
  "wrong-digest": response((res) => (typeof res.input_digest === "string" ? { ...res, input_digest: res.input_digest.slice(0, -1) + (res.input_digest.endsWith("0") ? "1" : "0") } : res)),
  "too-many-effects": withList("effects", () => Array.from({ length: 65 }, () => ({ type: "observe" })), (_res, req) => allowed(req, "observe")),
  "effect-extra-field": withList("effects", each((e) => ({ ...e, severity: "high" }))),
  "observe-not-admitted": withList("effects", (effects) => [...effects, { type: "observe" }], (_res, req) => !allowed(req, "observe")),
  "bad-reason-code": withList("effects", each((e) => (e.reason_code ? { ...e, reason_code: "tool policy" } : e))),
  "block-after-tool": withList("effects", () => [{ type: "block", reason_code: "tool_policy" }], (_res, req) =>
    req.operation === "check" && at(req, "event", "name") === "tool.after" && list(at(req, "config", "blocked_tools")).includes(at(req, "event", "tool", "native_name"))),
  "replace-before-tool": withList("effects", (effects) => [...effects, { type: "replace_result", text: "x" }], (_res, req) => at(req, "event", "name") === "tool.before"),
  "double-replace": withList("effects", (effects) => [...effects, ...effects.filter((e) => at(e, "type") === "replace_result")], (res) => list(res.effects).some((e) => at(e, "type") === "replace_result")),
  "replace-without-text": withList("effects", each((e) => (e.type === "replace_result" ? { type: "replace_result" } : e))),
  "replace-without-projection": withList("effects", () => [{ type: "replace_result", text: "[redacted]" }], (_res, req) => allowed(req, "replace_result") && !at(req, "event", "tool", "result_projection")),
  "empty-block-text": withList("effects", each((e) => (e.type === "block" ? { ...e, text: "" } : e))),
  "observe-with-text": withList("effects", each((e) => (e.type === "observe" ? { ...e, text: "seen" } : e))),
  // For policy-test: a protocol-valid wrong decision (it never blocks: a block becomes an observe when observe is admitted, else no effect).
  "wrong-decision": withList("effects", (effects, _res, req) => effects.flatMap((e) => (at(e, "type") !== "block" ? [e] : allowed(req, "observe") ? [{ type: "observe", reason_code: "tool_seen" }] : []))),
  // Refuses a request with whitespace around the object (an error response, exit 0).
  "refuse-request-whitespace": response((res, req, bytes) => (/^\s|\s$/.test(bytes.toString("latin1")) ? errorOf(req, "invalid_request") : res)),
  // Creates its state file on describe and validate_config, only in an empty working directory
  // (so it never writes into a directory the tests did not make for it).
  "write-state-file": response((res, req) => {
    if ((req.method === "describe" || req.method === "validate_config") && emptyCwd()) writeFileSync(".provider-state.json", "{}\n");
    return res;
  }),

  // ---- on the exit status
  "exit-nonzero-on-block": (p) => ({ exitCode: (res) => (list(res.effects).some((e) => at(e, "type") === "block") ? countParam(p, "code") : undefined) }),
  "exit-nonzero-on-reject": (p) => ({ exitCode: (res) => (isError(res) ? countParam(p, "code") : undefined) }),

  // ---- on the stdout text
  "stdout-not-object": text((out, res) => (isError(res) ? `[${JSON.stringify(res.error_code)}]\n` : out)),
  "trailing-document": text((out) => `${out}{}\n`),
  "log-on-stdout": text((out) => `awp-conformance-mock: handling request\n${out}`),
  bom: text((out) => `\uFEFF${out}`),
  "huge-response": (p) => ({ text: (out, res) => (isError(res) ? `${out.trimEnd()}${" ".repeat(countParam(p, "bytes"))}\n` : out) }),
  "duplicate-key": text((out, res) => `{"status":${JSON.stringify(res.status)},${out.slice(1)}`),
};
