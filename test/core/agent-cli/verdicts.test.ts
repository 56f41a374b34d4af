/**
 * Verdicts that hold on candidates unlike the reference: a CLI with no model, fallback
 * notes, complete assistant messages, a refused launch, codes in subtype.
 */
import { describe, expect, it } from "vitest";
import { NO_MODEL_REASON, UNAUTHORIZED_REASON } from "../../../src/core/agent-cli/causes.js";
import { ORDER_SKEW_MS } from "../../../src/core/agent-cli/checks/turns.js";
import { judgeAgentRun, MODEL_CLAUSES } from "../../../src/core/agent-cli/judge.js";
import { DEFAULT_BOUNDS } from "../../../src/core/agent-cli/scenarios.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { runOf, Script } from "./transcripts.js";

const PNG = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
const PDF = { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQ=" } };
const PROBE = { type: "awp_conformance_probe", marker: "awp-probe-alone-5c1e" };

function results(...scripts: Script[]): Map<string, ClauseResult> {
  return new Map(judgeAgentRun(runOf(...scripts)).results.map((r) => [r.id, r]));
}

/** A scripted CLI that answers without any model and notes attachments it cannot read. */
function scriptedContent(notes: boolean): Script {
  const s = new Script("content").launch();
  s.user("Plain text question.").out({ type: "system", subtype: "init", session_id: "s-1" }).deltas("You said something.").success();
  s.user("What is in this attachment?", [PNG]).deltas(notes ? "[the image/png attachment was received but cannot be read] " : "", "Noted.").success();
  s.user("Summarise this attachment.", [PDF]).deltas(notes ? "[a PDF document cannot be read here] " : "", "Noted.").success();
  s.send(JSON.stringify({ type: "user", message: { role: "user", content: [PROBE] } })).deltas(notes ? "[awp_conformance_probe blocks are not supported] " : "", "Noted.").success();
  return s;
}

describe("a CLI that never calls the kit's model", () => {
  it("has every model clause skipped with one shared reason that says how to point it at the fixture, and fails none", () => {
    const r = results(scriptedContent(true), new Script("basic").launch().user("hi").out({ type: "system", subtype: "init", session_id: "s-1" }).deltas("hello").success("hello"));
    for (const id of MODEL_CLAUSES.filter((c) => !/image|document|unsupported/.test(c))) {
      expect(r.get(id)?.status, id).toBe("skip");
      expect(r.get(id)?.reason, id).toBe(NO_MODEL_REASON);
    }
    expect(NO_MODEL_REASON).toContain("{{fixture.openai}}");
    expect([...r.values()].filter((c) => c.status === "fail").map((c) => c.id)).toEqual([]);
  });

  it("passes image, document and unsupported blocks that a visible note names", () => {
    const r = results(scriptedContent(true));
    for (const id of ["image-block", "document-block", "unsupported-block"]) expect(r.get(`agent-cli/input/${id}`)?.status, id).toBe("pass");
  });

  it("skips (never fails) the block clauses when nothing names the block and there is no model to ask", () => {
    const r = results(scriptedContent(false));
    for (const id of ["image-block", "document-block", "unsupported-block"]) {
      expect(r.get(`agent-cli/input/${id}`)?.status, id).toBe("skip");
      expect(r.get(`agent-cli/input/${id}`)?.reason, id).toBe(NO_MODEL_REASON);
    }
  });

  it("says so differently when the CLI reached the fixture without its key", () => {
    const s = new Script("basic").launch().user("hi").model({ authorized: false, status: 401, outcome: "unauthorized" }).failure({ subtype: "error", result: "provider_http_401" });
    expect(results(s).get("agent-cli/fidelity/streamed-text")?.reason).toBe(UNAUTHORIZED_REASON);
  });
});

describe("blocks with a model", () => {
  it("fails a block that disappears from the request and the output", () => {
    const s = new Script("content").launch().user("What is in this attachment?", [PNG]).model({ body: { messages: [{ role: "user", content: "What is in this attachment?" }] }, replyText: "Fine." }).deltas("Fine.").success("Fine.");
    expect(results(s).get("agent-cli/input/image-block")?.status).toBe("fail");
  });

  it("does not take the kit's prompt or the model's reply for a note", () => {
    const s = new Script("content").launch().user("Describe the image here.", [PNG]).model({ body: { messages: [{ role: "user", content: "Describe the image here." }] }, replyText: "An image, I suppose." }).deltas("Describe the image here. ", "An image, I suppose.").success();
    expect(results(s).get("agent-cli/input/image-block")?.status).toBe("fail");
  });

  it("passes the data or a fallback in this turn's messages, not in earlier history", () => {
    const passed = new Script("content").launch().user("Look.", [PNG]).model({ body: { messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] }] }, replyText: "ok" }).deltas("ok").success();
    expect(results(passed).get("agent-cli/input/image-block")?.status).toBe("pass");
    const history = { messages: [{ role: "user", content: "[image/png attachment]" }, { role: "assistant", content: "ok" }, { role: "user", content: "Look again." }] };
    const dropped = new Script("content").launch().user("Look again.", [PNG]).model({ body: history, replyText: "ok" }).deltas("ok").success();
    expect(results(dropped).get("agent-cli/input/image-block")?.status).toBe("fail");
  });
});

