/**
 * Cross-event consistency (suites/agent-cli/consistency.yaml): usage against the model's
 * counts, tool_use blocks against the model's calls, one block at a time, and a success for a
 * turn the model answered in full. Each rule is shown failing and passing, and passing on the
 * styles of real CLIs (session totals, complete assistant messages, zeros, wrapped events).
 */
import { describe, expect, it } from "vitest";
import { NO_MODEL_REASON } from "../../../src/core/agent-cli/causes.js";
import { partialSum } from "../../../src/core/agent-cli/checks/consistency-usage.js";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ModelCall } from "../../../src/core/agent-cli/types.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { runOf, Script } from "./transcripts.js";

const C = "agent-cli/consistency";

function judged(id: string, ...scripts: Script[]): ClauseResult {
  const result = judgeAgentRun(runOf(...scripts)).results.find((r) => r.id === id);
  if (result === undefined) throw new Error(`no result for ${id}`);
  return result;
}

const usage = (input_tokens: number, output_tokens: number): ModelCall["usage"] => ({ input_tokens, output_tokens });
const TOOL = { id: "call_1", name: "read_file", arguments: '{"path":"README.md"}' };
const toolUse = (id: unknown = "call_1", name: unknown = "read_file"): unknown => ({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id, name, input: { path: "README.md" } }] } });
const result = (fields: Record<string, unknown> = {}): unknown => ({ type: "result", subtype: "success", is_error: false, session_id: "s-1", ...fields });

/** One turn: a text reply from one request, then a success result with these fields. */
function oneRound(fields: Record<string, unknown>, call: Partial<ModelCall> = { usage: usage(10, 5) }): Script {
  return new Script("basic").launch().user("Say hello.").model({ replyText: "Hello there.", ...call }).deltas("Hello there.").out(result(fields));
}

/** One turn with a tool round: the model calls read_file (10 in, 8 out), then answers (30 in, 16 out). */
function toolRounds(fields: Record<string, unknown>, shown: unknown[] = [toolUse()]): Script {
  const s = new Script("tools").launch().user("Read the README.");
  s.model({ toolCall: TOOL, usage: usage(10, 8) });
  for (const line of shown) s.out(line);
  s.model({ replyText: "It says hello.", usage: usage(30, 16), body: { messages: [{ role: "tool", tool_call_id: "call_1", content: "hello" }] } });
  return s.deltas("It says hello.").out(result(fields));
}

describe(`${C}/usage-matches-model`, () => {
  const id = `${C}/usage-matches-model`;

  it("passes the model's counts, summed over the rounds, and any larger figure (a session total, cache tokens)", () => {
    expect(judged(id, oneRound({ usage: { input_tokens: 10, output_tokens: 5 } })).status).toBe("pass");
    expect(judged(id, toolRounds({ usage: { input_tokens: 40, output_tokens: 24 } })).status).toBe("pass");
    // Qwen Code: the session's running total, with total_tokens beside it.
    expect(judged(id, toolRounds({ usage: { input_tokens: 160, output_tokens: 52, total_tokens: 212 } })).status).toBe("pass");
    // Claude Code: cache fields and nested details beside the counts.
    expect(judged(id, toolRounds({ usage: { input_tokens: 40, cache_read_input_tokens: 0, output_tokens: 24, server_tool_use: { web_search_requests: 0 } } })).status).toBe("pass");
  });

  it("fails a count below what one request alone reported", () => {
    const r = judged(id, oneRound({ usage: { input_tokens: 10, output_tokens: 4 } }));
    expect(r.status).toBe("fail");
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]?.message).toMatch(/^output_tokens 4 is less than the 5 the model reported for request #1 alone/);
    expect(r.findings[0]?.evidence?.[0]?.excerpt).toContain('"output_tokens":4');
  });

  it("fails a multi-round turn that counts only some rounds (the last one), naming them", () => {
    const r = judged(id, toolRounds({ usage: { input_tokens: 30, output_tokens: 16 } }));
    expect(r.status).toBe("fail");
    expect(r.findings.map((f) => f.message)).toEqual([
      "input_tokens 30 is what request #2 reported, not the 40 of all 2 requests of the turn (#1 10, #2 30): the other rounds were not counted",
      "output_tokens 16 is what request #2 reported, not the 24 of all 2 requests of the turn (#1 8, #2 16): the other rounds were not counted",
    ]);
  });

  it("takes a figure between the largest request and the sum that no partial sum makes for the CLI's own count", () => {
    expect(judged(id, toolRounds({ usage: { input_tokens: 35, output_tokens: 20 } })).status).toBe("pass");
  });

  it("does not judge zeros, error results, or a turn whose model reported no usage for a request the CLI used", () => {
    expect(judged(id, oneRound({ usage: { input_tokens: 0, output_tokens: 0 } })).status).toBe("not-applicable");
    expect(judged(id, oneRound({ usage: { input_tokens: 3, output_tokens: 1 } }, { usage: undefined })).status).toBe("not-applicable");
    const failed = new Script("basic").launch().user("Say hello.").model({ replyText: "Hello there.", usage: usage(10, 5) }).deltas("Hello there.").failure({ subtype: "error", result: "x", usage: { input_tokens: 0, output_tokens: 1 } });
    expect(judged(id, failed).status).toBe("not-applicable");
    // A negative count is agent-cli/turns/usage-counts'.
    expect(judged(id, oneRound({ usage: { input_tokens: 10, output_tokens: -1 } })).status).toBe("pass");
  });

  it("leaves out a request whose answer the CLI discarded (an internal request, a retry)", () => {
    const s = new Script("basic").launch().user("Say hello.");
    s.model({ replyText: "A title for the chat.", usage: usage(20, 6) }).model({ replyText: "Hello there.", usage: usage(10, 5) });
    s.deltas("Hello there.").out(result({ usage: { input_tokens: 10, output_tokens: 5 } }));
    expect(judged(id, s).status).toBe("pass");
  });

  it("is skipped with the shared reason when the CLI never reached the model", () => {
    const s = new Script("basic").launch().user("hi").deltas("hello").out(result({ usage: { input_tokens: 1, output_tokens: 1 } }));
    expect(judged(id, s)).toMatchObject({ status: "skip", reason: NO_MODEL_REASON });
  });

  it("is not applicable to a plain stdout capture, which has no model side", () => {
    const capture = { ...oneRound({ usage: { input_tokens: 1, output_tokens: 1 } }).transcript(), stdoutOnly: true as const };
    const r = judgeAgentRun({ ...runOf(), transcripts: [capture], offline: true }).results.find((c) => c.id === id);
    expect(r).toMatchObject({ status: "not-applicable", reason: expect.stringMatching(/^a plain stdout capture has no model side/) });
  });

  it("finds a partial sum, and gives up rather than search without bound", () => {
    expect(partialSum([10, 30, 50], 60)).toEqual([0, 2]);
    expect(partialSum([10, 30, 50], 70)).toBeUndefined();
    expect(partialSum(Array.from({ length: 40 }, (_, i) => 2 ** i), 2 ** 39 - 1)).toBeUndefined();
  });
});

