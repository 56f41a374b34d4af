/**
 * When the managed-task clauses are judged at all: the bridge off or not recorded (not
 * applicable, saying which flags to add), the tool never offered, no model, a refused start
 * (skipped with one shared reason each); and the kit's bounds at their edges.
 */
import { describe, expect, it } from "vitest";
import { NO_MODEL_REASON } from "../../../src/core/agent-cli/causes.js";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import { bridgeSetup } from "../../../src/core/agent-cli/managed-tasks.js";
import type { Transcript, TranscriptEvent } from "../../../src/core/agent-cli/types.js";
import type { AgentRun } from "../../../src/core/agent-cli/checks/helpers.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { ANTHROPIC_BLOCKS, BRIDGE_CONFIG, managedRun, managedTranscript, OPENAI_JSON, TOKEN } from "./managed-sim.js";
import { gatedTranscript } from "./managed-sim-gated.js";

const M = (id: string): string => `agent-cli/managed-tasks/${id}`;
const FLAGS = "--env AWP_AGENT_MANAGED_TASKS_OPT_IN=1 --env AWP_CONTROL_PLANE_URL={{fixture.controlplane}} --env AWP_CONTROL_PLANE_API_KEY={{fixture.controlplane_token}}";
/** The clauses that need a call of the tool (all but gated and key-not-leaked). */
const CALL_CLAUSES = ["argv-not-shell", "idempotency-key", "idempotency-resubmission", "result-framing", "bounded-output", "wait-limit", "control-plane-failures", "call-limit", "tool-use-shown", "control-plane-api"].map(M);

function managed(run: AgentRun): ClauseResult[] {
  return judgeAgentRun(run).results.filter((r) => r.id.startsWith("agent-cli/managed-tasks/"));
}
const byId = (results: ClauseResult[], id: string): ClauseResult | undefined => results.find((r) => r.id === id);

describe("the bridge off or not recorded", () => {
  it("has every clause not applicable, naming the exact flags to add, when the launch does not use {{fixture.controlplane}}", () => {
    const results = managed(managedRun([managedTranscript(OPENAI_JSON), gatedTranscript("chat")], { configured: false }));
    expect(results).toHaveLength(12);
    for (const r of results) {
      expect([r.id, r.status]).toEqual([r.id, "not-applicable"]);
      expect(r.reason).toContain(FLAGS);
      expect(r.reason).toContain("--managed-tasks-opt-in NAME");
    }
  });

  it("has every clause not applicable on recorded transcripts without the scenarios, saying how to record them", () => {
    const basic: Transcript = { scenario: "basic", mode: "awp-jsonl", events: [] };
    const results = managed(managedRun([basic], { offline: true }));
    for (const r of results) {
      expect([r.id, r.status]).toEqual([r.id, "not-applicable"]);
      expect(r.reason).toMatch(/^the recorded transcripts hold no managed-(tasks|gated) scenario, .*awp-conformance record --scenario managed-(tasks|gated) with --env/);
    }
  });

  it("judges recorded transcripts, searching them for any key of the kit's form", () => {
    const clean = managed(managedRun([managedTranscript(ANTHROPIC_BLOCKS), gatedTranscript("refuse")], { offline: true }));
    for (const r of clean) expect([r.id, r.status]).toEqual([r.id, "pass"]);
    const leaky = managed(managedRun([managedTranscript({ ...ANTHROPIC_BLOCKS, stderr: `key=awp-cp-${"0f".repeat(24)}\n` })], { offline: true }));
    expect(byId(leaky, M("key-not-leaked"))?.findings[0]?.message).toBe("the control-plane key appeared on stderr (a value of the kit's key form awp-cp-<48 hex digits>)");
  });

  it("has key-not-leaked not applicable when no key placeholder is used, and says so where the tool was never offered", () => {
    const setup = bridgeSetup({ prefixArgs: [], env: { AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: "{{fixture.controlplane}}" } });
    const run: AgentRun = { ...managedRun([managedTranscript({ ...OPENAI_JSON, noTool: true })]), managed: { ...(setup !== undefined ? { setup } : {}), outputLimit: 262_144, waitSlackMs: 10_000 } };
    const results = managed(run);
    expect(byId(results, M("key-not-leaked"))).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("no control-plane key ({{fixture.controlplane_token}} is not used)") });
    expect(byId(results, M("argv-not-shell"))?.reason).toContain("(URL in AWP_CONTROL_PLANE_URL, no key: {{fixture.controlplane_token}} is not used, opt-in AWP_AGENT_MANAGED_TASKS_OPT_IN)");
  });
});

