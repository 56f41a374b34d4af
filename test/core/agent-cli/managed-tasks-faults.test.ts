/**
 * Each managed-task clause fails on a simulated CLI broken in exactly one way, and that
 * clause alone fails among every agent-cli clause, in both styles (OpenAI with JSON tool
 * results and follow-ups after failures; Anthropic with prose text blocks and error results).
 */
import { describe, expect, it } from "vitest";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import type { ControlPlaneRequest, Transcript, TranscriptEvent } from "../../../src/core/agent-cli/types.js";
import { ANTHROPIC_BLOCKS, managedRun, managedTranscript, OPENAI_JSON, TOKEN, type Behaviour } from "./managed-sim.js";
import { gatedTranscript, type GatedBehaviour } from "./managed-sim-gated.js";

const M = (id: string): string => `agent-cli/managed-tasks/${id}`;

function judged(transcripts: Transcript[]): ClauseResult[] {
  return judgeAgentRun(managedRun(transcripts)).results;
}
const failing = (results: ClauseResult[]): string[] => results.filter((r) => r.status === "fail").map((r) => r.id);
const messages = (results: ClauseResult[], id: string): string[] => results.find((r) => r.id === id)?.findings.map((f) => f.message) ?? [];

/** A copy of a transcript with one event changed or added after another. */
function edited(t: Transcript, change: (events: TranscriptEvent[]) => TranscriptEvent[]): Transcript {
  return { ...t, events: change(structuredClone(t.events)) };
}
const requests = (events: TranscriptEvent[]): ControlPlaneRequest[] => events.flatMap((e) => (e.kind === "controlplane" ? [e.request] : []));

const STYLES: readonly [string, Behaviour][] = [["OpenAI, JSON results", OPENAI_JSON], ["Anthropic, prose blocks, error results", ANTHROPIC_BLOCKS]];
const onlySucceed = (f: (id: string) => string) => (id: string): string => (id.includes("mt-succeed") ? f(id) : id);

interface Fault {
  name: string;
  clause: string;
  change: Partial<Behaviour>;
  says: RegExp;
}

