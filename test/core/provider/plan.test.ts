import { describe, expect, it } from "vitest";
import { invocableOperations, MAX_PLANNED_INVOCATIONS, planInvocations, probeTools } from "../../../src/core/provider/plan.js";

describe("invocation plan", () => {
  it("keeps only well-formed, first-declared operations", () => {
    const ops = invocableOperations({
      operations: [
        { name: "a", events: ["tool.before"], effects: ["observe"] },
        { name: "a", events: ["tool.after"], effects: ["observe"] },
        { name: "bad name", events: ["tool.before"], effects: ["observe"] },
        { name: "b", events: "tool.before", effects: ["observe"] },
        "not an object",
      ],
    });
    expect(ops.map((o) => o.name)).toEqual(["a"]);
    expect(invocableOperations(undefined)).toEqual([]);
  });

  it("probes with the configuration's strings, or a shell call when there are none", () => {
    expect(probeTools({}).map((p) => p.nativeName)).toEqual(["Bash"]);
    const probes = probeTools({ blocked_tools: ["x", "y"], nested: { terms: ["z", "w"] } });
    expect(probes.map((p) => p.nativeName)).toEqual(["x", "y", "z"]);
    expect(probes[0]?.projectionText).toContain("x, y, z");
  });

  it("covers every admissible event and effect set, with and without a projection for replacements", () => {
    const ops = [
      { name: "check", events: ["tool.before", "tool.after", "session.start"], effects: ["observe", "block", "ask"] },
      { name: "redact", events: ["tool.after"], effects: ["replace_result"] },
    ];
    const { invocations, dropped } = planInvocations(ops, probeTools({ t: ["x", "y"] }));
    const keys = invocations.map((p) => `${p.operation} ${p.event} ${p.allowedEffects.join("+")} ${p.tool.nativeName}${p.withProjection ? " P" : ""}`);
    expect(keys).toEqual([
      "check tool.before observe x", "check tool.before observe y",
      "check tool.before block x", "check tool.before block y",
      "check tool.before observe+block x", "check tool.before observe+block y",
      "check tool.after observe x", "check tool.after observe y",
      "redact tool.after replace_result x P", "redact tool.after replace_result x", "redact tool.after replace_result y P",
    ]);
    expect(dropped).toBe(0);
  });

  it("caps the plan and says how much it dropped", () => {
    const ops = Array.from({ length: 64 }, (_, i) => ({ name: `op${i}`, events: ["tool.before", "tool.after"], effects: ["observe", "block", "replace_result"] }));
    const { invocations, dropped } = planInvocations(ops, probeTools({ t: ["x", "y", "z"] }));
    expect(invocations).toHaveLength(MAX_PLANNED_INVOCATIONS);
    expect(dropped).toBeGreaterThan(0);
  });
});
