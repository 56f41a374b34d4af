/**
 * A generated request the Provider refuses (a hostile one, or a policy's own error answer) says
 * nothing of the configuration: the effect clauses it could not judge are not applicable to it,
 * not skipped with the fixed suite's "give a configuration under which the Provider answers
 * invocations ok". So a campaign whose ok answers never carried a block text or a replacement
 * finds those MUST clauses not applicable, as `run` does, instead of an incomplete run (the
 * upstream example provider, fuzzed with seed 7, came out incomplete, exit 4, before).
 */
import { describe, expect, it } from "vitest";
import { fuzzOnlyReport } from "../../../src/cli/fuzz.js";
import type { ProviderExchange, ProviderTranscript } from "../../../src/core/provider/types.js";
import { caseResults, FUZZ_PROVIDER_CLAUSES } from "../../../src/fuzz/provider-run.js";
import { ClauseTally } from "../../../src/fuzz/tally.js";
import type { ProviderCase } from "../../../src/fuzz/types.js";

const encoder = new TextEncoder();
const DIGEST = `sha256:${"0".repeat(64)}`;

function transcript(status: "ok" | "error"): ProviderTranscript {
  const body = JSON.stringify({ api_version: "aw-provider/v1alpha1", request_id: "r-1", status, ...(status === "error" ? { error_code: "block_not_admitted" } : { input_digest: DIGEST, effects: [] }) });
  const exchange: ProviderExchange = {
    seq: 1, scenario: "fuzz", purpose: "invoke", method: "invoke", requestId: "r-1", request: encoder.encode("{}"),
    requestValue: { method: "invoke", request_id: "r-1", budget_ms: 5000, input_digest: DIGEST, allowed_effects: ["observe"], event: { name: "tool.before", tool: {} } },
    timeoutMs: 6000, budgetMs: 5000,
    outcome: { exitCode: 0, signal: null, timedOut: false, stdoutCapped: false, stderrCapped: false, durationMs: 20, stdoutBytes: body.length, stderrBytes: 0, killedByKit: false },
    stdout: encoder.encode(body), stderr: new Uint8Array(),
  };
  return { argv: ["p"], context: { config: {}, configGiven: true, invalidConfigsGiven: 0, secrets: [], notes: [] }, exchanges: [exchange] };
}

const CASE: ProviderCase = { kind: "valid", label: "invoke", purpose: "invoke", method: "invoke", requestId: "r-1", bytes: encoder.encode("{}"), budgetMs: 5000 };
const BLOCK_TEXT = "provider/invoke/block-text";

describe("the effect clauses on generated requests", () => {
  it("are not applicable to a refused request, not skipped for the configuration", () => {
    const refused = caseResults(CASE, transcript("error")).find((r) => r.id === BLOCK_TEXT);
    expect(refused).toMatchObject({ status: "not-applicable", reason: "its invocation was not answered ok, so it showed no effects" });
  });

  it("leave a campaign of ok answers without block text, and refusals, not applicable and complete", () => {
    const tally = new ClauseTally(FUZZ_PROVIDER_CLAUSES);
    tally.add(caseResults(CASE, transcript("ok")));
    tally.add(caseResults(CASE, transcript("error")));
    const report = fuzzOnlyReport("provider", ["p"], { clauses: FUZZ_PROVIDER_CLAUSES, cases: 2, calls: 2, seed: 7, failures: [], unit: "request", coverage: { kinds: [], sizes: [] }, tally: tally.data() }, new Date(), []);
    const blockText = report.clauses.find((c) => c.id === BLOCK_TEXT);
    expect(blockText?.status).toBe("not-applicable");
    expect(blockText?.reason).not.toContain("give a configuration");
    expect(report.clauses.filter((c) => c.id.startsWith("provider/invoke/") && c.status === "skip")).toEqual([]);
  });
});
