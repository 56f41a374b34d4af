import { describe, expect, it } from "vitest";
import { stdoutCapNotes } from "../../../src/core/agent-cli/judge.js";
import { STDOUT_CAP_NOTE_END, type Transcript } from "../../../src/core/agent-cli/types.js";

const transcript = (scenario: Transcript["scenario"], notes: string[]): Transcript => ({
  scenario,
  mode: "awp-jsonl",
  events: notes.map((text, i) => ({ kind: "note", t: i, process: 1, text })),
});

describe("the note on processes the kit stopped for their stdout", () => {
  it("names how many, the limit, and the scenarios", () => {
    const capped = `stdout passed 15000 lines, the run's budget for all its processes together${STDOUT_CAP_NOTE_END}`;
    const notes = stdoutCapNotes({ transcripts: [transcript("basic", [capped]), transcript("queued", ["stderr truncated"]), transcript("tools", [capped])] });
    expect(notes).toEqual([
      "the kit stopped 2 processes for what they printed on stdout (stdout passed 15000 lines, the run's budget for all its processes together), in basic, tools: what came after was not recorded, and those scenarios' verdicts show a process the kit ended; make the CLI print less on stdout (diagnostics belong on stderr)",
    ]);
  });

  it("says nothing when no process was stopped for it", () => {
    expect(stdoutCapNotes({ transcripts: [transcript("basic", ["stderr truncated"])] })).toEqual([]);
  });
});
