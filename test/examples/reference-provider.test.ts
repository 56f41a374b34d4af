import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

// The reference provider is plain ESM without types: load its modules dynamically.
interface DigestModule {
  canonicalJson(value: unknown): string;
  requestDigest(request: unknown, dialect?: "ryu" | "zmij"): string;
  formatF64(x: number, dialect?: "ryu" | "zmij"): string;
}
interface StrictJsonModule {
  parseStrictJson(text: string): unknown;
}

const DIR = fileURLToPath(new URL("../../examples/reference-provider/", import.meta.url));
const PROVIDER = `${DIR}provider.mjs`;
const API = "aw-provider/v1alpha1";
const MiB = 1024 * 1024;
let digestModule: DigestModule;
let jsonModule: StrictJsonModule;

beforeAll(async () => {
  digestModule = (await import(pathToFileURL(`${DIR}digest.mjs`).href)) as DigestModule;
  jsonModule = (await import(pathToFileURL(`${DIR}strict-json.mjs`).href)) as StrictJsonModule;
});

// ---------- running the provider ----------

function run(input: string | Buffer) {
  const result = spawnSync(process.execPath, [PROVIDER], { input, timeout: 20_000, maxBuffer: 16 * MiB });
  return { status: result.status, signal: result.signal, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** Runs a well-formed request: exactly one JSON object + "\n" on stdout, exit 0. */
function answer(input: string | Buffer): Record<string, unknown> {
  const result = run(input);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  expect(result.stdout.endsWith("}\n")).toBe(true);
  expect(result.stdout.indexOf("\n")).toBe(result.stdout.length - 1);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** A request the host would never send: reason on stderr, empty stdout, exit 2. */
function expectRejected(input: string | Buffer, reason?: RegExp): void {
  const result = run(input);
  expect(result.signal).toBeNull();
  expect(result.stdout).toBe("");
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(reason ?? /rejected request/);
}

// ---------- building requests ----------

type Req = Record<string, any>;

/** Independent serde_json-style serializer for integer-only values (JSON.stringify escapes strings alike). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Req)[key])}`).join(",")}}`;
  }
  if (typeof value === "number" && !(Number.isInteger(value) && Math.abs(value) <= 2 ** 53)) throw new Error("integers only");
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const sign = (request: Req) => JSON.stringify({ ...request, input_digest: `sha256:${sha256(canonical(request))}` });

function baseInvoke(): Req {
  return {
    api_version: API, method: "invoke", request_id: "inv-1", operation: "check",
    config_revision: "0".repeat(64), budget_ms: 5000, allowed_effects: ["observe", "block"],
    config: { blocked_tools: ["example_tool"], redact_terms: ["hunter2", "s3cret"] },
    event: {
      name: "tool.before",
      agent: { adapter: "qoder", binding_id: "binding-1", instance_id: null },
      session_id: "session-1",
      tool: { name: "bash", native_name: "example_tool", call_id: "call-1", input: { command: "ls" }, result: null },
      native: { hook: "PreToolUse" },
    },
  };
}

/** A signed invoke request after `patch` changed the base. */
function invoke(patch: (request: Req) => void = () => {}): string {
  const request = baseInvoke();
  patch(request);
  return sign(request);
}

const projection = (text: string) => ({ text, status: "success", content_origin: "tool" });
function after(request: Req, operation: string, allowed: string[], text?: string): void {
  request.operation = operation;
  request.allowed_effects = allowed;
  request.event.name = "tool.after";
  request.event.tool.result = { stdout: text ?? "" };
  if (text !== undefined) request.event.tool.result_projection = projection(text);
}

const ok = (effects: unknown[]) => ({ api_version: API, request_id: "inv-1", status: "ok", effects });
const failed = (code: string, id = "inv-1") => ({ api_version: API, request_id: id, status: "error", error_code: code });
const withoutDigest = (response: Record<string, unknown>) => {
  const { input_digest: digest, ...rest } = response;
  expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  return rest;
};
const observe = (reason: string) => ({ type: "observe", reason_code: reason });

// ---------- tests ----------

describe("reference provider: describe and validate_config", () => {
  it("is an executable node script", () => {
    expect(statSync(PROVIDER).mode & 0o111).not.toBe(0);
    expect(readFileSync(PROVIDER, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("describes check and redact", () => {
    const result = run(`{"api_version":"${API}","method":"describe","request_id":"d-1"}\n`);
    expect(result.stdout).toBe(
      `{"api_version":"${API}","request_id":"d-1","status":"ok","operations":[` +
        `{"name":"check","events":["tool.before","tool.after"],"effects":["observe","block"]},` +
        `{"name":"redact","events":["tool.after"],"effects":["observe","replace_result"]}]}\n`);
    expect(result.status).toBe(0);
  });

  const validate = (config: unknown) =>
    answer(JSON.stringify({ api_version: API, method: "validate_config", request_id: "v-1", config }));

  it("accepts valid-config.json and a config without redact_terms", () => {
    const config = JSON.parse(readFileSync(`${DIR}valid-config.json`, "utf8")) as unknown;
    expect(config).toEqual({ blocked_tools: ["example_tool"], redact_terms: ["hunter2"] });
    expect(validate(config)).toEqual({ api_version: API, request_id: "v-1", status: "ok" });
    expect(validate({ blocked_tools: [] })).toEqual({ api_version: API, request_id: "v-1", status: "ok" });
  });

  it("rejects every entry of invalid-configs.json with invalid_config", () => {
    const configs = JSON.parse(readFileSync(`${DIR}invalid-configs.json`, "utf8")) as unknown[];
    expect(configs.length).toBeGreaterThanOrEqual(5);
    for (const config of configs) expect(validate(config)).toEqual(failed("invalid_config", "v-1"));
  });
});

describe("reference provider: invoke check", () => {
  it("blocks a listed tool before it runs", () => {
    expect(withoutDigest(answer(invoke()))).toEqual(ok([
      { type: "block", reason_code: "tool_policy", text: "example_tool is blocked by the configured policy" }]));
  });

  it("echoes input_digest byte for byte", () => {
    const text = invoke();
    expect(answer(text).input_digest).toBe((JSON.parse(text) as Req).input_digest);
  });

  it("answers block_not_admitted when it may not block", () => {
    expect(answer(invoke((r) => { r.allowed_effects = ["observe"]; }))).toEqual(failed("block_not_admitted"));
  });

  it("observes other tools, and returns no effects when observe is not admitted", () => {
    const other = (r: Req) => { r.event.tool.native_name = "other_tool"; };
    expect(withoutDigest(answer(invoke(other)))).toEqual(ok([observe("tool_seen")]));
    expect(withoutDigest(answer(invoke((r) => { other(r); r.allowed_effects = ["block"]; })))).toEqual(ok([]));
  });

  it("only observes a listed tool after it ran", () => {
    expect(withoutDigest(answer(invoke((r) => after(r, "check", ["observe"]))))).toEqual(ok([observe("tool_seen")]));
  });

  it("answers deadline_exceeded, not a late ok, once budget_ms ran out (counted from its start); within it, the decision", () => {
    expect(answer(invoke((r) => { r.budget_ms = 1; }))).toEqual(failed("deadline_exceeded"));
    expect(withoutDigest(answer(invoke((r) => { r.budget_ms = 60_000; })))).toEqual(ok([
      { type: "block", reason_code: "tool_policy", text: "example_tool is blocked by the configured policy" }]));
  });

  it("answers invalid_operation_or_config for a bad config, operation or event", () => {
    for (const patch of [
      (r: Req) => { r.config = { blocked_tools: "example_tool" }; },
      (r: Req) => { r.operation = "record"; },
      (r: Req) => { r.operation = "redact"; r.allowed_effects = ["observe"]; },
    ]) expect(answer(invoke(patch))).toEqual(failed("invalid_operation_or_config"));
  });
});

describe("reference provider: invoke redact", () => {
  const both = ["observe", "replace_result"];

  it("replaces every occurrence of every term, once, without re-redacting", () => {
    const response = answer(invoke((r) => {
      after(r, "redact", both, "pw=hunter2; again hunter2, s3cret!");
      r.config.redact_terms = ["hunter2", "s3cret", "act"];
    }));
    expect(withoutDigest(response)).toEqual(ok([{ type: "replace_result", text: "pw=[redacted]; again [redacted], [redacted]!" }]));
  });

  it("accepts a projection with a command", () => {
    const response = answer(invoke((r) => {
      after(r, "redact", ["replace_result"], "hunter2");
      r.event.tool.result_projection.command = "cat pw.txt";
    }));
    expect(withoutDigest(response)).toEqual(ok([{ type: "replace_result", text: "[redacted]" }]));
  });

  it("observes instead when nothing can or need be replaced", () => {
    for (const patch of [
      (r: Req) => after(r, "redact", both, "nothing secret"),
      (r: Req) => after(r, "redact", both),
      (r: Req) => after(r, "redact", ["observe"], "hunter2"),
      (r: Req) => { after(r, "redact", both, "hunter2"); r.config = { blocked_tools: [] }; },
    ]) expect(withoutDigest(answer(invoke(patch)))).toEqual(ok([observe("result_seen")]));
    expect(withoutDigest(answer(invoke((r) => after(r, "redact", ["replace_result"], "clean"))))).toEqual(ok([]));
  });
});

describe("reference provider: rejected requests (exit 2, empty stdout)", () => {
  const describeRequest = `{"api_version":"${API}","method":"describe","request_id":"d-1"}`;
  const withConfig = (raw: string) => `{"api_version":"${API}","method":"validate_config","request_id":"v-1","config":{"k":${raw}}}`;

  it("enforces the 1 MiB request limit", () => {
    expect(answer(describeRequest.padEnd(MiB, " ")).status).toBe("ok");
    expectRejected(describeRequest.padEnd(MiB + 1, " "), /exceeds 1 MiB/);
    expectRejected(Buffer.alloc(5 * MiB, 0x20), /exceeds 1 MiB/);
  });

  it("rejects bad bytes and bad JSON", () => {
    expectRejected(Buffer.concat([Buffer.from(describeRequest.slice(0, -2)), Buffer.from([0xff, 0x22, 0x7d])]), /UTF-8/);
    expectRejected(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(describeRequest)]), /byte order mark/);
    for (const bad of ["", "   ", describeRequest.slice(0, -1), `${describeRequest.slice(0, -1)},}`,
      `${describeRequest} {}`, `${describeRequest}x`, `${describeRequest}\n${describeRequest}`,
      `${describeRequest.slice(0, -1)} /* c */}`, withConfig("01"), withConfig("1."), withConfig("NaN"),
      withConfig("'x'"), withConfig('"tab\there"'), withConfig('"\\x"'), withConfig("[1,]")]) expectRejected(bad);
  });

  it("rejects duplicate keys, compared after decoding escapes", () => {
    expectRejected(`{"api_version":"${API}","method":"describe","request_id":"d-1","\\u0072equest_id":"d-2"}`, /duplicate key/);
    expectRejected(withConfig('{"a":1,"b":{},"\\u0061":2}'), /duplicate key/);
  });

  it("allows depth 32 and rejects depth 33", () => {
    // config is at depth 1 and config.k at depth 2, so n brackets put the innermost value at 2 + n.
    const nest = (n: number, inner: string) => `${"[".repeat(n)}${inner}${"]".repeat(n)}`;
    expect(answer(withConfig(nest(30, "1"))).error_code).toBe("invalid_config");
    expectRejected(withConfig(nest(31, "1")), /nesting/);
    expect(answer(withConfig(nest(31, ""))).error_code).toBe("invalid_config"); // empty array at depth 32
    expectRejected(withConfig(nest(32, "")), /nesting/);
    expectRejected("[".repeat(MiB), /nesting/);
  });

  it("rejects integers outside i64/u64 and non-finite numbers, but not tiny ones", () => {
    for (const fine of ["18446744073709551615", "-9223372036854775808", "1e-400", "-0"]) {
      expect(answer(withConfig(fine)).error_code).toBe("invalid_config");
    }
    for (const bad of ["18446744073709551616", "-9223372036854775809", "1".repeat(400), "1e400", "-1e400"]) {
      expectRejected(withConfig(bad), /outside i64|finite/);
    }
  });

  it("rejects lone surrogate escapes", () => {
    expect(answer(withConfig('"\\ud83d\\ude00"')).error_code).toBe("invalid_config");
    for (const bad of ['"\\ud800"', '"\\udc00"', '"\\ud800\\u0041"', '"\\ude00\\ud83d"']) expectRejected(withConfig(bad), /surrogate/);
  });

  it("rejects a bad envelope for every method", () => {
    for (const bad of [
      "[]", `{"api_version":"aw-provider/v1","method":"describe","request_id":"d-1"}`,
      `{"api_version":"${API}","method":"shutdown","request_id":"d-1"}`,
      `{"api_version":"${API}","method":"describe","request_id":"d 1"}`,
      `{"api_version":"${API}","method":"describe","request_id":"${"x".repeat(129)}"}`,
      `{"api_version":"${API}","method":"describe","request_id":""}`,
      `{"api_version":"${API}","method":"describe","request_id":"d-1","config":{}}`,
      `{"api_version":"${API}","method":"validate_config","request_id":"v-1"}`,
      `{"api_version":"${API}","method":"validate_config","request_id":"v-1","config":[]}`,
    ]) expectRejected(bad);
  });

  const badInvokes: Record<string, (r: Req) => void> = {
    "unknown top-level field": (r) => { r.extra = 1; },
    "missing field": (r) => { delete r.config_revision; },
    "bad operation": (r) => { r.operation = "check it"; },
    "uppercase revision": (r) => { r.config_revision = "A".repeat(64); },
    "budget 0": (r) => { r.budget_ms = 0; },
    "budget over 2^53-1": (r) => { r.budget_ms = 9007199254740992; },
    "budget as string": (r) => { r.budget_ms = "5000"; },
    "no effects": (r) => { r.allowed_effects = []; },
    "duplicate effects": (r) => { r.allowed_effects = ["observe", "observe"]; },
    "unknown effect": (r) => { r.allowed_effects = ["observe", "deny"]; },
    "config not an object": (r) => { r.config = null; },
    "unknown event field": (r) => { r.event.extra = true; },
    "unknown event name": (r) => { r.event.name = "session.start"; },
    "unknown agent field": (r) => { r.event.agent.pid = 1; },
    "unknown adapter": (r) => { r.event.agent.adapter = "claude"; },
    "binding_id of 129 code points": (r) => { r.event.agent.binding_id = "é".repeat(129); },
    "empty session_id": (r) => { r.event.session_id = ""; },
    "unknown tool field": (r) => { r.event.tool.args = {}; },
    "missing tool result": (r) => { delete r.event.tool.result; },
    "empty native_name": (r) => { r.event.tool.native_name = ""; },
    "native not an object": (r) => { r.event.native = []; },
    "tool.before with a result": (r) => { r.event.tool.result = "done"; },
    "projection on tool.before": (r) => { r.event.tool.result_projection = projection("x"); },
    "projection without text": (r) => { after(r, "redact", ["observe"], "x"); delete r.event.tool.result_projection.text; },
    "projection with extra key": (r) => { after(r, "redact", ["observe"], "x"); r.event.tool.result_projection.lines = 1; },
    "projection with a number": (r) => { after(r, "redact", ["observe"], "x"); r.event.tool.result_projection.status = 0; },
    "ask on tool.before": (r) => { r.allowed_effects = ["observe", "ask"]; },
    "replace_result on tool.before": (r) => { r.allowed_effects = ["replace_result"]; },
    "block on tool.after": (r) => { after(r, "check", ["observe", "block"]); },
    "replace_input on tool.after": (r) => { after(r, "check", ["replace_input"]); },
  };
  it.each(Object.entries(badInvokes))("rejects an invoke with %s", (_name, patch) => expectRejected(invoke(patch)));

  it("accepts 128 non-ASCII code points, the largest budget, and an integral budget written 5000.0", () => {
    expect(answer(invoke((r) => { r.event.agent.binding_id = "é".repeat(128); })).status).toBe("ok");
    expect(answer(invoke((r) => { r.budget_ms = 9007199254740991; })).status).toBe("ok");
    expectRejected(invoke().replace('"budget_ms":5000', '"budget_ms":18446744073709551615'), /budget_ms/);
    const request = baseInvoke();
    // 5000.0 ms, not 5.0: a budget of 5 ms runs out before the answer (deadline_exceeded).
    const text = JSON.stringify(request).replace('"budget_ms":5000', '"budget_ms":5000.0');
    const digest = digestModule.requestDigest(jsonModule.parseStrictJson(text));
    expect(answer(text.replace(/}$/, `,"input_digest":"${digest}"}`)).status).toBe("ok");
    expectRejected(text.replace("5000.0", "1.5").replace(/}$/, `,"input_digest":"${digest}"}`), /budget_ms/);
  });

  it("rejects a malformed or mismatched input_digest", () => {
    const request = JSON.parse(invoke()) as Req;
    for (const digest of ["sha256:" + "A".repeat(64), "sha256:abc", "sha1:" + "0".repeat(40), 42]) {
      expectRejected(JSON.stringify({ ...request, input_digest: digest }), /input_digest/);
    }
    expectRejected(JSON.stringify({ ...request, input_digest: `sha256:${"0".repeat(64)}` }), /does not match/);
    expectRejected(JSON.stringify({ ...request, request_id: "inv-2" }), /does not match/);
  });

  it("accepts a digest bound as either serde_json version binds it (ryu 1e21, zmij 1e+21), and nothing else", () => {
    const vectors = JSON.parse(readFileSync(new URL("../fixtures/provider/dialect-vectors.json", import.meta.url), "utf8")) as { requests: { request: string; ryu: { digest: string }; zmij: { digest: string } }[] };
    const floats = JSON.parse(invoke()) as Req;
    floats.event.tool.input = { exponent_floats: [1.7976931348623157e308, 1e21, 1e-7] };
    const { input_digest: _old, ...unbound } = floats;
    const text = JSON.stringify(unbound);
    const ryu = digestModule.requestDigest(jsonModule.parseStrictJson(text), "ryu");
    const zmij = digestModule.requestDigest(jsonModule.parseStrictJson(text), "zmij");
    expect(ryu).not.toBe(zmij);
    expect(answer(JSON.stringify({ ...unbound, input_digest: ryu })).status).toBe("ok");
    expect(answer(JSON.stringify({ ...unbound, input_digest: zmij })).status).toBe("ok");
    expectRejected(JSON.stringify({ ...unbound, input_digest: `sha256:${"0".repeat(64)}` }), /does not match/);
    // Its canonical forms are serde_json 1.0.87's and 1.0.154's, byte for byte (except for literals
    // serde_json's own reader rounds differently, the third vector: see the caveat in digest.mjs).
    for (const v of vectors.requests.slice(0, 2)) {
      const parsed = jsonModule.parseStrictJson(v.request);
      expect(digestModule.requestDigest(parsed, "ryu")).toBe(v.ryu.digest);
      expect(digestModule.requestDigest(parsed, "zmij")).toBe(v.zmij.digest);
    }
  });

  it("rejects an invoke whose re-encoded form exceeds 1 MiB", () => {
    const text = invoke((r) => { r.event.native = { n: "PLACEHOLDER" }; })
      .replace('"PLACEHOLDER"', `[${Array(200_000).fill("1e15").join(",")}]`);
    expect(Buffer.byteLength(text)).toBeLessThan(MiB);
    expectRejected(text, /re-encoded/);
  });
});

describe("reference provider: digest vectors", () => {
  it("formats f64 like ryu", () => {
    const table: Array<[number, string]> = [[1, "1.0"], [1.25, "1.25"], [5, "5.0"], [100, "100.0"], [0, "0.0"], [-0, "-0.0"],
      [1e15, "1000000000000000.0"], [1e16, "1e16"], [123456789012345680, "1.2345678901234568e17"], [12.5, "12.5"],
      [0.0001, "0.0001"], [0.00001, "0.00001"], [1e-7, "1e-7"], [1.5e-7, "1.5e-7"], [-2.5, "-2.5"], [0.1, "0.1"],
      [5e-324, "5e-324"], [1.7976931348623157e308, "1.7976931348623157e308"], [123456.789, "123456.789"]];
    for (const [x, text] of table) expect(digestModule.formatF64(x)).toBe(text);
  });

  // Raw wire text: escaped keys, float spellings, "-0", "\/". Cross-checked against Rust serde_json 1.0.
  const raw = String.raw`{"api_version":"aw-provider/v1alpha1","method":"invoke","request_id":"vec-1","operation":"check",` +
    `"config_revision":"${"a".repeat(64)}","budget_ms":5000,"allowed_effects":["observe"],"config":{"blocked_tools":[]},` +
    String.raw`"event":{"name":"tool.after","agent":{"adapter":"hermes","binding_id":"b","instance_id":"i"},"session_id":"s",` +
    String.raw`"tool":{"name":"t","native_name":"t","call_id":"c","input":{"\ud83d\ude00":1.25,"\uff5a":0.5e1,"\u00e9":100,` +
    String.raw`"z":-0,"a":1e16,"b\/":"\u00e9\t\u001f\"\\\/"},"result":[1E15,0.0001,1e-7,1.5e-7,-2.50,0e0,-1e-400,12.5e0]},"native":{}}}`;
  const expected = String.raw`{"allowed_effects":["observe"],"api_version":"aw-provider/v1alpha1","budget_ms":5000,` +
    `"config":{"blocked_tools":[]},"config_revision":"${"a".repeat(64)}",` +
    String.raw`"event":{"agent":{"adapter":"hermes","binding_id":"b","instance_id":"i"},"name":"tool.after","native":{},` +
    String.raw`"session_id":"s","tool":{"call_id":"c","input":{"a":1e16,"b/":"é\t\u001f\"\\/","z":-0.0,"é":100,"ｚ":5.0,"😀":1.25},` +
    String.raw`"name":"t","native_name":"t","result":[1000000000000000.0,0.0001,1e-7,1.5e-7,-2.5,0.0,-0.0,12.5]}},` +
    `"method":"invoke","operation":"check","request_id":"vec-1"}`;
  const DIGEST = "sha256:ea54af2e6554e6c9275c0e2aef85f6dd374e17e03af4355d3628213036a77e1d";

  it("serializes like serde_json: code point key order, minimal escapes, ryu floats", () => {
    expect(digestModule.canonicalJson(jsonModule.parseStrictJson(raw))).toBe(expected);
    expect(`sha256:${sha256(expected)}`).toBe(DIGEST);
    expect(digestModule.requestDigest(jsonModule.parseStrictJson(raw))).toBe(DIGEST);
  });

  it("accepts the vector end to end and rejects digests of other serializations", () => {
    const signed = (digest: string) => raw.replace(/}$/, `,"input_digest":"${digest}"}`);
    expect(answer(signed(DIGEST))).toEqual({ ...ok([observe("tool_seen")]), request_id: "vec-1", input_digest: DIGEST });
    const utf16Order = expected.replace('"ｚ":5.0,"😀":1.25', '"😀":1.25,"ｚ":5.0');
    const rawFloats = expected.replace('"z":-0.0', '"z":-0');
    for (const wrong of [utf16Order, rawFloats]) expectRejected(signed(`sha256:${sha256(wrong)}`), /does not match/);
  });

  it("matches a request digest computed with Rust serde_json", () => {
    const text = invoke((r) => { r.request_id = "demo-3"; r.config = { blocked_tools: ["example_tool"] }; r.event.agent.binding_id = "b1";
      r.event.session_id = null; r.event.tool = { name: "example_tool", native_name: "example_tool", call_id: null, input: {}, result: null };
      r.event.native = {}; });
    expect((JSON.parse(text) as Req).input_digest).toBe("sha256:7245703f4b80552951bd491d4a5d3f9f7e03a783dea13362de55fdc1f7464204");
  });
});
