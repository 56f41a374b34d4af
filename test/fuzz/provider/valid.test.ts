import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson, wireJson, type JsonValue } from "../../../src/core/json/index.js";
import { PROFILE_EFFECTS, type JsonObject, type ToolEvent } from "../../../src/core/provider/types.js";
import { ADAPTERS, invocableOps, LIMIT_NUMBERS, nestingOf, validCaseArb } from "../../../src/fuzz/provider/index.js";
import { codePoints, ctx, event, isValidCase, strings, text, tool } from "./fixtures.js";

const cases = fc.sample(validCaseArb(ctx), { seed: 7, numRuns: 400 });
const value = (c: (typeof cases)[number]): JsonObject => c.value as JsonObject;

describe("valid provider cases", () => {
  it("are schema-valid, strictly parseable and bound to their bytes", () => {
    // Requests over 64 KiB (a few percent, up to 1 MiB each) are checked the same way in sized.test.ts.
    for (const c of cases.filter((x) => x.bytes.length <= 65536)) {
      expect(isValidCase(c), c.label).toBe(true);
      expect(text(c)).toBe(wireJson(value(c)));
      expect(parseJson(c.bytes).issues).toEqual([]);
    }
  });

  it("invoke only what the profile admits, with the context's config", () => {
    for (const c of cases) {
      const v = value(c);
      const name = event(c).name as ToolEvent;
      const op = ctx.operations.find((o) => o.name === v.operation);
      expect(op?.events).toContain(name);
      const effects = v.allowed_effects as string[];
      expect(effects.length).toBeGreaterThan(0);
      expect(new Set(effects).size).toBe(effects.length);
      for (const e of effects) expect(op?.effects.includes(e) && PROFILE_EFFECTS[name].includes(e)).toBe(true);
      expect(v.config).toEqual(ctx.config);
      expect(v.config_revision).toBe(ctx.configRevision);
      expect(v.budget_ms).toBe(ctx.budgetMs);
      if (name === "tool.before") expect(tool(c).result).toBeNull();
      if ("result_projection" in tool(c)) expect(effects).toContain("replace_result");
      expect(c.label.startsWith(`${String(v.operation)} ${name}`)).toBe(true);
    }
    expect(invocableOps(ctx).map((p) => `${p.operation} ${p.event} ${p.effects.join(",")}`)).toEqual([
      "check tool.before observe,block",
      "check tool.after observe",
      "redact tool.after observe,replace_result",
    ]);
  });

  it("reach the boundaries inside every bound", () => {
    const lengths = (get: (c: (typeof cases)[number]) => JsonValue): Set<number | null> =>
      new Set(cases.map((c) => { const s = get(c); return typeof s === "string" ? codePoints(s) : null; }));
    const names = lengths((c) => tool(c).name as string);
    for (const n of [1, 200, 201, 1023, 1024]) expect(names).toContain(n);
    for (const n of [1, 200, 201, 1023, 1024]) expect(lengths((c) => tool(c).native_name as string)).toContain(n);
    for (const n of [1, 128]) expect(lengths((c) => value(c).request_id as string)).toContain(n);
    for (const n of [1, 128]) expect(lengths((c) => (event(c).agent as JsonObject).binding_id as string)).toContain(n);
    for (const get of [(c: (typeof cases)[number]) => event(c).session_id, (c: (typeof cases)[number]) => tool(c).call_id, (c: (typeof cases)[number]) => (event(c).agent as JsonObject).instance_id]) {
      for (const n of [null, 1, 512]) expect(lengths((c) => get(c) as JsonValue)).toContain(n);
    }
    expect(new Set(cases.map((c) => (event(c).agent as JsonObject).adapter))).toEqual(new Set(ADAPTERS));
    const depths = new Set(cases.map((c) => nestingOf(tool(c).input as JsonValue)));
    for (const d of [0, 20, 28, 29]) expect(depths).toContain(d);
    expect(Math.max(...depths)).toBe(29);
    expect(cases.some((c) => (c.label.includes("tool name of 1024 chars")) && codePoints(tool(c).name as string) === 1024)).toBe(true);
    expect(cases.some((c) => c.label.includes("tool.input nested 29 deep"))).toBe(true);
    expect(cases.some((c) => tool(c).name === "example_tool" || tool(c).native_name === "example_tool")).toBe(true);
  });

  it("carry numbers at the limits and values of every JSON type", () => {
    const wires = cases.map((c) => wireJson(tool(c).input as JsonValue) + wireJson(tool(c).result as JsonValue));
    for (const { value: n } of LIMIT_NUMBERS) expect(wires.some((w) => w.includes(wireJson(n)))).toBe(true);
    expect(cases.some((c) => c.label.includes("tool.input has u64 max") && text(c).includes("18446744073709551615"))).toBe(true);
    const kinds = (v: JsonValue): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "bigint" ? "number" : typeof v);
    for (const where of ["input", "result"] as const) {
      const seen = new Set(cases.filter((c) => event(c).name === "tool.after").map((c) => kinds(tool(c)[where] as JsonValue)));
      expect(seen).toEqual(new Set(["null", "boolean", "number", "string", "array", "object"]));
    }
  });

  it("put awkward Unicode in tool names, inputs and results", () => {
    const all = cases.flatMap((c) => strings(tool(c)));
    for (const ch of ["\u{1F600}", "\u202E", "\u0301", "\u0000", "\u2028", "\u2029", '"', "\\"]) expect(all.some((s) => s.includes(ch))).toBe(true);
    expect(cases.some((c) => /[^\x00-\x7f]/.test(tool(c).name as string))).toBe(true);
  });

  it("send result_projection sometimes, with and without command, only with replace_result", () => {
    const replacing = cases.filter((c) => (value(c).allowed_effects as string[]).includes("replace_result"));
    const projections = replacing.map((c) => tool(c).result_projection as JsonObject | undefined);
    expect(projections.some((p) => p === undefined)).toBe(true);
    expect(projections.some((p) => p !== undefined && "command" in p)).toBe(true);
    expect(projections.some((p) => p !== undefined && !("command" in p))).toBe(true);
  });

  it("takes json-schema-faker natives that vary", () => {
    expect(new Set(cases.map((c) => wireJson(event(c).native as JsonValue))).size).toBeGreaterThan(50);
  });

  it("is deterministic by seed", () => {
    const again = fc.sample(validCaseArb(ctx), { seed: 7, numRuns: 400 });
    expect(again.map(text)).toEqual(cases.map(text));
    expect(again.map((c) => c.label)).toEqual(cases.map((c) => c.label));
  });

  it("refuses a context it cannot invoke", () => {
    expect(() => validCaseArb({ ...ctx, operations: [{ name: "x", events: ["turn.stop"], effects: ["observe"] }] })).toThrow(/no operation/);
    expect(() => validCaseArb({ ...ctx, configRevision: "A".repeat(64) })).toThrow(/configRevision/);
    const afterOnly = { ...ctx, operations: [{ name: "redact", events: ["tool.after"], effects: ["replace_result"] }] };
    expect(fc.sample(validCaseArb(afterOnly), { seed: 1, numRuns: 20 }).every((c) => event(c).name === "tool.after")).toBe(true);
    expect(() => validCaseArb(afterOnly, { events: ["tool.before"] })).toThrow(/no operation admits tool.before/);
  });

  it("can be restricted to one event or to requests with a result_projection", () => {
    const before = fc.sample(validCaseArb(ctx, { events: ["tool.before"] }), { seed: 2, numRuns: 50 });
    expect(before.every((c) => isValidCase(c) && event(c).name === "tool.before" && tool(c).result === null)).toBe(true);
    const projected = fc.sample(validCaseArb(ctx, { projection: true }), { seed: 2, numRuns: 50 });
    expect(projected.every((c) => isValidCase(c) && "result_projection" in tool(c) && value(c).operation === "redact")).toBe(true);
  });
});

describe("shrinking", () => {
  it("a tool name of 201 characters or more shrinks to exactly 201", () => {
    const result = fc.check(fc.property(validCaseArb(ctx), (c) => codePoints(tool(c).name as string) < 201), { seed: 42 });
    expect(result.failed).toBe(true);
    expect(codePoints(tool(result.counterexample![0]).name as string)).toBe(201);
  });

  it("a tool.input nested 20 or more deep shrinks to exactly 20", () => {
    const result = fc.check(fc.property(validCaseArb(ctx), (c) => nestingOf(tool(c).input as JsonValue) < 20), { seed: 42 });
    expect(result.failed).toBe(true);
    const shrunk = result.counterexample![0];
    expect(nestingOf(tool(shrunk).input as JsonValue)).toBe(20);
    expect(shrunk.label).toContain("tool.input nested 20 deep");
  });
});
