/**
 * Our provider schemas against the upstream aw-provider/v1alpha1 schemas.
 *
 * The contract (spec/provider-protocol.md) is newer than the upstream schemas in two places,
 * and ours follow the contract:
 *   - requests: event.tool.result_projection (tool.after only);
 *   - responses: effect `text` (required on replace_result, optional nonempty on block,
 *     forbidden on observe, ask and replace_input).
 * The contract also says "before-tool result must be null", which the upstream library
 * enforces in code but the upstream schema does not encode; ours does.
 * Everything else must agree. Messages are generated from every oneOf branch of all four
 * schemas with json-schema-faker and cross-validated.
 *
 * The upstream schemas are read from ../shared/upstream (never copied into the project). A
 * clone without that folder skips the comparisons with a one-line reason; the hand-written
 * cases still run against our schemas alone, which are the project's own fixtures.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { generateSync, type JsonSchema } from "json-schema-faker";
import { beforeAll, describe, expect, it } from "vitest";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type SchemaDoc = { oneOf: JsonSchema[]; $defs?: Record<string, JsonSchema>; [key: string]: unknown };

const ROOT = resolve(import.meta.dirname, "../..");
const UPSTREAM = resolve(ROOT, "../shared/upstream/aw-provider");
const DOC_EXAMPLES = resolve(ROOT, "../shared/upstream/fixtures/anolisa/provider-protocol.doc-examples.jsonl");
const HAVE_UPSTREAM = existsSync(resolve(UPSTREAM, "request-v1alpha1.schema.json")) && existsSync(resolve(UPSTREAM, "response-v1alpha1.schema.json"));
/** The one-line reason the upstream comparisons are skipped on a clone without ../shared. */
const WITHOUT_UPSTREAM = "skipped: ../shared/upstream is absent (a clone without the shared folder), nothing to compare with";
const upstreamTitle = (title: string): string => (HAVE_UPSTREAM ? title : `${title} (${WITHOUT_UPSTREAM})`);

/** Generated messages per oneOf branch, and the fewest valid ones a branch may yield. */
const PER_BRANCH = 150;
const MIN_VALID = 120;
const EFFECTS = ["observe", "block", "ask", "replace_input", "replace_result"] as const;

function readJson(path: string, what: string): unknown {
  if (!existsSync(path)) {
    throw new Error(
      `${what} not found at ${path}. The upstream reference data must be present in ../shared/upstream ` +
        "(relative to the repository root); this test compares our schemas with it and cannot pass without it.",
    );
  }
  return JSON.parse(readFileSync(path, "utf8")) as unknown;
}

function readSchema(path: string, what: string): SchemaDoc {
  const schema = readJson(path, what) as SchemaDoc;
  if (!Array.isArray(schema.oneOf) || schema.oneOf.length === 0) throw new Error(`${what}: expected a top-level oneOf`);
  return schema;
}

/** A branch of a schema as a standalone schema: the same $defs, so local $refs resolve. */
function branchSchema(schema: SchemaDoc, index: number): JsonSchema {
  const branch = schema.oneOf[index] as Record<string, unknown> | boolean;
  if (typeof branch === "boolean") throw new Error("boolean oneOf branch");
  return { ...branch, ...(schema.$defs !== undefined ? { $defs: schema.$defs } : {}) } as JsonSchema;
}

/**
 * json-schema-faker does not honour our if/then rules: every generated event comes out as
 * tool.before, and an effect breaks its own text rule about one time in three (so a list of up
 * to 64 effects is almost never valid). For generation only, our conditional definitions are
 * spelt out as one variant per case, built from the same definitions. The variants exclude each
 * other (by effect type, by event name), so anyOf means oneOf here; the faker leaves optional
 * properties out of oneOf branches, not of anyOf ones. Every generated message is still
 * validated against the real schema before use.
 */