describe(`${C}/tool-use-ids`, () => {
  const id = `${C}/tool-use-ids`;

  it("passes the model's id and name, also when the raw start and the assistant message both show the block", () => {
    expect(judged(id, toolRounds({})).status).toBe("pass");
    const raw = { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "call_1", name: "read_file", input: {} } };
    expect(judged(id, toolRounds({}, [raw, { type: "content_block_stop", index: 0 }, toolUse()])).status).toBe("pass");
  });

  it("fails an invented id, a renamed call, a call the model never made and a block without id", () => {
    const messages = (shown: unknown[]): string[] => judged(id, toolRounds({}, shown)).findings.map((f) => f.message);
    expect(messages([toolUse("toolu_local_1")])).toEqual(['tool_use block "toolu_local_1" ("read_file") does not carry the id of the model\'s call of that tool; the model\'s calls: #1 read_file (call_1)']);
    expect(messages([toolUse("call_1", "Read")])).toEqual(['tool_use block "call_1" ("Read") carries the id of the model\'s call of "read_file", under another name']);
    expect(messages([toolUse(), toolUse("call_9", "write_file")])[0]).toMatch(/shows a call the model never made in this turn/);
    expect(messages([toolUse(null)])[0]).toMatch(/^a tool_use block \("read_file"\) carries no id/);
  });

  it("fails blocks shown out of the model's order, passes a resubmission shown each time", () => {
    const s = new Script("tools").launch().user("Two tools.");
    s.model({ toolCall: TOOL }).model({ toolCall: { ...TOOL, id: "call_2", name: "list_files" } });
    s.out(toolUse("call_2", "list_files")).out(toolUse("call_1", "read_file")).model({ replyText: "Done." }).deltas("Done.").out(result());
    expect(judged(id, s).findings.map((f) => f.message)).toEqual(['tool_use block "call_1" ("read_file") comes out of the model\'s order; the model\'s calls: #1 read_file (call_1), #2 list_files (call_2)']);
    const again = new Script("tools").launch().user("Same call twice.");
    again.model({ toolCall: TOOL }).out(toolUse()).model({ toolCall: TOOL }).out(toolUse()).model({ replyText: "Done." }).deltas("Done.").out(result());
    expect(judged(id, again).status).toBe("pass");
  });

  it("is not applicable when no turn shows a tool_use block (showing one at all is turns/tool-use)", () => {
    expect(judged(id, toolRounds({}, [])).status).toBe("not-applicable");
  });
});

