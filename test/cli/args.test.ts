import { describe, expect, it } from "vitest";
import { KitError } from "../../src/core/errors.js";
import { oneValueEach } from "../../src/cli/args.js";

describe("oneValueEach: an option that takes one value is given once", () => {
  const options = { key: { out: true, jobs: true, reporter: true, env: true }, array: ["reporter", "env"] };

  it("passes single values, repeated options that take many, and what yargs did not declare", () => {
    expect(oneValueEach({ _: ["run"], out: "r", jobs: 2, reporter: ["json", "console"], env: ["A=1", "B=2"], "--": ["-x", "-y"] }, options)).toBe(true);
  });

  it("refuses a single-valued option given twice, naming it and its values", () => {
    let caught: unknown;
    try {
      oneValueEach({ _: ["run"], out: ["a", "b"] }, options);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(KitError);
    expect(caught).toMatchObject({ code: "usage", message: '--out was given 2 times ("a", "b"): it takes one value' });
    expect(() => oneValueEach({ jobs: [1, 2, 3] }, options)).toThrow("--jobs was given 3 times");
  });
});