const FAULTS: readonly Fault[] = [
  { name: "argv joined into one string", clause: M("argv-not-shell"), change: { argv: (a) => a.join(" ") }, says: /argv was sent as one command string/ },
  { name: "argv wrapped in sh -c", clause: M("argv-not-shell"), change: { argv: (a) => ["sh", "-c", a.join(" ")] }, says: /wrapped in a shell/ },
  { name: "argv elements quoted", clause: M("argv-not-shell"), change: { argv: (a) => a.map((x) => `'${x}'`) }, says: /payload\.argv\[0\] is "'awp-conformance-task'"/ },
  { name: "no idempotency key", clause: M("idempotency-key"), change: { key: () => undefined }, says: /carries no idempotency_key/ },
  { name: "an empty idempotency key", clause: M("idempotency-key"), change: { key: () => "" }, says: /idempotency_key "", not a non-empty string/ },
  { name: "one key for every call", clause: M("idempotency-key"), change: { key: () => "awp-key" }, says: /same idempotency_key as call .* a different tool call/ },
  { name: "a new key for the repeated call", clause: M("idempotency-resubmission"), change: { key: (turn, id, round) => `k-${turn}-${id}-${round}` }, says: /submitted 2 times with different idempotency keys/ },
  { name: "the result tied to another id", clause: M("result-framing"), change: { resultId: onlySucceed(() => "call_other") }, says: /carries no tool result tied to call .*_awp_mt-succeed_A \(tool results for "call_other"/ },
  { name: "the result without its exit code", clause: M("result-framing"), change: { resultText: (text, tag) => (tag === "mt-succeed" ? text.replace(/"exit_code":3,|and exit code 3/, "") : text) }, says: /lacks the task's exit code 3$/ },
  { name: "the result without stderr", clause: M("result-framing"), change: { resultText: (text, tag) => (tag === "mt-succeed" ? text.replace("awp-task-stderr-8c27", "") : text) }, says: /lacks the task's stderr "awp-task-stderr-8c27"/ },
  { name: "the whole 1 MiB output", clause: M("bounded-output"), change: { cut: 2 * 1024 * 1024 }, says: /reached the model as a tool result of 10\d{5} bytes, over the kit's bound of 262144 bytes/ },
  { name: "the pending task abandoned late", clause: M("wait-limit"), change: { pendingWaitMs: 13_000 }, says: /stopped waiting for the pending task 13\.0 s after submitting it, past timeout_seconds 2 plus 10000 ms/ },
  { name: "the model not told it timed out", clause: M("wait-limit"), change: { timeoutText: "Stopped waiting." }, says: /tool result does not say the wait timed out/ },
  { name: "two terminal events after HTTP 500", clause: M("control-plane-failures"), change: { doubleTerminalOn: "http-500" }, says: /2 terminal events answer the turn after the control plane answered the submission with HTTP 500/ },
  { name: "an exit after a body that is not JSON", clause: M("control-plane-failures"), change: { exitAfter: "not-json" }, says: /not JSON the process exited and could not be given the next turn/ },
  { name: "no call limit", clause: M("call-limit"), change: { callLimit: "never" }, says: /no terminal event within 30000 ms \(--turn-timeout\) while the model called awp_run_managed_task in every round/ },
  { name: "the key on stderr", clause: M("key-not-leaked"), change: { stderr: `debug: control plane key ${TOKEN}\n` }, says: /^the control-plane key appeared on stderr$/ },
  { name: "the tool_use block with another id", clause: M("tool-use-shown"), change: { toolUseId: (id) => `${id}_shown` }, says: /no tool_use block shows call .* \(blocks for awp_run_managed_task carry id ".*_shown"\)/ },
  { name: "the tool_use block without the input", clause: M("tool-use-shown"), change: { toolUseInput: () => ({}) }, says: /its input differs from the model's arguments/ },
  { name: "a task_type other than command", clause: M("control-plane-api"), change: { taskType: "shell" }, says: /task_type is "shell", not "command"/ },
];

describe.each(STYLES)("a CLI with the bridge (%s)", (_, style) => {
  it("passes every clause, and the general ones stay green on its managed turns", () => {
    const results = judged([managedTranscript(style), gatedTranscript(["refuse", "chat", "refuse"], style.api)]);
    expect(failing(results)).toEqual([]);
    for (const r of results.filter((c) => c.id.startsWith("agent-cli/managed-tasks/"))) expect([r.id, r.status]).toEqual([r.id, "pass"]);
  });

  it.each(FAULTS.map((f) => [f.name, f] as const))("fails exactly one clause: %s", (_, fault) => {
    const results = judged([managedTranscript({ ...style, ...fault.change })]);
    expect(failing(results)).toEqual([fault.clause]);
    expect(messages(results, fault.clause).some((m) => fault.says.test(m)), messages(results, fault.clause).join("\n")).toBe(true);
  });
});

describe("faults that only one style shows", () => {
  it("wait-limit fails a CLI that ends the pending turn with an error result without telling the model", () => {
    const results = judged([managedTranscript({ ...OPENAI_JSON, pendingEnd: "error" })]);
    expect(failing(results)).toEqual([M("wait-limit")]);
    expect(messages(results, M("wait-limit"))[0]).toMatch(/ended the turn without telling the model that the task timed out \(the turn ended with an error result "control_plane_timeout"\)/);
  });

  it("control-plane-failures passes a CLI that ends each failing turn with an error result and then serves on", () => {
    const results = judged([managedTranscript(ANTHROPIC_BLOCKS)]);
    expect(results.find((r) => r.id === M("control-plane-failures"))).toMatchObject({ status: "pass", judged: 6 });
  });

  it("control-plane-api fails a request without the Bearer key, a POST that is not JSON, and a poll of an invalid id, one finding each", () => {
    const base = managedTranscript(OPENAI_JSON);
    const broken = edited(base, (events) => {
      const all = requests(events);
      const poll = all.find((r) => r.method === "GET");
      const post = all.find((r) => r.method === "POST");
      if (poll !== undefined) Object.assign(poll, { authorized: false, status: 401, outcome: "unauthorized", taskStatus: undefined });
      if (post !== undefined) post.contentType = "text/plain";
      const badId = events.findIndex((e) => e.kind === "controlplane" && e.request.taskId === "../not a task id");
      const at = events[badId] as TranscriptEvent;
      events.splice(badId + 1, 0, { kind: "controlplane", t: at.t + 1, process: at.process, request: { seq: 999, method: "GET", path: "/v1/not%20a%20task%20id", authorized: true, bodyBytes: 0, status: 404, outcome: "not-found", startT: at.t + 1 } });
      return events;
    });
    const results = judged([broken]);
    expect(failing(results)).toEqual([M("control-plane-api")]);
    expect(messages(results, M("control-plane-api"))).toEqual([
      '1 request POST /v1/tasks with a body {task_type: "command", payload: {argv: string[]}, idempotency_key: string}: content-type "text/plain", not application/json; the control plane answered 201',
      "1 request GET /v1/tasks/<id>: no Authorization: Bearer <the control-plane key>; the control plane answered 401",
      "1 request GET /v1/not%20a%20task%20id: a poll of no task the control plane answered; the control plane answered 404",
    ]);
  });

  it("key-not-leaked finds the key on stdout, split across stderr chunks, and in a model request", () => {
    const base = managedTranscript(ANTHROPIC_BLOCKS);
    const broken = edited(base, (events) => {
      const model = events.find((e) => e.kind === "model");
      if (model?.kind === "model") model.call.body = { ...(model.call.body as object), system: `key ${TOKEN}` };
      const t = events[1]?.t ?? 0;
      events.splice(2, 0, { kind: "stderr", t, process: 1, text: `key: ${TOKEN.slice(0, 20)}` }, { kind: "stderr", t, process: 1, text: `${TOKEN.slice(20)}\n` });
      return events;
    });
    const withStdout = edited(broken, (events) => [...events.slice(0, -2), { kind: "stdout", t: 1e6, process: 1, line: JSON.stringify({ type: "system", subtype: "debug", key: TOKEN }) }, ...events.slice(-2)]);
    const results = judged([withStdout]);
    expect(failing(results)).toContain(M("key-not-leaked"));
    expect(messages(results, M("key-not-leaked"))).toEqual(["the control-plane key appeared on stdout (1 line(s)), on stderr, in 1 model request(s)"]);
  });
});

describe("gated", () => {
  const GOOD: readonly (readonly GatedBehaviour[])[] = [["refuse", "refuse", "refuse"], ["chat", "chat", "chat"], ["refuse", "chat", "chat"]];
  it.each(GOOD.map((g) => [g.join(", "), g] as const))("passes launches that %s", (_, each) => {
    const results = judged([gatedTranscript(each)]);
    expect(failing(results)).toEqual([]);
    expect(results.find((r) => r.id === M("gated"))).toMatchObject({ status: "pass", judged: 3 });
  });

  it("fails a launch without the URL that still offers the tool, and one without the key that still submits", () => {
    const results = judged([gatedTranscript(["chat", "offer", "submit"])]);
    expect(failing(results)).toEqual([M("gated")]);
    expect(messages(results, M("gated"))).toEqual([
      "launched without the control-plane URL, the CLI still offered awp_run_managed_task to its model",
      "launched without the control-plane key, the CLI still sent the control plane 1 request(s)",
      "launched without the control-plane key, the CLI still offered awp_run_managed_task to its model",
    ]);
  });
});
