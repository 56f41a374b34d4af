import { describe, expect, it } from "vitest";
import { judgedCounts, withClauseTimes } from "../../../src/core/report/timing.js";
import type { ClauseResult } from "../../../src/core/report/types.js";

const result = (id: string, status: ClauseResult["status"], judged: number): ClauseResult => ({
  id, level: "MUST", title: id, status, judged, findings: status === "fail" ? [{ clause: id, message: "x" }] : [], ...(status === "skip" ? { reason: "r" } : {}),
});

describe("withClauseTimes", () => {
  // Three parts (scenarios or groups of calls): basic 1200 ms, tools 300 ms, content 50 ms.
  // a/pair is judged on a probe (tools) and its control (content) together: neither judges it alone.
  const counts = (output: number, tool: number, pair: number): Map<string, number> =>
    judgedCounts([result("a/output", "pass", output), result("a/tool", "pass", tool), result("a/launch", "pass", 1), result("a/both", "pass", 0), result("a/pair", "pass", pair)]);
  const parts = [
    { ms: 1200, alone: counts(4, 0, 0), without: counts(3, 1, 1) },
    { ms: 300, alone: counts(2, 1, 0), without: counts(5, 0, 0) },
    { ms: 50.4, alone: counts(1, 0, 0), without: counts(6, 1, 0) },
  ];
  const none = judgedCounts([result("a/launch", "pass", 1)]);
  const results = [result("a/output", "pass", 7), result("a/tool", "fail", 1), result("a/launch", "pass", 1), result("a/both", "pass", 1), result("a/pair", "pass", 1), result("a/skip", "skip", 0)];
  const timed = new Map(withClauseTimes(results, parts, none).map((r) => [r.id, r.durationMs]));

  it("sums the parts that judged a clause", () => {
    expect(timed.get("a/output")).toBe(1550);
    expect(timed.get("a/tool")).toBe(300);
  });

  it("counts a part whose absence leaves the clause judged less (a probe judged with its control)", () => {
    expect(timed.get("a/pair")).toBe(350);
  });

  it("gives 0 to what no part adds to (the launch configuration), every part's time to what only the parts together judge, none to a skip", () => {
    expect(timed.get("a/launch")).toBe(0);
    expect(timed.get("a/both")).toBe(1550);
    expect(timed.get("a/skip")).toBeUndefined();
  });
});
