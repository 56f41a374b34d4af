/** `check` of a plain stdout capture made outside the kit: verdicts and reasons that fit a capture. */
import { describe, expect, it } from "vitest";
import { parseTranscript } from "../../../src/core/agent-cli/golden.js";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";

const CAPTURE = [
  { type: "system", subtype: "init", session_id: "c-1", tools: ["Read"] },
  { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Hi." }] } },
  { type: "result", subtype: "success", is_error: false, session_id: "c-1", result: "Hi." },
]
  .map((o) => JSON.stringify(o))
  .join("\n");

describe("check of a stream-json capture", () => {
  const run = { mode: "stream-json" as const, transcripts: [parseTranscript(`${CAPTURE}\n`, "claude-capture")], turnTimeoutMs: 30_000, offline: true };
  const results = new Map(judgeAgentRun(run).results.map((r) => [r.id, r]));

  it("judges init-event on the capture's first line", () => {
    expect(results.get("agent-cli/session/init-event")).toMatchObject({ status: "pass", judged: 1 });
  });

  it("says a capture records no start, resume or scenario the kit drove, and how to get one (never an option check lacks)", () => {
    expect(results.get("agent-cli/session/stays-up")?.reason).toMatch(/^a plain stdout capture shows only what the CLI printed, not when the CLI's process started or exited: record the CLI with `awp-conformance record/);
    expect(results.get("agent-cli/resume/keeps-id")?.reason).toBe("a plain stdout capture holds none of the kit's scenarios (this clause needs the resume scenario): record the CLI with `awp-conformance record --scenario resume` (or run it live with `awp-conformance run`) to judge this clause");
    expect(results.get("agent-cli/termination/stdin-eof")?.reason).toBe("a plain stdout capture holds none of the kit's scenarios (this clause needs the basic scenario): record the CLI with `awp-conformance record --scenario basic` (or run it live with `awp-conformance run`) to judge this clause");
    for (const r of results.values()) expect(r.reason ?? "", r.id).not.toMatch(/run it with --scenario|see agent-cli\/launch for why/);
  });
});
