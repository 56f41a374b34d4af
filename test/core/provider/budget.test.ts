import { describe, expect, it } from "vitest";
import { TIGHT_BUDGET_SLACK_MS } from "../../../src/core/provider/checks/budget.js";
import { judgeProviderTranscript } from "../../../src/core/provider/judge.js";
import type { ProviderExchange, ProviderTranscript, Purpose } from "../../../src/core/provider/types.js";

/** provider/transport/tight-budget on synthetic transcripts: an accepted invocation, then the same with budget_ms 1. */

const encoder = new TextEncoder();
const CLAUSE = "provider/transport/tight-budget";

interface Answer {
  status?: "ok" | "error";
  exitCode?: number;
  ms: number;
  timedOut?: boolean;
}

function exchange(seq: number, purpose: Purpose, budget: number, a: Answer): ProviderExchange {
  const requestId = `r-${seq}`;
  const body = a.status === undefined ? "" : JSON.stringify({ api_version: "aw-provider/v1alpha1", request_id: requestId, status: a.status, ...(a.status === "error" ? { error_code: "deadline_exceeded" } : { input_digest: `sha256:${"0".repeat(64)}`, effects: [] }) });
  return {
    seq, scenario: purpose, purpose, method: "invoke", requestId, request: encoder.encode("{}"),
    requestValue: { method: "invoke", request_id: requestId, budget_ms: budget, input_digest: `sha256:${"0".repeat(64)}`, allowed_effects: ["observe"], event: { name: "tool.before", tool: {} } },
    timeoutMs: 6000,
    // The probe carries no budgetMs: within-budget judges only the kit's own budget.
    ...(purpose === "invoke" ? { budgetMs: budget } : {}),
    outcome: { exitCode: a.timedOut === true ? null : (a.exitCode ?? 0), signal: a.timedOut === true ? "SIGKILL" : null, timedOut: a.timedOut === true, stdoutCapped: false, stderrCapped: false, durationMs: a.ms, stdoutBytes: body.length, stderrBytes: 0, killedByKit: a.timedOut === true },
    stdout: encoder.encode(body),
    stderr: new Uint8Array(),
  };
}

function judged(probe?: Answer, describeMs?: number): { tight: ReturnType<typeof judgeProviderTranscript>["results"][number] | undefined; withinBudget: string | undefined } {
  const describe = describeMs === undefined ? [] : [{ ...exchange(3, "describe", 0, { status: "error", ms: describeMs }), method: "describe" }];
  const exchanges = [exchange(1, "invoke", 5000, { status: "ok", ms: 40 }), ...(probe !== undefined ? [exchange(2, "tight-budget", 1, probe)] : []), ...describe];
  const t: ProviderTranscript = { argv: ["p"], context: { config: {}, configGiven: true, invalidConfigsGiven: 0, secrets: [], notes: [] }, exchanges };
  const results = judgeProviderTranscript(t).results;
  return { tight: results.find((r) => r.id === CLAUSE), withinBudget: results.find((r) => r.id === "provider/transport/within-budget")?.status };
}

describe("provider/transport/tight-budget", () => {
  it("an ok within budget_ms plus the kit's allowance holds: a Provider that ignores the budget but answers at once is not failed", () => {
    expect(judged({ status: "ok", ms: 1 + TIGHT_BUDGET_SLACK_MS })).toMatchObject({ tight: { status: "pass", judged: 1 }, withinBudget: "pass" });
  });

  it("on a machine that starts the Provider slowly, the allowance is the run's longest describe call", () => {
    expect(judged({ status: "ok", ms: 1700 }, 1800).tight).toMatchObject({ status: "pass", judged: 1 });
    expect(judged({ status: "ok", ms: 3000 }, 1800).tight?.findings[0]?.message).toBe(
      "the invocation with budget_ms 1 was answered ok after 3000 ms, past its budget and the kit's allowance of 1800 ms, the longest describe call of the run",
    );
  });

  it("an error answer holds however late (deadline_exceeded, or any code: the contract names none)", () => {
    expect(judged({ status: "error", ms: 1900 }).tight).toMatchObject({ status: "pass", judged: 1 });
  });

  it("an ok after the allowance fails, saying the allowance is the kit's (--budget-slack, marked as a kit-chosen bound)", () => {
    const { tight, withinBudget } = judged({ status: "ok", ms: 1900 });
    expect(tight?.status).toBe("fail");
    expect(tight?.findings[0]).toMatchObject({
      message: `the invocation with budget_ms 1 was answered ok after 1900 ms, past its budget and the kit's allowance of ${TIGHT_BUDGET_SLACK_MS} ms (--budget-slack)`,
      expected: `an answer within ${1 + TIGHT_BUDGET_SLACK_MS} ms, or an error response (deadline_exceeded is the code upstream providers use)`,
      seen: 'status "ok" after 1900 ms',
      requestId: "r-2",
      kitBound: { option: "--budget-slack", value: TIGHT_BUDGET_SLACK_MS, unit: "ms", activity: "answering ok after 1900 ms" },
    });
    // The probe's budget is the kit's probe, not a budget the Provider was given to meet: within-budget does not judge it.
    expect(withinBudget).toBe("pass");
  });

  it("killed at the kit's deadline: skipped, naming --timeout; a late answer the Host would not read: not applicable", () => {
    expect(judged({ ms: 6000, timedOut: true }).tight).toMatchObject({ status: "skip", reason: expect.stringMatching(/still running at the kit's deadline of 6000 ms .*raise --timeout/) });
    expect(judged({ exitCode: 1, ms: 1900 }).tight).toMatchObject({ status: "not-applicable", reason: expect.stringMatching(/ended after 1900 ms with no response the Host would read \(exit status 1\)/) });
  });

  it("--budget-slack sets the allowance", () => {
    const exchanges = [exchange(1, "invoke", 5000, { status: "ok", ms: 40 }), exchange(2, "tight-budget", 1, { status: "ok", ms: 300 })];
    const t: ProviderTranscript = { argv: ["p"], context: { config: {}, configGiven: true, invalidConfigsGiven: 0, secrets: [], notes: [], budgetSlackMs: 100 }, exchanges };
    const tight = judgeProviderTranscript(t).results.find((r) => r.id === CLAUSE);
    expect(tight?.findings[0]?.message).toBe("the invocation with budget_ms 1 was answered ok after 300 ms, past its budget and the kit's allowance of 100 ms (--budget-slack)");
  });

  it("not sent: skipped, saying why", () => {
    expect(judged().tight).toMatchObject({ status: "skip", reason: expect.stringMatching(/sent no invocation with a tight budget_ms/) });
  });
});
