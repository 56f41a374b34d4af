import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { canonicalJson, parseJson, wireJson, type JsonValue } from "../../../src/core/json/index.js";
import { computeInputDigest, configRevision } from "../../../src/core/provider/digest.js";
import { KitError } from "../../../src/core/errors.js";

interface Vector {
  name: string;
  request: string;
  canonical: string;
  digest: string;
}

const vectors = (JSON.parse(readFileSync(resolve(import.meta.dirname, "../../fixtures/provider/digest-vectors.json"), "utf8")) as { vectors: Vector[] }).vectors;

describe("input_digest", () => {
  it("has serde_json-checked vectors to test against", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(2);
  });

  for (const vector of vectors) {
    it(`matches serde_json for ${vector.name}`, () => {
      const parsed = parseJson(vector.request, { numbers: "lossless" });
      expect(parsed.ok).toBe(true);
      expect(canonicalJson(parsed.value ?? null)).toBe(vector.canonical);
      expect(computeInputDigest(vector.request)).toBe(vector.digest);
      // The digest ignores an input_digest already present, whatever its value.
      const bound = vector.request.replace(/}$/, `,"input_digest":"sha256:${"0".repeat(64)}"}`);
      expect(computeInputDigest(bound)).toBe(vector.digest);
    });
  }

  it("gives the same digest for a value and for its wire bytes", () => {
    const value = { api_version: "aw-provider/v1alpha1", method: "invoke", n: 1.5, big: 18446744073709551615n, s: "é\u2028" };
    const wire = '{"api_version":"aw-provider/v1alpha1","method":"invoke","n":1.5,"big":18446744073709551615,"s":"é\u2028"}';
    expect(computeInputDigest(value)).toBe(computeInputDigest(wire));
    expect(computeInputDigest(new TextEncoder().encode(wire))).toBe(computeInputDigest(wire));
  });

  it("binds a value with long strings, escapes and big numbers as reading its wire text back would", () => {
    const long = (c: string): string => c.repeat(5000);
    const value = {
      api_version: "aw-provider/v1alpha1",
      z: long("x"),
      a: { pad: long("é\n\"\u0001"), n: 1.5, big: 18446744073709551615n, list: [long("y"), long("y"), 1e21] },
      mixed: long("😀"), // surrogate pairs
      input_digest: "sha256:0",
    };
    const wire = wireJson(value);
    for (const dialect of ["ryu", "zmij"] as const) expect(computeInputDigest(value, dialect)).toBe(computeInputDigest(wire, dialect));
    // A lone surrogate does not read back as one plain value: both ways refuse it.
    const lone = { s: `${long("x")}\ud800` };
    expect(() => computeInputDigest(lone)).toThrow(KitError);
    expect(() => computeInputDigest(wireJson(lone))).toThrow(KitError);
  });

  it("binds a value with megabyte strings (hashed in parts) as reading its wire text back would", () => {
    const mega = "x".repeat(1 << 20);
    const value = { api_version: "aw-provider/v1alpha1", event: { tool: { input: { padding: mega, tail: `${mega}"` } } }, after: mega, n: 1e21 };
    const wire = wireJson(value);
    for (const dialect of ["ryu", "zmij"] as const) expect(computeInputDigest(value, dialect)).toBe(computeInputDigest(wire, dialect));
    expect(computeInputDigest({ ...value, after: `${mega.slice(1)}y` })).not.toBe(computeInputDigest(value));
  });

  const numberArb = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.constantFrom(-0, 1e21, 1e20, 2 ** 64, -(2 ** 63), 18446744073709551615n, 18446744073709551616n, -9223372036854775809n, 1.7976931348623157e308, 5e-324),
  );
  const valueArb = fc.letrec<{ value: JsonValue }>((tie) => ({
    value: fc.oneof(
      { maxDepth: 4 },
      numberArb,
      fc.string({ unit: "binary" }),
      fc.constantFrom(null, true, false),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.string({ unit: "binary", maxLength: 6 }), tie("value"), { maxKeys: 4 }),
    ),
  })).value;

  test.prop([valueArb, fc.constantFrom("ryu" as const, "zmij" as const)], { numRuns: 400 })("binds a value as reading its wire text back would, or refuses it alike", (inner, dialect) => {
    // Written straight from the value, or written, read back and rewritten: one digest, or one refusal.
    const value = { api_version: "aw-provider/v1alpha1", inner, n: inner };
    const wire = (): string => wireJson(value);
    let expected: string | undefined;
    try {
      expected = computeInputDigest(wire(), dialect);
    } catch {
      expected = undefined;
    }
    if (expected === undefined) expect(() => computeInputDigest(value, dialect)).toThrow();
    else expect(computeInputDigest(value, dialect)).toBe(expected);
  });

  test.prop([fc.json({ maxDepth: 3 }), fc.string({ unit: "binary", minLength: 4096, maxLength: 6000 })])("gives the wire text's digest for values with long strings", (json, long) => {
    const value = { inner: JSON.parse(json) as JsonValue, long, again: [long] };
    let wire: string;
    try {
      wire = wireJson(value);
      computeInputDigest(wire);
    } catch {
      // Lone surrogates: neither way binds them.
      expect(() => computeInputDigest(value)).toThrow();
      return;
    }
    expect(computeInputDigest(value)).toBe(computeInputDigest(wire));
  });

  it("binds the spelling of numbers as serde reads them: 1 and 1.0 differ", () => {
    expect(computeInputDigest('{"a":1}')).not.toBe(computeInputDigest('{"a":1.0}'));
    expect(computeInputDigest('{"a":1.0}')).toBe(computeInputDigest('{"a":1e0}'));
  });

  it("refuses requests that are not one unambiguous object", () => {
    for (const bad of ['{"a":1,"a":2}', "[1]", '{"a":1} {}', "{", '{"a":"\\ud800"}']) {
      expect(() => computeInputDigest(bad)).toThrow(KitError);
    }
  });

  it("computes config_revision as lowercase sha256 hex of the exact document", () => {
    expect(configRevision("{}")).toBe("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
    expect(configRevision('{ }')).not.toBe(configRevision("{}"));
    expect(configRevision("{}")).toMatch(/^[0-9a-f]{64}$/);
  });
});