describe("configured, but nothing to judge", () => {
  it("skips every clause that needs a call with one shared reason when the CLI never offers the tool, and still judges gated and the key", () => {
    const results = managed(managedRun([managedTranscript({ ...OPENAI_JSON, noTool: true }), gatedTranscript("chat")]));
    const reasons = new Set(CALL_CLAUSES.map((id) => byId(results, id)?.reason));
    expect(reasons.size).toBe(1);
    expect([...reasons][0]).toBe(
      `the CLI was launched with the managed-task bridge configured (URL in AWP_CONTROL_PLANE_URL, key in AWP_CONTROL_PLANE_API_KEY, opt-in AWP_AGENT_MANAGED_TASKS_OPT_IN) but never offered awp_run_managed_task to its model (it offered no tools): check that these are the variables the CLI reads, e.g. ${FLAGS} (or the CLI's own variable names, with --managed-tasks-opt-in NAME for an opt-in named differently)`,
    );
    for (const id of CALL_CLAUSES) expect(byId(results, id)?.status, id).toBe("skip");
    expect(byId(results, M("gated"))?.status).toBe("pass");
    expect(byId(results, M("key-not-leaked"))?.status).toBe("pass");
  });

  it("skips them with the run's shared no-model cause when the CLI never reached the model", () => {
    const mute = (t: Transcript): Transcript => ({ ...t, events: t.events.filter((e) => e.kind !== "model") });
    const results = managed(managedRun([mute(managedTranscript(OPENAI_JSON))]));
    for (const id of CALL_CLAUSES) expect([id, byId(results, id)?.reason]).toEqual([id, NO_MODEL_REASON]);
  });

  it("skips them naming the refusal when the CLI exits at start with the bridge on (and session/stays-up fails)", () => {
    const events: TranscriptEvent[] = [
      { kind: "launch", t: 0, process: 1, argv: ["/opt/cli"], cwd: "/w", envNames: [] },
      { kind: "stderr", t: 5, process: 1, text: "error: invalid_control_plane_url\n" },
      { kind: "exit", t: 6, process: 1, code: 1, signal: null, killedByKit: false },
    ];
    const refused: Transcript = { scenario: "managed-tasks", mode: "awp-jsonl", events };
    const all = judgeAgentRun(managedRun([refused, gatedTranscript("chat")])).results;
    expect(byId(all, "agent-cli/session/stays-up")?.status).toBe("fail");
    expect(byId(all, M("result-framing"))?.reason).toBe(
      "with the managed-task bridge configured, the CLI exited at start in the managed-tasks scenario (see agent-cli/session/stays-up); stderr says: error: invalid_control_plane_url: check the bridge settings the CLI reads (the URL is an origin such as http://127.0.0.1:PORT, the key has the form awp-cp-<48 hex digits>)",
    );
    // Alone, it is the run's own cause: nothing was served at all.
    expect(byId(judgeAgentRun(managedRun([refused])).results, M("result-framing"))?.reason).toMatch(/^the CLI refused to start: its one launch ended before serving a turn/);
  });

  it("skips them when the scenario was not run, and leaves gated launches refused at start to gated alone", () => {
    const results = judgeAgentRun(managedRun([gatedTranscript("refuse")])).results;
    expect(byId(results, M("wait-limit"))).toMatchObject({ status: "skip", reason: "the managed-tasks scenario was not run: run it (--scenario managed-tasks) to judge this clause" });
    expect(results.filter((r) => r.status === "fail")).toEqual([]);
    expect(byId(results, M("gated"))).toMatchObject({ status: "pass", judged: 3 });
  });

  it("has idempotency-resubmission not applicable when the CLI answers the repeated call without submitting again", () => {
    const results = managed(managedRun([managedTranscript({ ...OPENAI_JSON, reuseRepeat: true })]));
    expect(byId(results, M("idempotency-resubmission"))?.status).toBe("not-applicable");
    expect(results.filter((r) => r.status === "fail")).toEqual([]);
  });

  it("has gated not applicable when the kit could leave no setting out", () => {
    const events: TranscriptEvent[] = ["opt-in", "url", "key"].map((part, i) => ({ kind: "note", t: i, process: 0, text: `managed-gated: not launched without ${part}: the configuration sets it together with another` }));
    const results = managed(managedRun([{ scenario: "managed-gated", mode: "awp-jsonl", events }]));
    expect(byId(results, M("gated"))).toMatchObject({ status: "not-applicable", reason: expect.stringMatching(/^the kit could leave no bridge setting out on its own \(not launched without opt-in: /) });
  });
});

describe("the kit's bounds at their edges", () => {
  const submissionToFollowUp = (t: Transcript): number => {
    const post = t.events.find((e) => e.kind === "controlplane" && e.request.method === "POST" && e.request.plan?.kind === "pending");
    const next = t.events.find((e) => e.kind === "model" && e.call.directive?.turn === "mt-pending" && e.call.round === 1);
    return (next?.kind === "model" ? (next.call.startT ?? 0) : 0) - (post?.kind === "controlplane" ? (post.request.startT ?? 0) : 0);
  };

  it("wait-limit: a follow-up timeout_seconds + 10000 ms after the submission passes, 10 ms later fails; --task-wait-slack moves the edge", () => {
    const onTime = managedTranscript({ ...OPENAI_JSON, pendingWaitMs: 11_990 });
    const late = managedTranscript({ ...OPENAI_JSON, pendingWaitMs: 12_000 });
    expect([submissionToFollowUp(onTime), submissionToFollowUp(late)]).toEqual([12_000, 12_010]);
    expect(byId(managed(managedRun([onTime])), M("wait-limit"))?.status).toBe("pass");
    expect(byId(managed(managedRun([late])), M("wait-limit"))?.status).toBe("fail");
    expect(byId(managed(managedRun([late], { waitSlackMs: 10_010 })), M("wait-limit"))?.status).toBe("pass");
  });

  it("bounded-output: a tool result of 262144 bytes passes, one byte more fails; --task-output-limit moves the edge", () => {
    const sized = (bytes: number): Transcript => managedTranscript({ ...ANTHROPIC_BLOCKS, resultText: (text, tag) => (tag === "mt-huge" ? "é".repeat(bytes / 2) + (bytes % 2 === 1 ? "x" : "") : text) });
    expect(byId(managed(managedRun([sized(262_144)])), M("bounded-output"))?.status).toBe("pass");
    const over = byId(managed(managedRun([sized(262_145)])), M("bounded-output"));
    expect(over?.findings[0]?.message).toMatch(/a tool result of 262145 bytes, over the kit's bound of 262144 bytes \(--task-output-limit\)/);
    expect(byId(managed(managedRun([sized(262_145)], { outputLimit: 300_000 })), M("bounded-output"))?.status).toBe("pass");
  });

  it("key-not-leaked watches for the run's own key, not any key of its form, when it knows it", () => {
    const other = managedTranscript({ ...OPENAI_JSON, stderr: `key=awp-cp-${"0f".repeat(24)}\n` });
    expect(byId(managed(managedRun([other])), M("key-not-leaked"))?.status).toBe("pass");
    expect(byId(managed(managedRun([managedTranscript({ ...OPENAI_JSON, stderr: TOKEN })])), M("key-not-leaked"))?.status).toBe("fail");
    expect(BRIDGE_CONFIG.env.AWP_CONTROL_PLANE_API_KEY).toBe("{{fixture.controlplane_token}}");
  });
});
