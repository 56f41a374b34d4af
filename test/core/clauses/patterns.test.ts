import { describe, expect, it } from "vitest";
import { checkSelection, compilePattern, makeSelector, matchesAny, unmatchedPatterns } from "../../../src/core/clauses/patterns.js";

const matches = (pattern: string, id: string): boolean => compilePattern(pattern).test(id);

describe("compilePattern", () => {
  it("a pattern without wildcards matches the id itself and every id below it", () => {
    expect(matches("provider/transport", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/transport", "provider/transport")).toBe(true);
    expect(matches("provider", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/transport", "provider/transportx/a")).toBe(false);
    expect(matches("provider/transport", "provider/transport-x/a")).toBe(false);
    expect(matches("provider/transport", "agent-cli/provider/transport")).toBe(false);
    expect(matches("provider/transport/utf8", "provider/transport/utf")).toBe(false);
  });

  it("an exact id matches only itself (and nothing that merely starts like it)", () => {
    expect(matches("provider/transport/utf8", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/transport/utf8", "provider/transport/utf8-bom")).toBe(false);
    expect(matches("provider/transport/utf8", "provider/transport/utf")).toBe(false);
  });

  it("ignores surrounding whitespace and trailing slashes", () => {
    expect(matches("  provider/transport/ ", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/transport//", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/transport//", "provider/transportx/utf8")).toBe(false);
  });

  it("* matches within one segment", () => {
    expect(matches("provider/*/utf8", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/*/utf8", "provider/envelope/utf8")).toBe(true);
    expect(matches("provider/*/utf8", "provider/a/b/utf8")).toBe(false);
    expect(matches("provider/*/utf8", "provider/transport/utf8x")).toBe(false);
    expect(matches("provider/transport/utf*", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/transport/*", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/*", "provider/transport/utf8")).toBe(false);
  });

  it("** matches across segments", () => {
    expect(matches("provider/**", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/**", "agent-cli/transport/utf8")).toBe(false);
    expect(matches("**/utf8", "provider/transport/utf8")).toBe(true);
    expect(matches("**/utf8", "agent-cli/stdout/utf8")).toBe(true);
    expect(matches("**/utf8", "provider/transport/utf8-bom")).toBe(false);
    expect(matches("**", "provider/transport/utf8")).toBe(true);
    expect(matches("provider/**/utf8", "provider/transport/utf8")).toBe(true);
  });

  it("a pattern with a wildcard is anchored at both ends (no implicit descendants)", () => {
    expect(matches("provider/trans*", "provider/transport")).toBe(true);
    expect(matches("provider/trans*", "provider/transport/utf8")).toBe(false);
  });

  it("treats regex metacharacters literally", () => {
    expect(matches("provider/transport.utf8", "provider/transport.utf8")).toBe(true);
    expect(matches("provider/transport.utf8", "provider/transportXutf8")).toBe(false);
    expect(matches("provider/tr+", "provider/trr")).toBe(false);
    expect(matches("provider/tr?", "provider/t")).toBe(false);
    expect(matches("provider/(a|b)", "provider/a")).toBe(false);
    expect(matches("provider/(a|b)", "provider/(a|b)")).toBe(true);
    expect(matches("provider/[a-z]", "provider/q")).toBe(false);
    expect(matches("provider/[a-z]", "provider/[a-z]")).toBe(true);
    expect(matches("provider/a{2}", "provider/aa")).toBe(false);
    expect(matches("^provider$", "provider/transport/utf8")).toBe(false);
    expect(matches("provider\\/x", "provider/x")).toBe(false);
    expect(matches("provider\\/x", "provider\\/x")).toBe(true);
    for (const pattern of ["(", "[", "a{", "\\", "provider/*(", "**)"]) {
      expect(() => compilePattern(pattern), pattern).not.toThrow();
    }
  });

  it("matchesAny is true when one pattern matches", () => {
    const patterns = ["provider/describe", "**/utf8"].map(compilePattern);
    expect(matchesAny("provider/transport/utf8", patterns)).toBe(true);
    expect(matchesAny("provider/describe/x", patterns)).toBe(true);
    expect(matchesAny("provider/envelope/x", patterns)).toBe(false);
    expect(matchesAny("provider/envelope/x", [])).toBe(false);
  });
});

describe("makeSelector", () => {
  const ids = [
    "provider/transport/utf8",
    "provider/transport/no-trailing-data",
    "provider/envelope/api-version",
    "provider/describe/operations",
    "provider/robustness/hostile-input",
  ];
  const pick = (clause: string[], skip: string[]): string[] => ids.filter(makeSelector({ clause, skip }));

  it("selects everything when no --clause is given", () => {
    expect(pick([], [])).toEqual(ids);
  });

  it("selects only what a --clause matches", () => {
    expect(pick(["provider/transport"], [])).toEqual(["provider/transport/utf8", "provider/transport/no-trailing-data"]);
    expect(pick(["**/utf8", "provider/describe"], [])).toEqual(["provider/transport/utf8", "provider/describe/operations"]);
    expect(pick(["provider/nothing"], [])).toEqual([]);
  });

  it("removes what a --skip matches", () => {
    expect(pick([], ["provider/robustness"])).toEqual(ids.slice(0, 4));
    expect(pick([], ["provider/*/utf8", "provider/envelope"])).toEqual([
      "provider/transport/no-trailing-data",
      "provider/describe/operations",
      "provider/robustness/hostile-input",
    ]);
  });

  it("--skip wins over --clause", () => {
    expect(pick(["provider/transport/utf8"], ["provider/transport/utf8"])).toEqual([]);
    expect(pick(["provider/transport"], ["**/utf8"])).toEqual(["provider/transport/no-trailing-data"]);
    expect(pick(["provider/**"], ["provider"])).toEqual([]);
  });
});

describe("patterns that match no clause", () => {
  const ids = ["provider/transport/utf8", "provider/invoke/answers-ok"];

  it("are listed with their flag, in the order given", () => {
    expect(unmatchedPatterns({ clause: ["provider/transport", "nosuch", "**/answers-*"], skip: ["provider/*/nope", "provider/invoke"] }, ids)).toEqual(["--clause nosuch", "--skip provider/*/nope"]);
    expect(unmatchedPatterns({ clause: [], skip: [] }, ids)).toEqual([]);
  });

  it("are a usage error naming them and the command that lists the ids", () => {
    expect(() => checkSelection({ clause: ["provider"], skip: [] }, ids, "the provider catalogue", ["awp-conformance list --protocol provider"])).not.toThrow();
    expect(() => checkSelection({ clause: ["nosuch"], skip: ["x"] }, ids, "the provider catalogue", ["awp-conformance list --protocol provider"])).toThrow(
      "--clause nosuch, --skip x match no clause of the provider catalogue: `awp-conformance list --protocol provider` lists the clause ids",
    );
  });
});
