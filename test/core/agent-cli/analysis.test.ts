import { describe, expect, it } from "vitest";
import { callsIn, mergedInto, segments, streamedText, turnTagOf, viewProcesses, type Segment } from "../../../src/core/agent-cli/analysis.js";
import type { ModelCall } from "../../../src/core/agent-cli/types.js";
import type { Transcript, TranscriptEvent } from "../../../src/core/agent-cli/types.js";

let t = 0;
const send = (line: string): TranscriptEvent => ({ kind: "send", t: ++t, process: 1, line });
const out = (value: unknown): TranscriptEvent => ({ kind: "stdout", t: ++t, process: 1, line: typeof value === "string" ? value : JSON.stringify(value) });
const user = (text: string): string => JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text }] } });
const result = (isError = false): object => ({ type: "result", subtype: isError ? "error" : "success", is_error: isError, result: isError ? "bad_line" : "ok" });
const transcript = (events: TranscriptEvent[]): Transcript => ({ scenario: "x", mode: "awp-jsonl", events: [{ kind: "launch", t: 0, process: 1, argv: ["cli"], cwd: "/", envNames: [] }, ...events] });

describe("attributing output to input lines", () => {
  it("gives each turn its own output and terminal, in order, even when lines are queued", () => {
    const [view] = viewProcesses(transcript([send(user("a")), send(user("b")), out({ type: "assistant" }), out(result()), out({ type: "assistant" }), out(result())]));
    const turns = view?.inputs ?? [];
    expect(turns.map((i) => [i.kind, i.output.length, i.terminals.length])).toEqual([["user", 2, 1], ["user", 2, 1]]);
  });

  it("lets a malformed line claim an error result, and counts an unanswered one as ignored", () => {
    const [view] = viewProcesses(transcript([send("not json"), out(result(true)), send("[1]"), send(user("c")), out(result())]));
    const [answered, ignored, turn] = view?.inputs ?? [];
    expect(answered?.terminals).toHaveLength(1);
    expect(ignored?.ignored).toBe(true);
    expect(turn?.terminals[0]?.object?.subtype).toBe("success");
  });

  it("pairs the next valid turn's result with that turn when the CLI answered a malformed line with a non-JSON stdout line", () => {
    // What the host reads of a non-JSON line: nothing (it is skipped, not rendered). The malformed
    // line stays unanswered, and the result after the valid line is that line's.
    const [view] = viewProcesses(transcript([send("this is not json"), out("error: could not parse the line"), send(user("valid")), out({ type: "assistant" }), out(result())]));
    const [malformed, turn] = view?.inputs ?? [];
    expect(malformed?.ignored).toBe(true);
    expect(malformed?.terminals).toEqual([]);
    expect(turn?.terminals.map((l) => l.object?.subtype)).toEqual(["success"]);
    expect(turn?.output.map((l) => l.object?.type)).toEqual(["assistant", "result"]);
  });

  it("keeps output before any input and extra terminals apart", () => {
    const [view] = viewProcesses(transcript([out({ type: "system" }), send(user("a")), out(result()), out(result())]));
    expect(view?.unattributed.map((l) => l.object?.type)).toEqual(["system", "result"]);
  });

  it("classifies shutdown and non-user objects", () => {
    const [view] = viewProcesses(transcript([send('{"type":"shutdown"}'), send('{"type":"user"}'), send('{"type":"user","message":{"content":"hi"}}')]));
    expect(view?.inputs.map((i) => i.kind)).toEqual(["shutdown", "malformed", "user"]);
  });

  it("reads stdout captures as turns ending at terminal events", () => {
    const capture: Transcript = { scenario: "cap", mode: "stream-json", stdoutOnly: true, events: [out({ type: "system" }), out(result()), out({ type: "assistant" })] };
    const segs = segments(capture, viewProcesses(capture));
    expect(segs.map((s) => [s.output.length, s.terminal !== undefined])).toEqual([[2, true], [1, false]]);
  });
});

describe("model requests of a turn", () => {
  const call = (seq: number, turn: string, userText: string): TranscriptEvent => ({ kind: "model", t: ++t, process: 1, call: { seq, startT: t, api: "openai", method: "POST", path: "/v1/chat/completions", stream: true, authorized: true, userText, directive: { turn }, status: 200, replyText: `R${seq}`, outcome: "complete" } as ModelCall });
  const tagged = (text: string, tag: string): string => user(`${text} [[awp-fixture turn=${tag}]]`);

  it("gives a line merged into another line's request that request, and names the merge", () => {
    const tr = transcript([send(tagged("a", "q-1")), send(tagged("b", "q-2")), call(1, "q-2", "a [[awp-fixture turn=q-1]]\n\nb [[awp-fixture turn=q-2]]"), out(result())]);
    const [first, second] = segments(tr, viewProcesses(tr)) as [Segment, Segment];
    expect(callsIn(tr, first).map((c) => c.seq)).toEqual([1]);
    expect(callsIn(tr, second).map((c) => c.seq)).toEqual([1]);
    expect(mergedInto(tr, second)).toMatchObject({ others: ["q-1"] });
  });

  it("does not give a turn a later request that only repeats the conversation in its last message", () => {
    // q-1 was answered without asking the model; q-2's request carries both lines (history in one message).
    const tr = transcript([send(tagged("a", "q-1")), out(result()), send(tagged("b", "q-2")), call(1, "q-2", "a [[awp-fixture turn=q-1]]\n\nb [[awp-fixture turn=q-2]]"), out(result())]);
    const [first, second] = segments(tr, viewProcesses(tr)) as [Segment, Segment];
    expect(callsIn(tr, first)).toEqual([]);
    // Nor is q-2 merged with q-1: q-1 was answered before that request came.
    expect(mergedInto(tr, second)).toBeUndefined();
  });
});

describe("turn text and tags", () => {
  it("prefers raw deltas over assistant messages", () => {
    const lines = viewProcesses(transcript([send(user("a")), out({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "He" } }), out({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "llo" } }), out({ type: "assistant", message: { content: [{ type: "text", text: "Hello" }] } })]))[0]?.lines ?? [];
    expect(streamedText(lines)).toBe("He" + "llo");
    expect(streamedText(lines.slice(2))).toBe("Hello");
  });

  it("finds the kit's turn tag in the user text", () => {
    expect(turnTagOf({ content: [{ type: "text", text: "hi [[awp-fixture reply=x turn=basic%2D1]]" }] })).toBe("basic-1");
    expect(turnTagOf({ content: "no directive" })).toBeUndefined();
  });
});
