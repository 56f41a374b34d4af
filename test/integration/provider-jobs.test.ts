import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report/types.js";
import type { ProviderTranscript } from "../../src/core/provider/types.js";
import { runProviderSuite } from "../../src/runner/provider/suite.js";
import { ROOT } from "./cli.js";

/**
 * The provider suite sends the requests that depend on no answer of each other's `jobs` at once:
 * what it records and judges is the same at any --jobs. Against a fake that accepts
 * out-of-bounds requests (its probes have controls of their own, sent in the hostile phase),
 * narrowed to a few probe kinds and a clause of each other batch, as every call is a process.
 */
const CLAUSES = [
  ...["out-of-bounds", "oversized-request", "unknown-method", "malformed-json"].map((kind) => `provider/robustness/rejects-${kind}`),
  // And a clause of each other batch: describe with validate_config, the configuration probes, the dialect probe, the whitespace pair.
  "provider/validate-config/rejects-unknown-setting", "provider/validate-config/rejects-wrong-typed-setting", "provider/invoke/digest-dialects", "provider/transport/request-whitespace",
];
const FAKE = [join(ROOT, "dist/src/mocks/provider.js"), "--fault", "accept-out-of-bounds"];
const document = readFileSync(join(ROOT, "test/fakes/provider-lean-config.json"), "utf8");

const digest = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex").slice(0, 16);

/** Each call: seq, purpose, request id, its control, the request's bytes and the answer (times aside). */
function calls(transcript: ProviderTranscript): string[] {
  const answer = (bytes: Uint8Array): string => new TextDecoder().decode(bytes).replace(/\d+ ?ms/g, "N ms");
  return transcript.exchanges.map((e) => [e.seq, e.purpose, e.requestId, e.controlSeq ?? "-", digest(e.request), e.outcome.exitCode, answer(e.stdout)].join(" "));
}

function verdicts(report: RunReport): unknown {
  return report.clauses.map((c) => [c.id, c.status, c.judged, c.findings.map((f) => [f.requestId, f.scenario, f.expected])]);
}

describe("provider suite --jobs", () => {
  it("records and judges the same calls at --jobs 1 and --jobs 3", async () => {
    const run = (jobs: number) => runProviderSuite({ argv: FAKE, config: { value: JSON.parse(document) as Record<string, never>, document }, selection: { clause: CLAUSES, skip: [] }, jobs });
    const [one, three] = [await run(1), await run(3)];
    expect(calls(three.transcript)).toEqual(calls(one.transcript));
    expect(verdicts(three.report)).toEqual(verdicts(one.report));
    // The runs judged something: the fault's clause fails, on a probe compared with a control sent in the hostile phase.
    const failed = one.report.clauses.filter((c) => c.status === "fail").map((c) => c.id);
    expect(failed).toEqual(["provider/robustness/rejects-out-of-bounds"]);
    const purposes = new Set(one.transcript.exchanges.map((e) => e.purpose));
    for (const purpose of ["describe", "config-valid", "config-unknown-key", "config-wrong-type", "dialect", "whitespace", "control"]) expect(purposes).toContain(purpose);
    const controls = one.transcript.exchanges.filter((e) => e.purpose === "control").map((e) => e.seq);
    expect(controls.length).toBeGreaterThan(0);
    const probed = new Set(one.transcript.exchanges.filter((e) => e.purpose.startsWith("hostile:")).map((e) => e.controlSeq));
    expect(controls.filter((seq) => !probed.has(seq))).toEqual([]);
  });
});