function generationAid(schema: SchemaDoc): SchemaDoc {
  const defs: Record<string, JsonSchema> = { ...schema.$defs };
  const effect = defs.effect as { properties?: Record<string, JsonSchema> } | undefined;
  if (effect?.properties?.text !== undefined) {
    const reasonCode = effect.properties.reason_code as JsonSchema;
    const variants = EFFECTS.map((type) => {
      const text: Record<string, JsonSchema> =
        type === "replace_result"
          ? { text: { type: "string" } }
          : type === "block"
            ? { text: { type: "string", minLength: 1 } }
            : {};
      return {
        type: "object",
        additionalProperties: false,
        required: type === "replace_result" ? ["type", "text"] : ["type"],
        properties: { type: { const: type }, reason_code: reasonCode, ...text },
      } as JsonSchema;
    });
    defs.effect = { anyOf: variants };
  }
  const eventDef = defs.event as Record<string, unknown> | undefined;
  if (eventDef?.if !== undefined) {
    const { if: _if, then: _then, ...plain } = eventDef;
    const properties = plain.properties as Record<string, Record<string, unknown>>;
    const toolDef = properties.tool as { properties: Record<string, JsonSchema> };
    const { result_projection: _projection, ...beforeToolProperties } = toolDef.properties;
    const before = {
      ...plain,
      properties: {
        ...properties,
        name: { const: "tool.before" },
        tool: { ...toolDef, properties: { ...beforeToolProperties, result: { type: "null" } } },
      },
    };
    const after = { ...plain, properties: { ...properties, name: { const: "tool.after" } } };
    defs.event = { anyOf: [before, after] } as JsonSchema;
  }
  return { ...schema, $defs: defs };
}

interface Generated {
  messages: JsonObject[];
  attempts: number;
}

