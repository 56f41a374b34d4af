import { describe, expect, it } from "vitest";
import { judgeAgentRun, stdoutCapNotes } from "../../../src/core/agent-cli/judge.js";
import { RUN_BUDGET_WHAT, STDOUT_CAP_NOTE_END, type Transcript } from "../../../src/core/agent-cli/types.js";
import { runOf, Script } from "./transcripts.js";

const transcript = (scenario: Transcript["scenario"], notes: string[]): Transcript => ({
  scenario,
  mode: "awp-jsonl",
  events: notes.map((text, i) => ({ kind: "note", t: i, process: 1, text })),
});

describe("the note on processes the kit stopped for their stdout", () => {
  it("names how many, the limit, and the scenarios", () => {
    const capped = `stdout passed 15000 lines, ${RUN_BUDGET_WHAT}${STDOUT_CAP_NOTE_END}`;
    const notes = stdoutCapNotes({ transcripts: [transcript("basic", [capped]), transcript("queued", ["stderr truncated"]), transcript("tools", [capped])] });
    expect(notes).toEqual([
      `the kit stopped 2 processes for what they printed on stdout (stdout passed 15000 lines, ${RUN_BUDGET_WHAT}), in basic, tools: what came after was not recorded, and those scenarios' verdicts show a process the kit ended; make the CLI print less on stdout (diagnostics belong on stderr)`,
    ]);
  });

  it("says nothing when no process was stopped for it", () => {
    expect(stdoutCapNotes({ transcripts: [transcript("basic", ["stderr truncated"])] })).toEqual([]);
  });
});

describe("a run whose CLI passed the kit's stdout budget for the run (--output-budget)", () => {
  const budgetNote = `stdout passed 15000 lines, ${RUN_BUDGET_WHAT}${STDOUT_CAP_NOTE_END}`;
  /** basic answers properly; tools printed past the budget, so the kit ended it mid-turn. */
  const scripts = (): Script[] => {
    const basic = new Script("basic").launch().user("hi").out({ type: "system", subtype: "init", session_id: "s-1" }).deltas("hello").success("hello").exit(0);
    const tools = new Script("tools").launch().user("use a tool").out({ type: "system", subtype: "init", session_id: "s-2" }).deltas("working");
    tools.events.push({ kind: "note", t: 99, process: 1, text: budgetNote });
    tools.exit(null, true);
    return [basic, tools];
  };

  it("judges neither that scenario nor the run: no failure comes from it, nothing passes, the reason names --output-budget", () => {
    const judged = judgeAgentRun(runOf(...scripts()));
    expect(judged.results.filter((r) => r.status === "fail")).toEqual([]);
    expect(judged.results.filter((r) => r.status === "pass")).toEqual([]);
    const skipped = judged.results.filter((r) => r.status === "skip");
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) expect(r.reason).toBe(`the CLI printed more on stdout than the kit records in one run (stdout passed 15000 lines, ${RUN_BUDGET_WHAT}) in tools: the kit stopped recording and ended the process there, so it judged neither those scenarios nor the run as a whole; raise the budget with --output-budget MIB (default 4)`);
    expect(judged.halted).toBe(skipped[0]?.reason);
  });

  it("keeps what the other scenarios failed", () => {
    const [basic, tools] = scripts() as [Script, Script];
    const silentFirst = new Script("basic").launch().out({ type: "system", subtype: "init", session_id: "early" });
    for (const e of basic.events.slice(1)) silentFirst.events.push(e);
    const failed = judgeAgentRun(runOf(silentFirst, tools)).results.filter((r) => r.status === "fail").map((r) => r.id);
    expect(failed).toContain("agent-cli/output/silent-before-input");
  });

  it("without the budget note the same ended process is judged as usual", () => {
    const [basic] = scripts() as [Script];
    const tools = new Script("tools").launch().user("use a tool").out({ type: "system", subtype: "init", session_id: "s-2" }).deltas("working").exit(null, true);
    expect(judgeAgentRun(runOf(basic, tools)).results.some((r) => r.status === "pass")).toBe(true);
  });
});
