import { describe, expect, it } from "vitest";
import { boundFlags, readBounds, scenarioNames } from "../../src/cli/agent-options.js";
import { KitError } from "../../src/core/errors.js";

describe("the kit's bound options", () => {
  it("takes positive integers of milliseconds", () => {
    expect(readBounds({ turnTimeout: 1000, stallTimeout: 240_000, quietWindow: 5000, shutdownTimeout: 800 })).toEqual({ turnTimeoutMs: 1000, stallTimeoutMs: 240_000, quietWindowMs: 5000, shutdownTimeoutMs: 800 });
    expect(readBounds({})).toEqual({});
  });

  it.each([
    [{ stallTimeout: 0 }, /--stall-timeout must be a positive integer/],
    [{ quietWindow: -5 }, /--quiet-window must be a positive integer/],
    [{ shutdownTimeout: 1.5 }, /--shutdown-timeout must be a positive integer/],
    [{ turnTimeout: Number.NaN }, /--turn-timeout must be a positive integer/],
    [{ stallTimeout: 2 ** 31 }, /--stall-timeout must be a positive integer/],
  ])("refuses %j with a usage error", (args, message) => {
    expect(() => readBounds(args)).toThrow(message);
    expect(() => readBounds(args)).toThrow(KitError);
  });

  it("repeats the bounds given in reproduce lines", () => {
    expect(boundFlags({ stallTimeout: 5000, shutdownTimeout: 900 })).toEqual(["--stall-timeout", "5000", "--shutdown-timeout", "900"]);
  });
});

describe("--scenario", () => {
  it("expands the alias failures to both probes, in the kit's order, without duplicates", () => {
    expect(scenarioNames(["failures"])).toEqual(["failures-error", "failures-stall"]);
    expect(scenarioNames(["failures-stall", "basic", "failures"])).toEqual(["basic", "failures-error", "failures-stall"]);
    expect(scenarioNames([])).toBeUndefined();
  });

  it("names the known scenarios and aliases when one is unknown", () => {
    expect(() => scenarioNames(["nope"])).toThrow(/unknown scenario "nope" \(known: basic, .*failures-error, failures-stall, .*, failures\)/);
  });
});