describe("text fidelity", () => {
  const turn = (shown: string[], reply = "The model's answer."): Script =>
    new Script("basic").launch().user("q").model({ replyText: reply }).deltas(...shown).success(shown.join(""));

  it("lets the CLI stream a note of its own before the model's text", () => {
    const r = results(turn(["(note: 1 attachment skipped)\n", "The model's ", "answer."]));
    expect(r.get("agent-cli/fidelity/streamed-text")?.status).toBe("pass");
    expect(r.get("agent-cli/fidelity/result-text")?.status).toBe("pass");
  });

  it("fails truncation and duplication, showing the first difference", () => {
    const cut = results(turn(["The model's ans"])).get("agent-cli/fidelity/streamed-text");
    expect(cut?.status).toBe("fail");
    expect(cut?.findings[0]?.message).toContain("first 15 of 19 characters");
    expect(results(turn(["The model's answer.", "The model's answer."])).get("agent-cli/fidelity/streamed-text")?.status).toBe("fail");
  });

  it("leaves out a CLI's own request that carries no turn of the conversation (Qwen Code's memory extraction)", () => {
    const directive = { turn: "basic-1" };
    const s = new Script("basic").launch().user("q [[awp-fixture turn=basic-1]]").model({ directive, replyText: "Reply 1 from the fixture (turn basic-1)." });
    s.model({ replyText: "Reply 2 from the fixture (turn 2)." }).out({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Reply 1 from the fixture (turn basic-1)." }] } }).success("Reply 1 from the fixture (turn basic-1).");
    const r = results(s);
    expect(r.get("agent-cli/fidelity/streamed-text")?.status).toBe("pass");
    expect(r.get("agent-cli/fidelity/result-text")?.status).toBe("pass");
  });

  it("accepts complete assistant messages instead of deltas", () => {
    const s = new Script("basic").launch().user("q").model({ replyText: "Whole reply." }).out({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Whole reply." }] } }).success("Whole reply.");
    expect(results(s).get("agent-cli/fidelity/streamed-text")?.status).toBe("pass");
  });
});

describe("a refused launch", () => {
  const refused = (scenario: string): Script =>
    new Script(scenario, "stream-json").launch().user("hi").err("Usage: qwen [options]\nUnknown arguments: print, verbose\n  --help  Show help\n").exit(1);

  it("fails session/stays-up once for the launches that gave the same answer, quoting the decisive stderr line, and skips what needed a live process", () => {
    const r = results(refused("basic"), refused("malformed"), refused("mcp"));
    const failing = [...r.values()].filter((c) => c.status === "fail").map((c) => c.id);
    // Nothing on stdout: the refusal is not reported as an error result either.
    expect(failing).toEqual(["agent-cli/session/stays-up", "agent-cli/session/refusal-reported"]);
    const stays = r.get("agent-cli/session/stays-up");
    expect(stays?.findings).toHaveLength(1);
    expect(stays?.findings[0]?.message).toContain("each of 3 launches (basic, malformed, mcp) ended (exit code 1) before serving a turn");
    expect(stays?.findings[0]?.message).toContain("Unknown arguments: print, verbose");
    for (const id of ["agent-cli/turns/no-exit-mid-turn", "agent-cli/input/survives-malformed-line", "agent-cli/input/mcp-config", "agent-cli/turns/one-terminal-per-turn"]) {
      expect(r.get(id)?.status, id).toBe("skip");
      expect(r.get(id)?.reason, id).toContain("refused to start");
      expect(r.get(id)?.reason, id).toContain("Unknown arguments: print, verbose");
    }
  });

  it("still reports an exit in the middle of a later turn as no-exit-mid-turn", () => {
    const s = new Script("basic").launch().user("one").deltas("a").success("a").user("two").deltas("b").exit(1);
    const r = results(s);
    expect(r.get("agent-cli/turns/no-exit-mid-turn")?.status).toBe("fail");
    expect(r.get("agent-cli/session/stays-up")?.status).toBe("pass");
  });
});

describe("what the contract leaves optional", () => {
  it("does not hold a missing session id or a success result without text against a CLI", () => {
    const bare = (scenario: string): Script => {
      const s = new Script(scenario).launch().user("q").model({ replyText: "x" });
      s.events.push({ kind: "stdout", t: 999, process: 1, line: JSON.stringify({ type: "result", subtype: "success", is_error: false }) });
      return s;
    };
    const r = results(bare("basic"), bare("resume"));
    for (const id of ["agent-cli/session/id-form", "agent-cli/session/stable-id", "agent-cli/resume/accepts-id", "agent-cli/resume/keeps-id", "agent-cli/fidelity/result-text"]) {
      expect(r.get(id)?.status, id).toBe("not-applicable");
    }
  });

  it("does not require result events from a raw stream that ends its turns with message_stop", () => {
    const s = new Script("basic").launch().user("q").model({ replyText: "x" }).deltas("x").out({ type: "message_stop" });
    const r = results(s);
    expect(r.get("agent-cli/turns/result-shape")?.status).toBe("not-applicable");
    expect(r.get("agent-cli/turns/one-terminal-per-turn")?.status).toBe("pass");
  });

  it("counts a message_stop-ended turn as completed for every clause: its text is judged, and it serves after a model failure", () => {
    const stop = { type: "message_stop" };
    const basic = new Script("basic").launch().user("q").model({ replyText: "Hello there." }).deltas("Hello there.").out(stop);
    const probe = new Script("failures-error").launch().user("x [[awp-fixture turn=fail-500 status=500]]").model({ directive: { turn: "fail-500", status: 500 }, status: 500, outcome: "error" }).failure({ subtype: "error", result: "provider_http_500" });
    probe.user("y [[awp-fixture turn=fail-500-next]]").model({ directive: { turn: "fail-500-next" }, replyText: "Back." }).deltas("Back.").out(stop);
    const r = results(basic, probe);
    expect(r.get("agent-cli/fidelity/streamed-text")).toMatchObject({ status: "pass", judged: 2 });
    expect(r.get("agent-cli/failures/model-error")).toMatchObject({ status: "pass", judged: 1 });
    expect(r.get("agent-cli/consistency/streamed-turn-succeeds")?.status).toBe("pass");
    // A streamed turn cut short by its own text is still judged: message_stop does not hide a truncation.
    const cut = new Script("basic").launch().user("q").model({ replyText: "Hello there." }).deltas("Hello").out(stop);
    expect(results(cut).get("agent-cli/fidelity/streamed-text")?.status).toBe("fail");
  });

  it("fails a model failure answered with message_stop: it ends the turn without an error, so the failure is hidden", () => {
    const probe = new Script("failures-error").launch().user("x [[awp-fixture turn=fail-500 status=500]]").model({ directive: { turn: "fail-500", status: 500 }, status: 500, outcome: "error" }).out({ type: "message_stop" });
    probe.user("y [[awp-fixture turn=fail-500-next]]").model({ directive: { turn: "fail-500-next" }, replyText: "Back." }).deltas("Back.").out({ type: "message_stop" });
    const r = results(probe).get("agent-cli/failures/model-error");
    expect(r?.status).toBe("fail");
    expect(r?.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^after HTTP 500 the turn ended with message_stop \(after \d+\.\d s\), which ends a turn without an error: the Desktop shows it done and the failure is hidden$/)]);
  });
});

describe("turn order", () => {
  it("reports turns answered out of order once, under terminal-in-order, not again as text fidelity", () => {
    const s = new Script("queued").launch().user("a [[awp-fixture turn=queued-1]]").user("b [[awp-fixture turn=queued-2]]");
    s.model({ directive: { turn: "queued-2" }, replyText: "The second answer." }).deltas("The second answer.").success("The second answer.");
    s.model({ directive: { turn: "queued-1" }, replyText: "The first answer." }).deltas("The first answer.").success("The first answer.");
    const r = results(s);
    expect(r.get("agent-cli/turns/terminal-in-order")?.status).toBe("fail");
    expect(r.get("agent-cli/fidelity/streamed-text")?.status).not.toBe("fail");
    expect(r.get("agent-cli/fidelity/result-text")?.status).not.toBe("fail");
  });

  it("says a CLI answered queued turns out of order when the later turn reached the model first", () => {
    const s = new Script("queued").launch().user("a [[awp-fixture turn=queued-1]]").user("b [[awp-fixture turn=queued-2]]");
    s.model({ directive: { turn: "queued-2" }, replyText: "B" }).deltas("B").success("B").model({ directive: { turn: "queued-1" }, replyText: "A" }).deltas("A").success("A");
    const r = results(s).get("agent-cli/turns/terminal-in-order");
    expect(r?.status).toBe("fail");
    expect(r?.findings[0]?.message).toContain("answered out of order");
  });
});

describe("turn order as the kit sees it", () => {
  /** Two queued turns answered in order, the second's model request seen `skew` ms before the first's terminal line was read. */
  const seenEarly = (skew: number, orderSkewMs?: number): ReturnType<typeof results> => {
    const s = new Script("queued").launch().user("a [[awp-fixture turn=queued-1]]").user("b [[awp-fixture turn=queued-2]]");
    s.model({ directive: { turn: "queued-1" }, replyText: "A" });
    // The first turn's model call is answered slowly: its terminal line comes 600 ms after its request.
    for (let i = 0; i < 60; i++) s.err("working");
    s.deltas("A").success("A");
    const terminal = s.events[s.events.length - 1] as { t: number };
    s.model({ directive: { turn: "queued-2" }, replyText: "B", startT: terminal.t - skew }).deltas("B").success("B");
    if (orderSkewMs === undefined) return results(s);
    const run = { ...runOf(s), bounds: { ...DEFAULT_BOUNDS, orderSkewMs } };
    return new Map(judgeAgentRun(run).results.map((r) => [r.id, r]));
  };

  it(`passes a next request seen up to ${ORDER_SKEW_MS} ms before the terminal line (the kit's own observation skew under load)`, () => {
    expect(seenEarly(100).get("agent-cli/turns/terminal-in-order")?.status).toBe("pass");
    expect(seenEarly(ORDER_SKEW_MS).get("agent-cli/turns/terminal-in-order")?.status).toBe("pass");
  });

  it("fails one seen well before it: the CLI asked the model for the next turn first", () => {
    const r = seenEarly(ORDER_SKEW_MS + 150).get("agent-cli/turns/terminal-in-order");
    expect(r?.status).toBe("fail");
    expect(r?.findings[0]?.message).toContain("was sent to the model before this turn's terminal event");
  });

  it("takes the allowance from --order-skew: 0 judges 100 ms early as overlap, 1000 lets 400 ms pass", () => {
    expect(seenEarly(100, 0).get("agent-cli/turns/terminal-in-order")?.status).toBe("fail");
    expect(seenEarly(ORDER_SKEW_MS + 150, 1000).get("agent-cli/turns/terminal-in-order")?.status).toBe("pass");
  });
});

describe("queued lines merged into one turn (as Claude Code does)", () => {
  it("fails one-terminal-per-turn for the line left unanswered, even though the kit stopped the process afterwards, and names the merge", () => {
    const s = new Script("queued").launch().user("a [[awp-fixture turn=queued-1]]").user("b [[awp-fixture turn=queued-2]]").user("c [[awp-fixture turn=queued-3]]");
    s.model({ directive: { turn: "queued-1" }, replyText: "A", userText: "a [[awp-fixture turn=queued-1]]" }).deltas("A").success("A");
    s.model({ directive: { turn: "queued-3" }, replyText: "C", userText: "b [[awp-fixture turn=queued-2]]\n\nc [[awp-fixture turn=queued-3]]" }).deltas("C").success("C");
    s.events.push({ kind: "timeout", t: 5000, process: 1, waitingFor: "the terminal event of turn queued-3", afterMs: 30000 });
    s.events.push({ kind: "action", t: 5001, process: 1, action: "stop" });
    s.exit(null, true);
    const r = results(s);
    expect(r.get("agent-cli/turns/one-terminal-per-turn")?.status).toBe("fail");
    // Not a wait to raise: the request that carried both lines was answered once.
    const [merged] = r.get("agent-cli/turns/one-terminal-per-turn")?.findings ?? [];
    expect(merged?.message).toBe("the CLI merged this line (queued-3) with queued-2 into one model request (#2, whose last user message carried both lines) and answered that request with one terminal event: this line got none of its own");
    expect(merged?.kitBound).toBeUndefined();
    // One cause, one finding: the order held, and terminal-in-order does not repeat the merge.
    expect(r.get("agent-cli/turns/terminal-in-order")?.status).toBe("pass");
  });

  it("says a turn the kit stopped waiting for rests on --turn-timeout, the kit's bound, with what the CLI was doing", () => {
    const s = new Script("queued").launch().user("a [[awp-fixture turn=queued-1]]").model({ directive: { turn: "queued-1" }, replyText: "A", userText: "a [[awp-fixture turn=queued-1]]" }).deltas("A");
    s.events.push({ kind: "timeout", t: 5000, process: 1, waitingFor: "the terminal event of turn 1 (queued-1)", afterMs: 30000 });
    s.events.push({ kind: "action", t: 5001, process: 1, action: "stop" });
    s.exit(null, true);
    const [unanswered] = results(s).get("agent-cli/turns/one-terminal-per-turn")?.findings ?? [];
    expect(unanswered?.message).toMatch(/^no terminal event within 30000 ms of the turn \(--turn-timeout, the kit's bound, not the contract's: raise it if the CLI is only slow\); the CLI was silent since \d+ ms \(\d+\.\d s before the kit stopped waiting\)$/);
    expect(unanswered?.kitBound).toEqual({ option: "--turn-timeout", value: 30000, unit: "ms", activity: expect.stringMatching(/^silent since \d+ ms/) });
  });

  it("leaves a scripted failure's own unanswered turn to agent-cli/failures", () => {
    const s = new Script("failures-stall").launch().user("x [[awp-fixture turn=fail-stall stall=1]]").model({ directive: { turn: "fail-stall", stall: true }, outcome: "stalled" });
    s.events.push({ kind: "timeout", t: 5000, process: 1, waitingFor: "the terminal event of turn fail-stall", afterMs: 180000 });
    s.events.push({ kind: "action", t: 5001, process: 1, action: "stop" });
    s.exit(null, true);
    const r = results(s);
    expect(r.get("agent-cli/failures/model-stall")?.status).toBe("fail");
    expect(r.get("agent-cli/turns/one-terminal-per-turn")?.status).not.toBe("fail");
  });
});

describe("a malformed line answered with a non-JSON stdout line", () => {
  it("pairs the next valid turn's result with that turn, as everywhere else: the CLI survived", () => {
    const s = new Script("malformed").launch().send("this is not json").out("error: that line is not JSON").user("Valid question.").model({ replyText: "Fine." }).deltas("Fine.").success("Fine.");
    const r = results(s).get("agent-cli/input/survives-malformed-line");
    expect(r).toMatchObject({ status: "pass", judged: 1, findings: [] });
  });
});

describe("content blocks left open", () => {
  it("allows a failed turn to end with its block open, not a successful one", () => {
    const open = (end: (s: Script) => Script): Script => end(new Script("basic").launch().user("q").out({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }).out({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "par" } }));
    expect(results(open((s) => s.failure({ subtype: "error", result: "provider_timeout" }))).get("agent-cli/turns/text-blocks")?.status).toBe("pass");
    expect(results(open((s) => s.success("par"))).get("agent-cli/turns/text-blocks")?.status).toBe("fail");
  });
});

describe("error codes", () => {
  const failed = (fields: Record<string, unknown>): Map<string, ClauseResult> => results(new Script("failures").launch().user("x").failure(fields));

  it("takes a specific subtype as the code when result is absent, with a SHOULD finding", () => {
    const r = failed({ subtype: "error_during_execution" });
    expect(r.get("agent-cli/turns/error-code")?.status).toBe("pass");
    expect(r.get("agent-cli/turns/error-code-in-result")?.status).toBe("fail");
  });

  it("fails free text, and the generic subtype alone", () => {
    expect(failed({ subtype: "error_during_execution", result: "API Error: 500 boom" }).get("agent-cli/turns/error-code")?.status).toBe("fail");
    expect(failed({ subtype: "error" }).get("agent-cli/turns/error-code")?.status).toBe("fail");
  });

  it("skips, naming result-shape, when the only error result says subtype success (not 'no error result')", () => {
    const r = failed({ subtype: "success", result: "API Error: 500 boom" });
    expect(r.get("agent-cli/turns/result-shape")?.status).toBe("fail");
    expect(r.get("agent-cli/turns/error-code")).toMatchObject({ status: "skip", reason: expect.stringMatching(/^every error result \(is_error true\) said subtype "success": agent-cli\/turns\/result-shape fails them/) });
    expect(results(new Script("failures").launch().user("x").success("fine")).get("agent-cli/turns/error-code")).toMatchObject({ status: "not-applicable", reason: "no error result was written" });
  });

  it("takes a code in another form than the reference's as a code (the contract gives none): only the SHOULD on the reference's form fails", () => {
    const r = failed({ subtype: "error", result: "anthropic:http.500" });
    expect(r.get("agent-cli/turns/error-code")?.status).toBe("pass");
    expect(r.get("agent-cli/turns/error-code-in-result")?.status).toBe("pass");
    const form = r.get("agent-cli/turns/error-code-form");
    expect(form).toMatchObject({ status: "fail", level: "SHOULD" });
    expect(form?.findings[0]?.message).toBe("the error code \"anthropic:http.500\" is not in the upstream reference CLI's form (letters, digits, _ : -, at most 160); the contract sets no form, hence SHOULD");
    // A sentence is no code in any form: the MUST fails, and the form is not judged again.
    const sentence = failed({ subtype: "error", result: "The model failed." });
    expect(sentence.get("agent-cli/turns/error-code")?.status).toBe("fail");
    expect(sentence.get("agent-cli/turns/error-code-form")?.status).toBe("not-applicable");
  });

  it("passes both clauses with the code in result", () => {
    const r = failed({ subtype: "error", result: "provider_http_500" });
    expect(r.get("agent-cli/turns/error-code")?.status).toBe("pass");
    expect(r.get("agent-cli/turns/error-code-in-result")?.status).toBe("pass");
    expect(r.get("agent-cli/turns/error-code-form")?.status).toBe("pass");
  });
});

describe("the tool probe", () => {
  it("is not applicable when the CLI offered its model no tools", () => {
    const s = new Script("tools").launch().user("Read it.").model({ body: { messages: [], tools: [] }, replyText: "No tools here." }).deltas("No tools here.").success();
    const r = results(s).get("agent-cli/turns/tool-use");
    expect(r?.status).toBe("not-applicable");
    expect(r?.reason).toContain("offered its model no tools");
  });
});
