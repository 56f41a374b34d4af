import { describe, expect, it } from "vitest";
import { parseStep } from "../../../src/core/provider/admission-syntax.js";

describe("--step syntax", () => {
  it("reads event, effects, operation and the options", () => {
    expect(parseStep("tool.before:observe,block")).toEqual({ event: "tool.before", effects: ["observe", "block"] });
    expect(parseStep("tool.after:replace_result@redact")).toEqual({ event: "tool.after", effects: ["replace_result"], operation: "redact" });
    expect(parseStep("tool.before:block@check/on_error=block/guarantee=native_hook/tools=bash,native:qwenpaw:Shell/required=false")).toEqual({
      event: "tool.before",
      effects: ["block"],
      operation: "check",
      onError: "block",
      guarantee: "native_hook",
      tools: ["bash", "native:qwenpaw:Shell"],
      required: false,
    });
  });

  it("leaves unknown events and effects to the admission rules", () => {
    expect(parseStep("tool.during:allow")).toEqual({ event: "tool.during", effects: ["allow"] });
  });

  it.each([
    ["tool.before", "no EVENT: before the effects"],
    [":block", "no EVENT: before the effects"],
    ["tool.before:", "an empty or blank effect"],
    ["tool.before:observe,,block", "an empty or blank effect"],
    ["tool.before:block@", "empty or blank operation after @"],
    ["tool.before:block@a@b", "more than one @OPERATION"],
    ["tool.before:block/on_error", "has no value"],
    ["tool.before:block/timeout=5", 'unknown option "timeout"'],
    ["tool.before:block/required=no", "required must be true or false"],
  ])("%s is a usage error: %s", (text, reason) => {
    expect(() => parseStep(text)).toThrow(reason);
    try {
      parseStep(text);
    } catch (error) {
      expect((error as { exitCode?: number }).exitCode).toBe(2);
    }
  });
});
