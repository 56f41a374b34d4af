/**
 * diffReports on report objects: every kind of change, what counts as a regression at which
 * --level, the order of the changes, the counts, new fuzz replays by identity, and reports
 * that cannot be compared. Every diff made here obeys schemas/diff.schema.json.
 */
import { describe, expect, it } from "vitest";
import { KitError } from "../../../src/core/errors.js";
import type { ClauseResult, Finding, Level, RunReport } from "../../../src/core/report/types.js";
import { kitSchema } from "../../../src/core/schema.js";
import { checkComparable } from "../../../src/core/report/diff-comparable.js";
import { changeKind, diffReports } from "../../../src/core/report/diff-compare.js";
import type { ReplayIdentity } from "../../../src/core/report/diff-replays.js";
import type { ReportDiff } from "../../../src/core/report/diff-types.js";
import { reportOf } from "./report-of.js";

const id = (name: string): string => `provider/area/${name}`;
const pass = (name: string, level: Level = "MUST"): ClauseResult => ({ id: id(name), level, title: `${name} holds`, status: "pass", judged: 1, findings: [] });
const fail = (name: string, level: Level = "MUST", messages: string[] = ["broken"], extra: Partial<ClauseResult> = {}): ClauseResult => ({
  id: id(name), level, title: `${name} holds`, status: "fail", judged: 1, findings: messages.map((message) => ({ clause: id(name), message })), ...extra,
});
const skip = (name: string, level: Level = "MUST", reason = "no configuration was given"): ClauseResult => ({ id: id(name), level, title: `${name} holds`, status: "skip", reason, judged: 0, findings: [] });
const na = (name: string, level: Level = "MUST", reason = "no effect was returned"): ClauseResult => ({ id: id(name), level, title: `${name} holds`, status: "not-applicable", reason, judged: 0, findings: [] });

const validate = kitSchema("diff.schema.json");

/** The diff, checked against its schema on the way. */
function diff(older: ClauseResult[], newer: ClauseResult[], options: Parameters<typeof diffReports>[2] = {}, extra: { old?: Partial<RunReport>; new?: Partial<RunReport> } = {}): ReportDiff {
  const result = diffReports(reportOf(older, extra.old), reportOf(newer, extra.new), options);
  expect(validate(JSON.parse(JSON.stringify(result))), JSON.stringify(validate.errors)).toBe(true);
  return result;
}

const only = (d: ReportDiff): Pick<ReportDiff["changes"][number], "id" | "kind" | "regression" | "counted"> => {
  expect(d.changes).toHaveLength(1);
  const [c] = d.changes;
  return { id: c!.id, kind: c!.kind, regression: c!.regression, counted: c!.counted };
};

