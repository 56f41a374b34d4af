/**
 * Skip and not-applicable reasons are true of the run they appear in: a run whose only tool
 * calls were of the managed-task tool says so, and `check` of a plain stdout capture made
 * outside the kit gives reasons that fit a capture (what it cannot show, and how to get it).
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTranscript } from "../../../src/core/agent-cli/golden.js";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { AgentRun } from "../../../src/core/agent-cli/checks/helpers.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { managedRun, managedTranscript, OPENAI_JSON } from "./managed-sim.js";
import { Script } from "./transcripts.js";

const byId = (results: ClauseResult[]): Map<string, ClauseResult> => new Map(results.map((r) => [r.id, r]));

describe("a run whose only tool calls were of the managed-task tool", () => {
  // The tools scenario of a CLI with the bridge on: it offers only awp_run_managed_task, which the tool probe never calls.
  const tools = new Script("tools").launch().user("Read it. [[awp-fixture turn=tools-1 tool=read]]");
  tools.model({ directive: { turn: "tools-1", tool: "read" }, toolsOffered: ["awp_run_managed_task"], toolSkipped: "the CLI's model request offered only tools the kit does not call (it never makes a CLI run commands, change files or reach the network): awp_run_managed_task", replyText: "No tool." });
  tools.deltas("No tool.").success("No tool.");
  const r = byId(judgeAgentRun(managedRun([managedTranscript(OPENAI_JSON), tools.transcript()])).results);

  it("has turns/tool-use say that the only calls were of that tool, judged by its own clause", () => {
    const calls = (r.get("agent-cli/managed-tasks/tool-use-shown")?.judged ?? 0);
    expect(calls).toBeGreaterThan(0);
    const toolUse = r.get("agent-cli/turns/tool-use");
    expect(toolUse?.status).toBe("not-applicable");
    expect(toolUse?.reason).toMatch(/^the kit's model called only the managed-task tool awp_run_managed_task \(\d+ calls\), which agent-cli\/managed-tasks\/tool-use-shown judges, and no other tool: the CLI's model request offered only tools the kit does not call/);
    expect(toolUse?.reason).not.toMatch(/called none of the tools/);
  });

  it("has consistency/tool-use-ids say where the tool_use blocks were, not that there were none", () => {
    const ids = r.get("agent-cli/consistency/tool-use-ids");
    expect(ids?.status).toBe("not-applicable");
    expect(ids?.reason).toMatch(/^tool_use blocks were shown only in the managed-task scenarios \(\d+\), whose ids and names agent-cli\/managed-tasks\/tool-use-shown judges; no other turn showed one$/);
  });
});

/** How `check` judges recorded files (src/cli/commands/agent.ts). */
function checked(...files: { text: string | Uint8Array; name: string }[]): Map<string, ClauseResult> {
  const run: AgentRun = { mode: "stream-json", transcripts: files.map((f) => parseTranscript(f.text, f.name)), turnTimeoutMs: 30_000, offline: true };
  return byId(judgeAgentRun(run).results);
}

const OWN_CAPTURE = new URL("../../fixtures/captures/claude-code-2.1.332_print-one-turn.jsonl", import.meta.url);

describe("check of a stream-json capture made outside the kit (claude -p --output-format stream-json --verbose)", () => {
  const r = checked({ text: readFileSync(OWN_CAPTURE), name: "claude-p.jsonl" });

  it("judges what a capture shows: system/init with a session_id opens it", () => {
    expect(r.get("agent-cli/session/init-event")).toMatchObject({ status: "pass", judged: 1 });
    expect(r.get("agent-cli/fidelity/result-text")?.status).toBe("pass");
  });

  it("says of the rest that a capture cannot show it, and how to record it, never a run option check does not have", () => {
    const unjudged = [...r.values()].filter((c) => c.status === "skip" || c.status === "not-applicable");
    for (const c of unjudged) {
      expect(c.reason, c.id).not.toMatch(/run it with --scenario|did not run|no process was launched|no user turn was sent|no turn produced output|offered its model no tools|the resumed process reported|see agent-cli\/launch/);
    }
    const capture = /^a plain stdout capture (shows only what the CLI printed, not|holds none of the kit's scenarios)/;
    for (const id of ["session/stays-up", "output/silent-before-input", "turns/one-terminal-per-turn", "turns/no-exit-mid-turn", "turns/terminal-in-order", "turns/tool-use", "input/text-block", "input/survives-malformed-line", "input/mcp-config", "resume/accepts-id", "resume/keeps-id", "fidelity/streamed-text", "failures/model-error"]) {
      expect(r.get(`agent-cli/${id}`)?.reason, id).toMatch(capture);
    }
    expect(r.get("agent-cli/input/text-block")?.reason).toContain("awp-conformance record --scenario content");
    expect(r.get("agent-cli/failures/model-error")?.reason).toContain("awp-conformance record --scenario failures-error");
    expect(r.get("agent-cli/turns/tool-use")?.reason).toBe("a plain stdout capture shows only what the CLI printed, not the model's side, so which tools the model called: record the CLI with `awp-conformance record` (or run it live with `awp-conformance run`) to judge this clause");
  });
});

const UPSTREAM = new URL("../../../../shared/upstream/transcripts/", import.meta.url);

describe.skipIf(!existsSync(UPSTREAM))("check of the upstream captures (needs ../shared/upstream)", () => {
  it("says content_block events wrapped in stream_event are not the contract's, rather than that none were streamed", () => {
    const r = checked({ text: readFileSync(new URL("claude-code-2.1.332_two-turns_partial-messages.jsonl", UPSTREAM)), name: "claude.jsonl" });
    expect(r.get("agent-cli/session/init-event")).toMatchObject({ status: "pass", judged: 1 });
    expect(r.get("agent-cli/turns/text-blocks")?.reason).toMatch(/^no turn streamed content_block events at the top level; \d+ came wrapped in stream_event, which the Desktop ignores/);
  });
});
