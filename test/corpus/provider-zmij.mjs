#!/usr/bin/env node
// A policy provider in one file, written apart from the reference: synchronous stdin,
// its own strict reader, and an input_digest check in the float format of serde_json
// 1.0.147 and later (zmij: 1e+21), the only one it knows. Hosts built on older
// serde_json (ryu: 1e21) bind requests with exponent floats differently, so it refuses
// those like the upstream library refuses a binding mismatch: exit 1, empty stdout.
//
// Policy: one operation "audit" (tool.before and tool.after; observe, block). The
// configuration is {"deny": [tool names]}; a tool.before call of a denied tool is
// blocked when block is admitted, every other call observed when observe is admitted.
//
// Also used as a library by provider-deep.mjs: importing it runs nothing.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const API = "aw-provider/v1alpha1";
const LIMIT = 1024 * 1024;

class Refusal extends Error {}
const refuse = (why) => {
  throw new Refusal(why);
};

// ---- reading: strict JSON, numbers kept as their text so integers stay exact ----

class Num {
  constructor(text, integer) {
    this.text = text;
    this.integer = integer;
  }
}

export function parse(text, maxDepth = 32) {
  let at = 0;
  const ws = () => {
    while (at < text.length && " \t\n\r".includes(text[at])) at++;
  };
  const value = (containers) => {
    ws();
    const c = text[at];
    if (c === "{" || c === "[") {
      if (containers + 1 > maxDepth) refuse(`more than ${maxDepth} nesting levels`);
      return c === "{" ? object(containers + 1) : array(containers + 1);
    }
    if (c === '"') return string();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return v;
      }
    }
    const m = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = at;
    const found = m.exec(text);
    if (found === null || found[0] === "" || found[0] === "-") refuse(`unexpected input at ${at}`);
    at += found[0].length;
    const integer = found[2] === undefined && found[3] === undefined;
    if (integer && found[0] !== "-0") {
      const n = BigInt(found[0]);
      if (n < -(2n ** 63n) || n > 2n ** 64n - 1n) refuse("integer out of range");
    } else if (!Number.isFinite(Number(found[0]))) refuse("number out of range");
    return new Num(found[0], integer);
  };
  const object = (containers) => {
    const out = Object.create(null);
    at++;
    ws();
    if (text[at] === "}") return at++, out;
    for (;;) {
      ws();
      if (text[at] !== '"') refuse("expected a key");
      const key = string();
      if (Object.hasOwn(out, key)) refuse(`duplicate key ${key}`);
      ws();
      if (text[at++] !== ":") refuse("expected ':'");
      out[key] = value(containers);
      ws();
      const c = text[at++];
      if (c === "}") return out;
      if (c !== ",") refuse("expected ',' or '}'");
    }
  };
  const array = (containers) => {
    const out = [];
    at++;
    ws();
    if (text[at] === "]") return at++, out;
    for (;;) {
      out.push(value(containers));
      ws();
      const c = text[at++];
      if (c === "]") return out;
      if (c !== ",") refuse("expected ',' or ']'");
    }
  };
  const string = () => {
    let out = "";
    at++;
    for (;;) {
      const c = text[at++];
      if (c === undefined) refuse("unterminated string");
      if (c === '"') break;
      if (c < " ") refuse("control character in a string");
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = text[at++];
      const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }[e];
      if (simple !== undefined) {
        out += simple;
        continue;
      }
      if (e !== "u" || !/^[0-9a-fA-F]{4}$/.test(text.slice(at, at + 4))) refuse("bad escape");
      out += String.fromCharCode(parseInt(text.slice(at, at + 4), 16));
      at += 4;
    }
    if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out)) refuse("lone surrogate");
    return out;
  };
  const result = value(0);
  ws();
  if (at !== text.length) refuse("data after the request");
  return result;
}

// ---- the digest: serde_json's compact form with sorted keys ----

/** An f64 as serde_json writes it; `plus` gives the zmij dialect's "e+" on positive exponents. */
function f64(x, plus) {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [m, e] = Math.abs(x).toExponential().split("e");
  const d = m.replace(".", "");
  const point = Number(e) + 1; // digits before the decimal point
  const sign = x < 0 ? "-" : "";
  if (point >= d.length && point <= 16) return sign + d + "0".repeat(point - d.length) + ".0";
  if (point > 0 && point <= 16) return sign + d.slice(0, point) + "." + d.slice(point);
  if (point > -5 && point <= 0) return sign + "0." + "0".repeat(-point) + d;
  return sign + d[0] + (d.length > 1 ? "." + d.slice(1) : "") + "e" + (point > 0 && plus ? "+" : "") + (point - 1);
}