describe(`${C}/block-sequence`, () => {
  const id = `${C}/block-sequence`;
  const start = (index: number, type = "text"): unknown => ({ type: "content_block_start", index, content_block: type === "text" ? { type, text: "" } : { type, id: "call_1", name: "read_file", input: {} } });
  const delta = (index: number, type = "text_delta"): unknown => ({ type: "content_block_delta", index, delta: type === "text_delta" ? { type, text: "Hi." } : { type, partial_json: "{}" } });
  const stop = (index: number): unknown => ({ type: "content_block_stop", index });
  const turn = (...lines: unknown[]): Script => {
    const s = new Script("basic").launch().user("Hi.");
    for (const line of lines) s.out(line);
    return s.out(result());
  };

  it("passes blocks one after another across tool rounds, the index reused or not", () => {
    expect(judged(id, turn(start(0), delta(0), stop(0), start(1, "tool_use"), delta(1, "input_json_delta"), stop(1), toolUse(), start(0), delta(0), stop(0))).status).toBe("pass");
    expect(judged(id, turn(start(0), delta(0), stop(0), toolUse(), start(2), delta(2), stop(2))).status).toBe("pass");
  });

  it("fails a block opened while another is open, though every index pairs up (turns/text-blocks passes)", () => {
    const s = turn(start(0), delta(0), toolUse(), start(1), delta(1), stop(1), stop(0));
    expect(judged(id, s).findings.map((f) => f.message)).toEqual(["block 1 started while block 0 is still open"]);
    expect(judged("agent-cli/turns/text-blocks", s).status).toBe("pass");
  });

  it("fails a delta of another kind than its block", () => {
    expect(judged(id, turn(start(0, "tool_use"), delta(0, "text_delta"), stop(0))).findings.map((f) => f.message)).toEqual(["a text_delta continues block 0, which is a tool_use block"]);
    expect(judged(id, turn(start(0), delta(0, "input_json_delta"), stop(0))).findings.map((f) => f.message)).toEqual(["a input_json_delta continues block 0, which is a text block"]);
    // Kinds the kit does not know are not judged.
    expect(judged(id, turn({ type: "content_block_start", index: 0, content_block: { type: "image" } }, delta(0), stop(0))).status).toBe("pass");
  });

  it("ignores events inside stream_event wrappers, as the Desktop does", () => {
    const wrapped = (event: unknown): unknown => ({ type: "stream_event", event });
    expect(judged(id, turn(wrapped(start(0)), wrapped(start(1)), wrapped(stop(1)))).status).toBe("not-applicable");
  });
});

describe(`${C}/streamed-turn-succeeds`, () => {
  const id = `${C}/streamed-turn-succeeds`;
  const turn = (end: (s: Script) => Script, call: Partial<ModelCall> = {}): Script => end(new Script("basic").launch().user("Say hello.").model({ replyText: "Hello there.", ...call }).deltas("Hello there."));

  it("passes a success and fails an error result after the model's whole answer", () => {
    expect(judged(id, turn((s) => s.success("Hello there."))).status).toBe("pass");
    const r = judged(id, turn((s) => s.failure({ subtype: "error", result: "history_write_failed" })));
    expect(r.status).toBe("fail");
    expect(r.findings[0]?.message).toBe("the model answered the turn's request in full and its text was streamed, yet the turn ended with an error result");
    expect(r.findings[0]?.seen).toBe('subtype "error", result "history_write_failed"');
  });

  it("does not judge a model failure, a host stop, attachments, or a result whose subtype and is_error disagree", () => {
    const error = (s: Script): Script => s.failure({ subtype: "error", result: "provider_http_500" });
    expect(judged(id, turn(error, { outcome: "aborted" })).status).toBe("not-applicable");
    expect(judged(id, turn((s) => error(s.send('{"type":"shutdown"}'))))).toMatchObject({ status: "not-applicable" });
    const attachment = new Script("content").launch().user("Look.", [{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }]).model({ replyText: "Hello there." }).deltas("Hello there.");
    expect(judged(id, error(attachment)).status).toBe("not-applicable");
    expect(judged(id, turn((s) => s.failure({ subtype: "success", result: "x" }))).status).toBe("not-applicable");
  });
});

describe("what other clauses already judge across a whole turn", () => {
  it("turns/text-blocks: a stop without start and a block left open, across tool rounds", () => {
    const s = new Script("tools").launch().user("Read.").deltas("Let me look.").out(toolUse()).out({ type: "content_block_stop", index: 0 }).out(result());
    expect(judged("agent-cli/turns/text-blocks", s).findings.map((f) => f.message)).toEqual(["content_block_stop for block 0, which is not open"]);
    const open = new Script("tools").launch().user("Read.").out({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }).out(toolUse()).out(result());
    expect(judged("agent-cli/turns/text-blocks", open).findings.map((f) => f.message)).toEqual(["block 0 never stopped before the terminal event of a successful turn"]);
  });

  it("session/stable-id: an event of a tool round that carries another session id", () => {
    const s = new Script("tools").launch().user("Read.").out({ type: "system", subtype: "init", session_id: "s-1" }).out({ ...(toolUse() as object), session_id: "s-2" }).out(result());
    expect(judged("agent-cli/session/stable-id", s).status).toBe("fail");
  });
});