/** Deterministic messages from one branch, kept only when valid against the branch and the whole schema. */
function generateBranch(
  schema: SchemaDoc,
  index: number,
  validSchema: ValidateFunction,
  validBranch: ValidateFunction,
  seedBase: number,
): Generated {
  const source = branchSchema(generationAid(schema), index);
  const messages: JsonObject[] = [];
  let attempts = 0;
  while (messages.length < PER_BRANCH && attempts < PER_BRANCH * 2) {
    attempts++;
    // maxDepth: the default cuts nested $refs short (operations[].events come out as [null]).
    const message = generateSync(source, { seed: seedBase + attempts, maxDepth: 20 }) as Json;
    if (message === null || typeof message !== "object" || Array.isArray(message)) continue;
    if (validBranch(message) && validSchema(message)) messages.push(message);
  }
  return { messages, attempts };
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function event(message: JsonObject): JsonObject {
  return message.event as JsonObject;
}

function tool(message: JsonObject): JsonObject {
  return event(message).tool as JsonObject;
}

function effects(message: JsonObject): JsonObject[] {
  return Array.isArray(message.effects) ? (message.effects as JsonObject[]) : [];
}

/** Whether a message uses a field that only the newer contract (and our schema) knows. */
function usesNewerFields(message: JsonObject): boolean {
  if (message.method === "invoke" && "result_projection" in tool(message)) return true;
  return effects(message).some((effect) => "text" in effect);
}

/** The message without the newer contract's fields. */
function withoutNewerFields(message: JsonObject): JsonObject {
  const copy = clone(message);
  if (copy.method === "invoke") delete tool(copy).result_projection;
  for (const effect of effects(copy)) delete effect.text;
  return copy;
}

/**
 * The contract rules ours encodes and the upstream schema does not: a tool.before result is
 * null, and replace_result carries text. Returns the names of the rules the message breaks.
 */
function contractGaps(message: JsonObject): string[] {
  const gaps: string[] = [];
  if (message.method === "invoke" && event(message).name === "tool.before" && tool(message).result !== null) {
    gaps.push("tool.before result not null");
  }
  if (effects(message).some((effect) => effect.type === "replace_result" && !("text" in effect))) {
    gaps.push("replace_result without text");
  }
  return gaps;
}

/** The message with those contract rules satisfied (and nothing else changed). */
function closeContractGaps(message: JsonObject): JsonObject {
  const copy = clone(message);
  if (copy.method === "invoke" && event(copy).name === "tool.before") tool(copy).result = null;
  for (const effect of effects(copy)) if (effect.type === "replace_result" && !("text" in effect)) effect.text = "replacement";
  return copy;
}

function failures(validate: ValidateFunction, messages: readonly JsonObject[]): { message: JsonObject; errors: unknown }[] {
  return messages
    .filter((message) => !validate(message))
    .slice(0, 3)
    .map((message) => {
      validate(message);
      return { message, errors: validate.errors?.slice(0, 4) };
    });
}

type Kind = "request" | "response";

interface Side {
  schema: SchemaDoc;
  validate: ValidateFunction;
  branches: ValidateFunction[];
  generated: JsonObject[][];
}

const ours: Partial<Record<Kind, Side>> = {};
const upstream: Partial<Record<Kind, Side>> = {};

function side(map: Partial<Record<Kind, Side>>, kind: Kind): Side {
  const found = map[kind];
  if (found === undefined) throw new Error(`${kind} schemas were not loaded`);
  return found;
}

beforeAll(() => {
  // Ours: the kit's Ajv options (src/core/schema.ts) without strict mode. Strict mode only lints
  // a schema at compile time and never changes what it accepts; whether our schemas pass that
  // lint is test/schemas/kit-schemas.test.ts's business, so a lint failure there does not hide
  // the comparison here.
  const ourAjv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
  addFormats.default(ourAjv);
  // Upstream uses `not: {pattern}` and union types with string keywords, which strict mode rejects.
  const upstreamAjv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(upstreamAjv);
  // Branch validators only select generated messages; a lax Ajv keeps that independent of strictness.
  const branchAjv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(branchAjv);

  const load = (owner: "ours" | "upstream", kind: Kind, generate = true): Side => {
    const schema =
      owner === "ours"
        ? readSchema(resolve(ROOT, `schemas/provider/${kind}.schema.json`), `our ${kind} schema`)
        : readSchema(resolve(UPSTREAM, `${kind}-v1alpha1.schema.json`), `upstream ${kind} schema`);
    const validate = (owner === "ours" ? ourAjv : upstreamAjv).compile(schema);
    const branches = schema.oneOf.map((_, i) => branchAjv.compile(branchSchema(schema, i) as object));
    if (!generate) return { schema, validate, branches, generated: [] };
    const seedOffset = (owner === "ours" ? 1 : 2) * 100_000 + (kind === "request" ? 0 : 50_000);
    const generated = schema.oneOf.map((_, i) => {
      const { messages, attempts } = generateBranch(schema, i, validate, branches[i]!, seedOffset + i * 1000);
      if (messages.length < MIN_VALID) {
        throw new Error(
          `${owner} ${kind} branch ${i}: only ${messages.length} of ${attempts} generated messages were valid (need ${MIN_VALID})`,
        );
      }
      return messages;
    });
    return { schema, validate, branches, generated };
  };

  // Generated messages only serve the comparisons with upstream.
  ours.request = load("ours", "request", HAVE_UPSTREAM);
  ours.response = load("ours", "response", HAVE_UPSTREAM);
  if (!HAVE_UPSTREAM) return;
  upstream.request = load("upstream", "request");
  upstream.response = load("upstream", "response");
}, 30_000);

describe.skipIf(!HAVE_UPSTREAM)(upstreamTitle("schemas and generators"), () => {
  it("loads all four schemas with the same oneOf shape", () => {
    expect(side(ours, "request").schema.oneOf).toHaveLength(3);
    expect(side(upstream, "request").schema.oneOf).toHaveLength(3);
    expect(side(ours, "response").schema.oneOf).toHaveLength(4);
    expect(side(upstream, "response").schema.oneOf).toHaveLength(4);
  });

  it("generates a healthy number of valid messages from every branch", () => {
    for (const map of [ours, upstream]) {
      for (const kind of ["request", "response"] as const) {
        for (const messages of side(map, kind).generated) expect(messages.length).toBeGreaterThanOrEqual(MIN_VALID);
      }
    }
  });

  it("generates varied messages (event names, effect types, optional and newer fields)", () => {
    const count = (messages: readonly JsonObject[], test: (m: JsonObject) => boolean) => messages.filter(test).length;
    for (const map of [ours, upstream]) {
      const invokes = side(map, "request").generated[2]!;
      expect(count(invokes, (m) => event(m).name === "tool.before")).toBeGreaterThan(20);
      expect(count(invokes, (m) => event(m).name === "tool.after")).toBeGreaterThan(20);
      expect(count(invokes, (m) => event(m).session_id === null)).toBeGreaterThan(5);
      expect(count(invokes, (m) => typeof event(m).session_id === "string")).toBeGreaterThan(5);
      const allEffects = side(map, "response").generated[2]!.flatMap(effects);
      expect(new Set(allEffects.map((e) => e.type))).toEqual(new Set(EFFECTS));
      expect(count(allEffects, (e) => "reason_code" in e)).toBeGreaterThan(20);
      const statuses = side(map, "response").generated.flat().map((m) => m.status);
      expect(new Set(statuses)).toEqual(new Set(["ok", "error"]));
    }
    const ourInvokes = side(ours, "request").generated[2]!;
    const projected = ourInvokes.filter((m) => "result_projection" in tool(m));
    expect(projected.length).toBeGreaterThan(20);
    expect(count(projected, (m) => "command" in (tool(m).result_projection as JsonObject))).toBeGreaterThan(5);
    expect(count(projected, (m) => !("command" in (tool(m).result_projection as JsonObject)))).toBeGreaterThan(5);
    const ourEffects = side(ours, "response").generated[2]!.flatMap(effects);
    expect(count(ourEffects, (e) => e.type === "block" && "text" in e)).toBeGreaterThan(20);
    expect(count(ourEffects, (e) => e.type === "block" && !("text" in e))).toBeGreaterThan(20);
  });
});

describe.skipIf(!HAVE_UPSTREAM).each(["request", "response"] as const)(upstreamTitle("%s: upstream-generated messages against ours"), (kind) => {
  it("ours accepts every upstream message that keeps the contract rules upstream's schema leaves out", () => {
    const all = side(upstream, kind).generated.flat();
    const plain = all.filter((m) => contractGaps(m).length === 0);
    expect(plain.length).toBeGreaterThanOrEqual(MIN_VALID);
    expect(failures(side(ours, kind).validate, plain)).toEqual([]);
  });

  it("ours rejects the rest, and accepts them once only those rules are satisfied", () => {
    const all = side(upstream, kind).generated.flat();
    const gapped = all.filter((m) => contractGaps(m).length > 0);
    // Upstream's generator makes plenty of these (tool.before with any result; replace_result without text).
    expect(gapped.length).toBeGreaterThan(20);
    const validate = side(ours, kind).validate;
    expect(gapped.filter((m) => validate(m))).toEqual([]);
    expect(failures(validate, gapped.map(closeContractGaps))).toEqual([]);
  });
});

describe.skipIf(!HAVE_UPSTREAM).each(["request", "response"] as const)(upstreamTitle("%s: our generated messages against upstream"), (kind) => {
  it("upstream accepts every message of ours that does not use the newer fields", () => {
    const all = side(ours, kind).generated.flat();
    const plain = all.filter((m) => !usesNewerFields(m));
    expect(plain.length).toBeGreaterThanOrEqual(MIN_VALID);
    expect(failures(side(upstream, kind).validate, plain)).toEqual([]);
  });

  it("messages using the newer fields: upstream rejects them, and accepts them with those fields removed", () => {
    const all = side(ours, kind).generated.flat();
    const newer = all.filter(usesNewerFields);
    expect(newer.length).toBeGreaterThan(20);
    const validate = side(upstream, kind).validate;
    // Upstream objects are closed (additionalProperties: false), so the extra field is an error there.
    expect(newer.filter((m) => validate(m))).toEqual([]);
    expect(failures(validate, newer.map(withoutNewerFields))).toEqual([]);
  });
});

describe.skipIf(!HAVE_UPSTREAM)(upstreamTitle("every branch of ours agrees with upstream once the newer fields are removed"), () => {
  it("each generated message of every branch, stripped of the newer fields, is valid upstream", () => {
    // The invocation branch rarely yields a list without any text (lists run to 64 effects),
    // so besides the plain messages above, the stripped form is checked branch by branch.
    for (const kind of ["request", "response"] as const) {
      side(ours, kind).generated.forEach((messages, i) => {
        const stripped = messages.map(withoutNewerFields);
        expect(failures(side(upstream, kind).validate, stripped), `${kind} branch ${i}`).toEqual([]);
      });
    }
  });
});

/** A valid invoke request, written by hand. */
function invokeRequest(): JsonObject {
  return {
    api_version: "aw-provider/v1alpha1",
    request_id: "req-1",
    method: "invoke",
    operation: "check",
    config_revision: "0123456789abcdef".repeat(4),
    budget_ms: 5000,
    allowed_effects: ["observe", "block"],
    input_digest: `sha256:${"ab".repeat(32)}`,
    config: { blocked_tools: ["rm"] },
    event: {
      name: "tool.before",
      agent: { adapter: "qwenpaw", binding_id: "binding-1", instance_id: null },
      session_id: "session-1",
      tool: { name: "bash", native_name: "Bash", call_id: null, input: { command: "ls" }, result: null },
      native: { hook: "PreToolUse" },
    },
  };
}

function invocationResponse(...effectList: JsonObject[]): JsonObject {
  return {
    api_version: "aw-provider/v1alpha1",
    request_id: "req-1",
    status: "ok",
    input_digest: `sha256:${"ab".repeat(32)}`,
    effects: effectList,
  };
}

function afterRequest(): JsonObject {
  const request = invokeRequest();
  event(request).name = "tool.after";
  request.allowed_effects = ["observe", "replace_result"];
  tool(request).result = { stdout: "file-a\n", exit_code: 0 };
  return request;
}

const projection = { text: "file-a\n", status: "success", content_origin: "stdout", command: "ls" };

describe("hand-written cases", () => {
  /** Both verdicts; without ../shared the upstream one is taken as stated, so only ours is checked. */
  const verdict = (kind: Kind) => (message: unknown): { ours: boolean; upstream: boolean | "absent" } => ({
    ours: side(ours, kind).validate(message),
    upstream: HAVE_UPSTREAM ? side(upstream, kind).validate(message) : "absent",
  });
  const request = verdict("request");
  const response = verdict("response");
  const expectVerdict = (actual: { ours: boolean; upstream: boolean | "absent" }, message?: string) => ({
    toEqual: (wanted: { ours: boolean; upstream: boolean }) => expect(actual, message).toEqual(HAVE_UPSTREAM ? wanted : { ...wanted, upstream: "absent" }),
  });

  it.skipIf(!HAVE_UPSTREAM)(upstreamTitle("the upstream doc examples are valid against ours (and upstream)"), () => {
    const path = DOC_EXAMPLES;
    if (!existsSync(path)) throw new Error(`upstream doc examples not found at ${path}`);
    const lines = readFileSync(path, "utf8").split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThanOrEqual(5);
    let requests = 0;
    let responses = 0;
    for (const line of lines) {
      const message = JSON.parse(line) as JsonObject;
      const isRequest = "method" in message;
      if (isRequest) requests++;
      else responses++;
      const verdict = isRequest ? request(message) : response(message);
      expectVerdict(verdict, line).toEqual({ ours: true, upstream: true });
    }
    expect(requests).toBeGreaterThan(0);
    expect(responses).toBeGreaterThan(0);
  });

  it("the hand-written baselines are valid against both", () => {
    expectVerdict(request(invokeRequest())).toEqual({ ours: true, upstream: true });
    expectVerdict(request(afterRequest())).toEqual({ ours: true, upstream: true });
    expectVerdict(response(invocationResponse({ type: "block", reason_code: "tool_policy" }))).toEqual({ ours: true, upstream: true });
    expectVerdict(response(invocationResponse())).toEqual({ ours: true, upstream: true });
  });

  it("both reject an unknown top-level field, budget_ms 0, an uppercase digest and 6 allowed effects", () => {
    const unknown = { ...invokeRequest(), extra: true };
    const zeroBudget = { ...invokeRequest(), budget_ms: 0 };
    const upperDigest = { ...invokeRequest(), input_digest: `sha256:${"AB".repeat(32)}` };
    const upperRevision = { ...invokeRequest(), config_revision: "0123456789ABCDEF".repeat(4) };
    const sixEffects = { ...invokeRequest(), allowed_effects: [...EFFECTS, "observe"] };
    for (const message of [unknown, zeroBudget, upperDigest, upperRevision, sixEffects]) {
      expectVerdict(request(message)).toEqual({ ours: false, upstream: false });
    }
    expectVerdict(response({ ...invocationResponse(), extra: 1 })).toEqual({ ours: false, upstream: false });
    expectVerdict(response({ ...invocationResponse(), input_digest: `sha256:${"AB".repeat(32)}` })).toEqual({ ours: false, upstream: false });
  });

  it("a tool.before request with a non-null result: ours rejects it, the upstream schema does not encode that rule", () => {
    // spec/provider-protocol.md: "before-tool result must be null". The upstream library checks
    // it in code; its schema has `result: {}`. Ours follows the contract.
    for (const result of [{ stdout: "" }, "", 0, false, []]) {
      const message = invokeRequest();
      tool(message).result = result;
      expectVerdict(request(message)).toEqual({ ours: false, upstream: true });
    }
  });

  it("result_projection: ours accepts it on tool.after only; upstream rejects it everywhere", () => {
    const after = afterRequest();
    tool(after).result_projection = { ...projection };
    expectVerdict(request(after)).toEqual({ ours: true, upstream: false });

    const withoutCommand = afterRequest();
    tool(withoutCommand).result_projection = { text: "", status: "error", content_origin: "stderr" };
    expectVerdict(request(withoutCommand)).toEqual({ ours: true, upstream: false });

    const before = invokeRequest();
    tool(before).result_projection = { ...projection };
    expectVerdict(request(before)).toEqual({ ours: false, upstream: false });

    for (const broken of [
      { status: "success", content_origin: "stdout" },
      { ...projection, text: 1 },
      { ...projection, command: null },
      { ...projection, extra: "x" },
    ]) {
      const message = afterRequest();
      tool(message).result_projection = broken as Json;
      expectVerdict(request(message), JSON.stringify(broken)).toEqual({ ours: false, upstream: false });
    }
  });

  it("effect text: required on replace_result, optional nonempty on block, forbidden elsewhere; upstream rejects it", () => {
    expectVerdict(response(invocationResponse({ type: "replace_result", text: "new result" }))).toEqual({ ours: true, upstream: false });
    expectVerdict(response(invocationResponse({ type: "replace_result", text: "" }))).toEqual({ ours: true, upstream: false });
    expectVerdict(response(invocationResponse({ type: "replace_result" }))).toEqual({ ours: false, upstream: true });
    expectVerdict(response(invocationResponse({ type: "block", text: "use ls -a instead" }))).toEqual({ ours: true, upstream: false });
    expectVerdict(response(invocationResponse({ type: "block", text: "" }))).toEqual({ ours: false, upstream: false });
    expectVerdict(response(invocationResponse({ type: "block", text: 7 }))).toEqual({ ours: false, upstream: false });
    for (const type of ["observe", "ask", "replace_input"]) {
      expectVerdict(response(invocationResponse({ type, text: "x" })), type).toEqual({ ours: false, upstream: false });
      expectVerdict(response(invocationResponse({ type })), type).toEqual({ ours: true, upstream: true });
    }
  });
});
