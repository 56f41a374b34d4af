import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson } from "../../../src/core/json/index.js";
import { computeInputDigest, dialectSensitive } from "../../../src/core/provider/digest.js";
import type { JsonObject } from "../../../src/core/provider/types.js";
import { inDialect } from "../../../src/fuzz/provider/dialect.js";
import { hostileCaseArb, validCaseArb } from "../../../src/fuzz/provider/index.js";
import { evaluateProviderCase } from "../../../src/fuzz/provider-run.js";
import type { ProviderCase } from "../../../src/fuzz/types.js";
import { ctx } from "./fixtures.js";

const FAKE = join(import.meta.dirname, "../../../dist/src/mocks/provider.js");
const target = { argv: [process.execPath, FAKE, "--fault", "zmij-only"], config: ctx.config, timeoutMs: 10_000 };
const digestOf = (c: ProviderCase): string => String((parseJson(c.bytes, { numbers: "lossless" }).value as JsonObject).input_digest);

// The generators put exponent floats (1e21, 1.7976931348623157e308) in tool values: such cases are dialect-sensitive.
const sensitive = (c: ProviderCase): boolean => dialectSensitive((c.base ?? c).bytes);
const valid = fc.sample(validCaseArb(ctx), { seed: 3, numRuns: 20 }).find(sensitive) as ProviderCase;
const hostiles = fc.sample(hostileCaseArb(ctx), { seed: 1, numRuns: 60 }).filter(sensitive);
const unknownField = hostiles.find((c) => c.purpose === "hostile:unknown-field") as ProviderCase;
const duplicate = hostiles.find((c) => c.purpose === "hostile:duplicate-keys") as ProviderCase;

describe("fuzz cases and digest dialects", () => {
  it("moves a case to another dialect: valid requests rebound, the hostile defect kept", () => {
    const moved = inDialect(valid, "zmij");
    expect(digestOf(moved)).toBe(computeInputDigest(valid.bytes, "zmij"));
    expect(digestOf(moved)).not.toBe(digestOf(valid));
    expect(digestOf(inDialect(unknownField, "zmij"))).toBe(computeInputDigest(unknownField.bytes, "zmij"));
    // Text-built probes carry the digest of their base under the hostile id: swapped, the duplicate stays.
    const dup = inDialect(duplicate, "zmij");
    expect(Buffer.from(dup.bytes).toString()).not.toContain(digestOf(duplicate));
    expect(parseJson(dup.bytes).issues.map((i) => i.kind)).toContain("duplicate-key");
    expect(inDialect(duplicate, "ryu")).toBe(duplicate);
  });

  it("a Provider that verifies only the other dialect gets no valid-request failure: refused cases are resent", async () => {
    expect(await evaluateProviderCase(valid, target)).toEqual([]);
    expect(await evaluateProviderCase(unknownField, target)).toEqual([]);
    expect(await evaluateProviderCase(duplicate, target)).toEqual([]);
    // Bound in its dialect from the start, the same case passes without a resend.
    expect(await evaluateProviderCase(valid, { ...target, dialect: "zmij" })).toEqual([]);
  });
});