const escapes = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const quote = (s) => '"' + s.replace(/["\\\u0000-\u001f]/g, (c) => escapes[c] ?? "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) + '"';
const byCodePoint = (a, b) => {
  const x = [...a].map((c) => c.codePointAt(0));
  const y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

export function canonical(v, plus) {
  if (v === null || v === true || v === false) return String(v);
  if (typeof v === "string") return quote(v);
  if (Array.isArray(v)) return "[" + v.map((x) => canonical(x, plus)).join(",") + "]";
  if (v instanceof Num) return v.integer && v.text !== "-0" ? v.text : f64(Number(v.text), plus);
  return "{" + Object.keys(v).sort(byCodePoint).map((k) => quote(k) + ":" + canonical(v[k], plus)).join(",") + "}";
}

export function digest(request, plus) {
  const rest = Object.create(null);
  for (const k of Object.keys(request)) if (k !== "input_digest") rest[k] = request[k];
  return "sha256:" + createHash("sha256").update(canonical(rest, plus)).digest("hex");
}

// ---- the envelope ----

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Num);
const text = (v, min, max) => typeof v === "string" && [...v].length >= min && [...v].length <= max;
const optText = (v, min, max) => v === null || text(v, min, max);
const id = (v) => typeof v === "string" && /^[!-~]{1,128}$/.test(v);
const exactly = (o, keys, optional = []) => isObj(o) && keys.every((k) => k in o) && Object.keys(o).every((k) => keys.includes(k) || optional.includes(k));
const EFFECTS = ["observe", "block", "ask", "replace_input", "replace_result"];
const ADMITTED = { "tool.before": ["observe", "block"], "tool.after": ["observe", "replace_result"] };

export function checkEnvelope(r) {
  const fields = { describe: [], validate_config: ["config"], invoke: ["operation", "config_revision", "budget_ms", "allowed_effects", "input_digest", "config", "event"] }[r?.method];
  if (!isObj(r) || fields === undefined) refuse("unknown method");
  if (!exactly(r, ["api_version", "method", "request_id", ...fields])) refuse("unknown or missing field");
  if (r.api_version !== API) refuse("unsupported api_version");
  if (!id(r.request_id)) refuse("bad request_id");
  if (r.method !== "describe" && !isObj(r.config)) refuse("config must be an object");
  if (r.method !== "invoke") return;
  const budget = r.budget_ms;
  const effects = r.allowed_effects;
  const e = r.event;
  const ok =
    id(r.operation) &&
    /^[0-9a-f]{64}$/.test(r.config_revision) &&
    budget instanceof Num && budget.integer && BigInt(budget.text) >= 1n && BigInt(budget.text) <= 9007199254740991n &&
    Array.isArray(effects) && effects.length >= 1 && effects.length <= 5 && new Set(effects).size === effects.length && effects.every((x) => EFFECTS.includes(x)) &&
    /^sha256:[0-9a-f]{64}$/.test(r.input_digest) &&
    exactly(e, ["name", "agent", "session_id", "tool", "native"]) &&
    ADMITTED[e.name] !== undefined && effects.every((x) => ADMITTED[e.name].includes(x)) &&
    exactly(e.agent, ["adapter", "binding_id", "instance_id"]) && ["qoder", "openclaw", "hermes", "qwenpaw"].includes(e.agent.adapter) &&
    text(e.agent.binding_id, 1, 128) && optText(e.agent.instance_id, 1, 512) && optText(e.session_id, 1, 512) &&
    exactly(e.tool, ["name", "native_name", "call_id", "input", "result"], ["result_projection"]) &&
    text(e.tool.name, 1, 1024) && text(e.tool.native_name, 1, 1024) && optText(e.tool.call_id, 1, 512) &&
    (e.name === "tool.after" || (e.tool.result === null && !("result_projection" in e.tool))) &&
    (!("result_projection" in e.tool) || (exactly(e.tool.result_projection, ["text", "status", "content_origin"], ["command"]) && Object.values(e.tool.result_projection).every((x) => typeof x === "string"))) &&
    isObj(e.native);
  if (!ok) refuse("the invocation does not match the request schema");
}

// ---- the policy ----

export function answer(r) {
  const head = { api_version: API, request_id: r.request_id };
  const deny = r.config && Object.keys(r.config).every((k) => k === "deny") && (r.config.deny === undefined || (Array.isArray(r.config.deny) && r.config.deny.every((n) => text(n, 1, 1024)))) ? (r.config.deny ?? []) : null;
  if (r.method === "describe") return { ...head, status: "ok", operations: [{ name: "audit", events: ["tool.before", "tool.after"], effects: ["observe", "block"] }] };
  if (deny === null) return { ...head, status: "error", error_code: "invalid_config" };
  if (r.method === "validate_config") return { ...head, status: "ok" };
  if (r.operation !== "audit") return { ...head, status: "error", error_code: "unknown_operation" };
  const allowed = r.allowed_effects;
  const effects = r.event.name === "tool.before" && deny.includes(r.event.tool.native_name) && allowed.includes("block") ? [{ type: "block", reason_code: "denied" }] : allowed.includes("observe") ? [{ type: "observe" }] : [];
  return { ...head, status: "ok", input_digest: r.input_digest, effects };
}

/** Reads, checks and answers one request; `verify` says whether its input_digest is acceptable. */
export function serve(bytes, { maxDepth = 32, verify = (r) => digest(r, true) === r.input_digest, policy = answer } = {}) {
  try {
    if (bytes.length > LIMIT) refuse("request over 1 MiB");
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) refuse("byte order mark");
    let source;
    try {
      source = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      refuse("not UTF-8");
    }
    const request = parse(source, maxDepth);
    checkEnvelope(request);
    if (request.method === "invoke" && !verify(request)) refuse("invocation binding mismatch");
    // Answers hold strings only (ids, codes, the echoed digest): plain JSON.stringify writes them.
    process.stdout.write(JSON.stringify(policy(request)) + "\n");
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    process.stderr.write(`provider: ${error.message}\n`);
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) serve(readFileSync(0));
