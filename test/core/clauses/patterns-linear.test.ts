import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePattern } from "../../../src/core/clauses/patterns.js";

/** The regex translation the kit used before: the meaning the linear matcher must keep. */
function regexOf(pattern: string): RegExp {
  const trimmed = pattern.trim().replace(/\/+$/, "");
  let source = "";
  for (let i = 0; i < trimmed.length; i++) {
    const char = trimmed[i] as string;
    if (char === "*") {
      if (trimmed[i + 1] === "*") {
        source += ".*";
        i++;
      } else source += "[^/]*";
    } else source += char.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(trimmed.includes("*") ? `^${source}$` : `^${source}(?:/.*)?$`);
}

describe("clause patterns in linear time", () => {
  it("match exactly what the regex translation matched", () => {
    const pattern = fc.stringMatching(/^[ab/*-]{0,10}$/);
    const id = fc.stringMatching(/^[ab/-]{0,40}$/);
    fc.assert(
      fc.property(pattern, id, (p, i) => compilePattern(p).test(i) === regexOf(p).test(i)),
      { numRuns: 3000, seed: 9 },
    );
  });

  it("match ids longer than one 32-bit word of positions", () => {
    const id = `agent-cli/${"a".repeat(40)}/${"b".repeat(40)}-c`;
    for (const p of ["agent-cli/*/*-c", "**-c", "agent-cli/*a/b*", "*/**/*", "agent-cli/a*a/**b-c", "**/b*b-*", "*", "agent-cli/*", "**a**b**c"]) {
      expect(compilePattern(p).test(id), p).toBe(regexOf(p).test(id));
    }
  });

  it("do not backtrack: a list entry with many wildcards against a long id is immediate", () => {
    // With the regex translation this pair took minutes (eight `*` already took 20 s).
    const started = performance.now();
    const hostile = compilePattern(`agent-cli/${"*a".repeat(60)}z`);
    expect(hostile.test(`agent-cli/${"a".repeat(100)}`)).toBe(false);
    expect(compilePattern(`${"**a".repeat(40)}z`).test(`${"a/".repeat(60)}`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