describe("diffReports: the kinds of change", () => {
  it("a report against itself: nothing changed, no regression", () => {
    const clauses = [pass("a"), fail("b"), skip("c"), na("d")];
    const d = diff(clauses, clauses);
    expect(d.changes).toEqual([]);
    expect(d.counts).toMatchObject({ regressed: 0, counted: 0, fixed: 0, unchanged: 4 });
    expect(d.verdict).toBe("no-regression");
  });

  it("pass → fail of a MUST clause: regressed, counted", () => {
    const d = diff([pass("a"), pass("b")], [fail("a"), pass("b")]);
    expect(only(d)).toEqual({ id: id("a"), kind: "regressed", regression: true, counted: true });
    expect(d.changes[0]?.new).toEqual({ status: "fail", messages: ["broken"] });
    expect(d.verdict).toBe("regressed");
  });

  it("pass → fail of a SHOULD clause: a regression counted only at --level should or all", () => {
    const older = [pass("a", "SHOULD")];
    const newer = [fail("a", "SHOULD")];
    expect(only(diff(older, newer))).toMatchObject({ regression: true, counted: false });
    expect(diff(older, newer).verdict).toBe("no-regression");
    expect(only(diff(older, newer, { level: "should" }))).toMatchObject({ regression: true, counted: true });
    expect(diff([pass("m", "MAY")], [fail("m", "MAY")], { level: "should" }).verdict).toBe("no-regression");
    expect(diff([pass("m", "MAY")], [fail("m", "MAY")], { level: "all" }).verdict).toBe("regressed");
  });

  it("pass → fail listed as expected or flaky in NEW: reported, not counted", () => {
    expect(only(diff([pass("a")], [fail("a", "MUST", ["x"], { expectation: "expected-failure" })]))).toMatchObject({ kind: "regressed", counted: false });
    expect(only(diff([pass("a")], [fail("a", "MUST", ["x"], { expectation: "flaky" })]))).toMatchObject({ kind: "regressed", counted: false });
  });

  it("fail → pass: fixed, no regression", () => {
    const d = diff([fail("a")], [pass("a")]);
    expect(only(d)).toEqual({ id: id("a"), kind: "fixed", regression: false, counted: false });
    expect(d.counts.fixed).toBe(1);
  });

  it("the same status for another reason: reason-changed (failure messages as a set, skip and not-applicable reasons)", () => {
    expect(only(diff([fail("a", "MUST", ["x"])], [fail("a", "MUST", ["y"])]))).toMatchObject({ kind: "reason-changed", regression: false });
    expect(only(diff([skip("a", "MUST", "r1")], [skip("a", "MUST", "r2")]))).toMatchObject({ kind: "reason-changed" });
    expect(only(diff([na("a", "MUST", "r1")], [na("a", "MUST", "r2")]))).toMatchObject({ kind: "reason-changed" });
    // Findings of parallel work come in any order, and a message found again is the same reason.
    expect(diff([fail("a", "MUST", ["x", "y"])], [fail("a", "MUST", ["y", "x", "x"])]).changes).toEqual([]);
    // An expectation added or removed is no change of the candidate.
    expect(diff([fail("a")], [fail("a", "MUST", ["broken"], { expectation: "expected-failure" })]).changes).toEqual([]);
  });

  it("not applicable → judged: became applicable; failing, it is a regression", () => {
    expect(only(diff([na("a")], [pass("a")]))).toMatchObject({ kind: "became-applicable", regression: false });
    expect(only(diff([na("a")], [fail("a")]))).toMatchObject({ kind: "became-applicable", regression: true, counted: true });
    expect(only(diff([na("a")], [skip("a")]))).toMatchObject({ kind: "became-applicable", regression: false });
  });

  it("judged → not applicable: became not applicable, never a regression", () => {
    expect(only(diff([pass("a")], [na("a")]))).toMatchObject({ kind: "became-not-applicable", regression: false, counted: false });
    expect(only(diff([fail("a")], [na("a")]))).toMatchObject({ kind: "became-not-applicable", regression: false });
  });

  it("pass → skip: became skipped, a regression (the proof is lost) counted at its level; fail → skip is none", () => {
    expect(only(diff([pass("a")], [skip("a")]))).toMatchObject({ kind: "became-skipped", regression: true, counted: true });
    expect(only(diff([pass("a", "SHOULD")], [skip("a", "SHOULD")]))).toMatchObject({ kind: "became-skipped", regression: true, counted: false });
    expect(only(diff([fail("a")], [skip("a")]))).toMatchObject({ kind: "became-skipped", regression: false });
  });

  it("skip → judged: unskipped; failing, a regression", () => {
    expect(only(diff([skip("a")], [pass("a")]))).toMatchObject({ kind: "unskipped", regression: false });
    expect(only(diff([skip("a")], [fail("a")]))).toMatchObject({ kind: "unskipped", regression: true, counted: true });
  });

  it("a clause in one report only: added or removed, never a regression, with why (the kit, or the other run's selection)", () => {
    const d = diff([pass("a"), pass("gone")], [pass("a"), fail("new")]);
    expect(d.changes.map((c) => [c.id, c.kind, c.why, c.regression])).toEqual([
      [id("new"), "added", "kit", false],
      [id("gone"), "removed", "kit", false],
    ]);
    expect(d.verdict).toBe("no-regression");
    expect(d.notes.join(" ")).toMatch(/only NEW has fails: it is no regression of the candidate, but it fails NEW's own verdict/);
    const selected = diff([pass("a")], [pass("a"), pass("b")], {}, { old: { selection: { clause: [id("a")], skip: [] } } });
    expect(selected.changes.map((c) => [c.kind, c.why])).toEqual([["added", "selection"]]);
    expect(selected.notes.join(" ")).toMatch(/selected different clauses/);
    const left = diff([pass("a"), pass("b")], [pass("a")], {}, { new: { selection: { clause: [], skip: [id("b")] } } });
    expect(left.changes.map((c) => [c.kind, c.why])).toEqual([["removed", "selection"]]);
  });

  it("changeKind covers every pair of statuses", () => {
    const s = (status: ClauseResult["status"]) => ({ status, ...(status === "fail" ? { messages: ["m"] } : status === "pass" ? {} : { reason: "r" }) });
    const statuses = ["pass", "fail", "skip", "not-applicable"] as const;
    const table = Object.fromEntries(statuses.flatMap((a) => statuses.map((b) => [`${a}>${b}`, changeKind(s(a), s(b)) ?? "-"])));
    expect(table).toEqual({
      "pass>pass": "-", "pass>fail": "regressed", "pass>skip": "became-skipped", "pass>not-applicable": "became-not-applicable",
      "fail>pass": "fixed", "fail>fail": "-", "fail>skip": "became-skipped", "fail>not-applicable": "became-not-applicable",
      "skip>pass": "unskipped", "skip>fail": "unskipped", "skip>skip": "-", "skip>not-applicable": "became-not-applicable",
      "not-applicable>pass": "became-applicable", "not-applicable>fail": "became-applicable", "not-applicable>skip": "became-applicable", "not-applicable>not-applicable": "-",
    });
  });
});

describe("diffReports: order, counts and what it says of each side", () => {
  it("counted regressions first, then other regressions, fixes and the rest; each change counted once", () => {
    const older = [pass("s", "SHOULD"), fail("f"), na("n"), pass("m"), skip("u"), pass("k")];
    const newer = [fail("s", "SHOULD"), pass("f"), pass("n"), fail("m"), fail("u"), skip("k")];
    const d = diff(older, newer);
    expect(d.changes.map((c) => [c.id.slice(14), c.kind, c.counted])).toEqual([
      ["m", "regressed", true],
      ["u", "unskipped", true],
      ["k", "became-skipped", true],
      ["s", "regressed", false],
      ["f", "fixed", false],
      ["n", "became-applicable", false],
    ]);
    expect(d.counts).toEqual({ regressed: 4, counted: 3, fixed: 1, reasonChanged: 0, becameApplicable: 1, becameNotApplicable: 0, becameSkipped: 0, unskipped: 0, added: 0, removed: 0, unchanged: 0, newReplays: 0 });
  });

  it("names each side's kit version, candidate and verdict, and notes a kit upgrade and a run that stopped early", () => {
    const d = diff([pass("a")], [pass("a")], { files: { old: "main/report.json", new: "pr/report.json" } }, { old: { tool: { name: "awp-conformance", version: "0.1.0" } }, new: { tool: { name: "awp-conformance", version: "0.2.0" }, halted: "the run reached --run-timeout." } });
    expect(d.old).toMatchObject({ file: "main/report.json", kitVersion: "0.1.0", argv: ["p"], verdict: "conformant" });
    expect(d.new).toMatchObject({ file: "pr/report.json", kitVersion: "0.2.0", halted: "the run reached --run-timeout." });
    expect(d.notes.join("\n")).toMatch(/different kits \(OLD 0\.1\.0, NEW 0\.2\.0\)/);
    expect(d.notes.join("\n")).toMatch(/NEW stopped early: the run reached --run-timeout/);
  });

  it("keeps at most five distinct failure messages of at most 500 characters", () => {
    const d = diff([pass("a")], [fail("a", "MUST", ["1", "2", "3", "4", "5", "6", "x".repeat(900)])]);
    expect(d.changes[0]?.new?.messages).toEqual(["1", "2", "3", "4", "5"]);
    const long = diff([pass("a")], [fail("a", "MUST", ["x".repeat(900)])]);
    expect(long.changes[0]?.new?.messages?.[0]).toHaveLength(500);
  });
});

describe("diffReports: fuzz replays new in NEW", () => {
  const fuzzed = (name: string, file: string, seed: number): ClauseResult => {
    const f: Finding = { clause: id(name), message: "broken", foundBy: "fuzz", fuzzCase: { seed, path: "3:0", file } };
    return { ...fail(name), findings: [f] };
  };
  /** Identity by the file's name without its folder: the same case saved under two report folders. */
  const byName: ReplayIdentity = (f) => (f.fuzzCase.file ?? "").replace(/^.*\//, "");

  it("lists a case NEW found that OLD did not, by identity, not by path or seed", () => {
    const d = diff([fuzzed("a", "old/replays/case-1.json", 1)], [fuzzed("a", "new/replays/case-1.json", 2), fuzzed("b", "new/replays/case-2.json", 2)], { replayIdentity: byName });
    expect(d.newReplays).toEqual([{ clause: id("b"), identity: "case-2.json", file: "new/replays/case-2.json", seed: 2, path: "3:0" }]);
    expect(d.counts.newReplays).toBe(1);
  });

  it("without identities, compares by seed and path", () => {
    const d = diff([fuzzed("a", "x.json", 1)], [fuzzed("a", "y.json", 1), fuzzed("b", "z.json", 5)]);
    expect(d.newReplays.map((r) => [r.clause, r.identity])).toEqual([[id("b"), "seed 5 path 3:0"]]);
  });
});

describe("reports that cannot be compared", () => {
  const usage = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      if (error instanceof KitError && error.code === "usage") return error.message;
      throw error;
    }
    return "accepted";
  };
  const names = { old: "a.json", new: "b.json" };

  it("refuses reports of different protocols, modes or shards, naming both", () => {
    expect(usage(() => checkComparable({ protocol: "provider" }, { protocol: "agent-cli", mode: "awp-jsonl" }, names))).toBe("OLD (a.json) is of the provider protocol and NEW (b.json) of agent-cli: compare two runs of one protocol");
    expect(usage(() => checkComparable({ protocol: "agent-cli", mode: "awp-jsonl" }, { protocol: "agent-cli", mode: "stream-json" }, names))).toBe("OLD (a.json) ran --mode awp-jsonl and NEW (b.json) --mode stream-json: compare two runs of one mode");
    expect(usage(() => checkComparable({ protocol: "provider", shard: { index: 1, count: 2 } }, { protocol: "provider" }, names))).toMatch(/^OLD \(a\.json\) is shard 1\/2 and NEW \(b\.json\) a whole run: combine each run's shards with awp-conformance merge/);
    expect(usage(() => checkComparable({ protocol: "provider", shard: { index: 1, count: 2 } }, { protocol: "provider", shard: { index: 1, count: 2 } }, names))).toBe("accepted");
  });

  it("diffReports refuses them too", () => {
    expect(usage(() => diffReports(reportOf([pass("a")]), reportOf([pass("a")], { protocol: "policy-test" }), { files: names }))).toMatch(/of the provider protocol and NEW \(b\.json\) of policy-test/);
  });
});
