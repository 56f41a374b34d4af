import { describe, expect, it } from "vitest";
import { buildReport } from "../../../src/core/report/build.js";
import { combineResults } from "../../../src/core/report/merge.js";
import type { Check } from "../../../src/core/report/judge.js";
import { passEvidenceCutNote, withPassEvidence, type EvidenceUnit } from "../../../src/core/report/pass-evidence.js";
import { REDACTED } from "../../../src/core/report/redact.js";
import type { Clause, ClauseResult } from "../../../src/core/report/types.js";

/** A toy run: a configuration and the words each request carried. */
interface Run {
  configOk: boolean;
  requests: string[];
}

const clause = (id: string): Clause => ({ id, level: "MUST", title: id, text: id, source: { doc: "d", section: "s" } });
const CLAUSES = ["p/a/one", "p/a/config", "p/a/pair", "p/a/broken", "p/a/never"].map(clause);

const CHECKS: Check<Run>[] = [
  // Judged on every request that says "one".
  { clause: "p/a/one", judge: (r) => { const n = r.requests.filter((q) => q === "one").length; return n === 0 ? { outcome: "skip", reason: "no one" } : { outcome: "judged", judged: n, findings: [] }; } },
  // Judged on the configuration alone.
  { clause: "p/a/config", judge: (r) => ({ outcome: "judged", judged: r.configOk ? 1 : 0, findings: [] }) },
  // Needs two requests together.
  { clause: "p/a/pair", judge: (r) => (r.requests.includes("x") && r.requests.includes("y") ? { outcome: "judged", judged: 1, findings: [] } : { outcome: "skip", reason: "no pair" }) },
  { clause: "p/a/broken", judge: () => { throw new Error("cannot judge a part"); } },
  { clause: "p/a/never", judge: () => ({ outcome: "skip", reason: "never" }) },
];

const RUN: Run = { configOk: true, requests: ["one", "x", "y"] };
const wireOf = (text: string): EvidenceUnit<Run>["wire"] => () => [{ t: 0, stream: "stdin", text }, { t: 5, stream: "stdout", text: `answer to ${text}` }];
const UNITS: EvidenceUnit<Run>[] = [
  ...RUN.requests.map((q, i) => ({ subject: { ...RUN, requests: [q] }, scenario: `request ${q}`, requestId: `r${i}`, wire: wireOf(q) })),
  { subject: RUN, scenario: "x + y", wire: wireOf("x then y") },
];
const pass = (id: string): ClauseResult => ({ id, level: "MUST", title: id, status: "pass", judged: 1, findings: [] });
const RESULTS: ClauseResult[] = [pass("p/a/one"), pass("p/a/config"), pass("p/a/pair"), pass("p/a/broken"), { id: "p/a/never", level: "MUST", title: "p/a/never", status: "skip", reason: "never", judged: 0, findings: [] }];

describe("--evidence all: what a pass was judged on", () => {
  it("a pass keeps the wire log of the first part of the run that passes it alone; none when judged without a request; skips untouched", () => {
    const { results, cut } = withPassEvidence(RESULTS, { clauses: CLAUSES, checks: CHECKS, empty: { ...RUN, requests: [] }, units: UNITS });
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(byId.get("p/a/one")?.passEvidence).toEqual({ scenario: "request one", requestId: "r0", wire: wireOf("one")() });
    expect(byId.get("p/a/pair")?.passEvidence).toEqual({ scenario: "x + y", wire: wireOf("x then y")() });
    // Judged on the configuration: no request to show.
    expect(byId.get("p/a/config")?.passEvidence).toBeUndefined();
    // A check that cannot judge a part alone shows nothing, and breaks nothing.
    expect(byId.get("p/a/broken")?.passEvidence).toBeUndefined();
    expect(byId.get("p/a/never")).toEqual(RESULTS[4]);
    expect(cut).toBe(0);
  });

  it("the total bound: passes past it keep no wire log, and the report says how many", () => {
    const { results, cut } = withPassEvidence(RESULTS, { clauses: CLAUSES, checks: CHECKS, empty: { ...RUN, requests: [] }, units: UNITS, cap: 20 });
    expect(results.find((r) => r.id === "p/a/one")?.passEvidence).toBeDefined();
    expect(results.find((r) => r.id === "p/a/pair")?.passEvidence).toBeUndefined();
    expect(cut).toBe(1);
    expect(passEvidenceCutNote(cut)[0]).toMatch(/^--evidence all: 1 passing clause kept no wire log: the report holds at most 1000000 characters of them \(the kit's bound\)/);
    expect(passEvidenceCutNote(0)).toEqual([]);
  });

  it("a pass's wire log is redacted exactly as a failure's", () => {
    const secret = "sk-live-0123456789";
    const failing: ClauseResult = { id: "p/a/broken", level: "MUST", title: "t", status: "fail", judged: 1, findings: [{ clause: "p/a/broken", message: "m", wire: [{ t: 0, stream: "stdin", text: `key=${secret}` }] }] };
    const passing: ClauseResult = { ...pass("p/a/one"), passEvidence: { scenario: `with ${secret}`, wire: [{ t: 0, stream: "stdout", text: `echo ${secret}` }] } };
    const report = buildReport({ protocol: "provider", argv: ["p"], startedAt: new Date(0), endedAt: new Date(0), options: {}, selection: { clause: [], skip: [] }, results: [failing, passing], deselected: 0, notes: [], secrets: [secret] });
    expect(JSON.stringify(report)).not.toContain(secret);
    expect(report.clauses[1]?.passEvidence).toEqual({ scenario: `with ${REDACTED}`, wire: [{ t: 0, stream: "stdout", text: `echo ${REDACTED}` }] });
  });

  it("merging shards keeps a pass's evidence (the first shard's that has one)", () => {
    const evidence = { scenario: "basic (awp-jsonl)", wire: [{ t: 0, stream: "stdin" as const, text: "{}" }] };
    const skipped: ClauseResult = { id: "p/a/one", level: "MUST", title: "p/a/one", status: "skip", reason: "elsewhere", judged: 0, findings: [] };
    expect(combineResults([skipped, pass("p/a/one"), { ...pass("p/a/one"), passEvidence: evidence }]).passEvidence).toEqual(evidence);
    expect(combineResults([skipped, pass("p/a/one")]).passEvidence).toBeUndefined();
  });
});
