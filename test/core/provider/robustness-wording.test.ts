import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileSubject } from "../../../src/core/provider/checks/robustness.js";
import { hostileRequests } from "../../../src/core/provider/hostile.js";
import { judgeProviderTranscript } from "../../../src/core/provider/judge.js";
import { invokeRequest, validateConfigRequest } from "../../../src/core/provider/requests.js";
import type { JsonObject, ProviderExchange, ProviderTranscript } from "../../../src/core/provider/types.js";
import { hostileCaseArb } from "../../../src/fuzz/provider/hostile.js";
import { ctx } from "../../fuzz/provider/fixtures.js";

/**
 * The robustness findings name the hostile request by its label, a phrase of any form ("a tool
 * name of 1025 characters", "budget_ms 0"). Composed as "the <label> request" they read "the a
 * tool name of 1025 characters request was answered ok": every label is rendered here.
 */

const encoder = new TextEncoder();
const tool = { name: "t", nativeName: "t", input: { a: 1 }, result: { out: "x" }, projectionText: "x" };
const base = (event: "tool.before" | "tool.after"): JsonObject =>
  invokeRequest({ requestId: "base", operation: "check", configRevision: "a".repeat(64), budgetMs: 500, allowedEffects: ["observe"], config: { k: ["v"] }, event, tool, callId: "c1", withProjection: false });
const probes = hostileRequests({ validate: validateConfigRequest("v", { k: ["v"] }), invoke: base("tool.after"), invokeBefore: base("tool.before") });

/** An exchange answered as `how`: ok (exit 0), killed at the deadline, or killed by SIGSEGV. */
function exchange(seq: number, purpose: ProviderExchange["purpose"], scenario: string, how: "ok" | "hang" | "crash", controlSeq?: number): ProviderExchange {
  const stdout = how === "ok" ? JSON.stringify({ api_version: "aw-provider/v1alpha1", request_id: `r${seq}`, status: "ok" }) : "";
  return {
    seq, scenario, purpose, method: "describe", requestId: `r${seq}`, request: encoder.encode("{}"), timeoutMs: 6000,
    ...(controlSeq !== undefined ? { controlSeq } : {}),
    outcome: { exitCode: how === "ok" ? 0 : null, signal: how === "crash" ? "SIGSEGV" : how === "hang" ? "SIGKILL" : null, timedOut: how === "hang", stdoutCapped: false, stderrCapped: false, durationMs: 5, stdoutBytes: stdout.length, stderrBytes: 0, killedByKit: how === "hang" },
    stdout: encoder.encode(stdout),
    stderr: new Uint8Array(),
  };
}

/** Every fixed probe answered `how`, after a control answered ok; the robustness findings' messages. */
function messages(how: "ok" | "hang" | "crash"): { label: string; message: string }[] {
  const exchanges: ProviderExchange[] = [exchange(1, "control", "control", "ok")];
  probes.forEach((p, i) => exchanges.push(exchange(i + 2, `hostile:${p.kind}`, p.label, how, 1)));
  const t: ProviderTranscript = { argv: ["p"], context: { config: {}, configGiven: true, invalidConfigsGiven: 0, secrets: [], notes: [] }, exchanges };
  const results = judgeProviderTranscript(t).results.filter((r) => r.id.startsWith("provider/robustness/"));
  return results.flatMap((r) => r.findings.map((f) => ({ label: f.scenario ?? "", message: f.message })));
}

const ARTICLE_DOUBLED = /\bthe (a|an|the)\b/i;

describe("the robustness findings read as sentences", () => {
  for (const [how, ending] of [["ok", "was answered ok"], ["hang", "kept the Provider running until the deadline"], ["crash", "crashed the Provider"]] as const) {
    it(`every fixed probe's label, in "${ending}"`, () => {
      const found = messages(how);
      // Every probe gets its finding (rejects-<kind> for an ok answer, no-hang, no-signal-death).
      expect(found.map((f) => f.label).sort()).toEqual(probes.map((p) => p.label).sort());
      for (const { label, message } of found) {
        expect(message).toBe(`the hostile request (${label}) ${ending}`);
        expect(message).not.toMatch(ARTICLE_DOUBLED);
      }
    });
  }

  it("the two labels of the issue, and every label the fuzzer generates", () => {
    expect(hostileSubject("a tool name of 1025 characters")).toBe("the hostile request (a tool name of 1025 characters)");
    expect(hostileSubject("an empty session_id")).toBe("the hostile request (an empty session_id)");
    const labels = new Set(fc.sample(hostileCaseArb(ctx), { seed: 26, numRuns: 150 }).map((c) => c.label));
    expect(labels.size).toBeGreaterThan(20);
    for (const label of labels) expect(`${hostileSubject(label)} was answered ok`).not.toMatch(ARTICLE_DOUBLED);
  });
});
