import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { failing, readReport, ROOT, runCli, useTempDirs } from "./cli.js";
import { pool } from "./agent-cli-fakes.js";
import type { FaultCase } from "./provider-faults.js";

const FAKE = join(ROOT, "dist/src/mocks/provider.js");

/**
 * Runs the built CLI against the fake with one fault and asserts the exact failing clauses.
 * The fake's faults act on one side of its decoding only: faults on answers to accepted
 * requests cannot touch the hostile probes (rejected before any such fault applies), and
 * robustness faults only touch requests the reference rejects. So, to stay fast, the first
 * kind runs with provider/robustness skipped and the second with provider/robustness only.
 * The clauses that cost calls of their own (the digest dialect probe, the tight-budget probe, the
 * requests with whitespace around them, describe and validate_config in a fresh directory)
 * only run for the fault that breaks them.
 */
const OWN_CALLS = ["provider/invoke/digest-dialects", "provider/transport/tight-budget", "provider/transport/request-whitespace", "provider/describe/same-answer-twice", "provider/describe/leaves-no-files"];

/**
 * The probes of requests with one envelope field out of form. Their faults run with these
 * clauses (and no-hang, no-signal-death) only, the other robustness faults without them: the
 * kit then sends only the probes the run judges, about 10 calls fewer per run.
 */
const FIELD_PROBES: readonly string[] = [
  "provider/robustness/rejects-bad-config", "provider/robustness/rejects-malformed-config-revision", "provider/robustness/rejects-bad-request-id",
  "provider/robustness/rejects-bad-allowed-effects", "provider/robustness/rejects-bad-event-name", "provider/robustness/rejects-undeclared-operation",
];

/** A fault of a field probe runs with the field probes only; every other one with the rest of provider/robustness. */
function robustnessSelection(c: FaultCase): string[] {
  if (c.fails.some((id) => FIELD_PROBES.includes(id))) {
    return [...FIELD_PROBES, "provider/robustness/no-hang", "provider/robustness/no-signal-death"].flatMap((id) => ["--clause", id]);
  }
  return ["--clause", "provider/robustness", ...FIELD_PROBES.flatMap((id) => ["--skip", id])];
}

export function faultTests(cases: readonly FaultCase[], withRobustness: boolean): void {
  const temp = useTempDirs();
  // Two runs at once: a run is one kit process waiting on a string of short provider
  // processes, so one alone leaves CPU idle between spawns. The default budgets (5 s) are
  // far above a call's cost, so the extra load moves no verdict. Each run sends one call at a
  // time (--jobs 1), so the machine runs two calls at once, not four, beside the other test
  // files' timed waits; that the verdicts are the same at any --jobs is provider-jobs.test.ts.
  const limit = pool(2);
  describe.concurrent("each fault", () => {
  for (const c of cases) {
    it(`${c.fault} fails exactly ${c.fails.join(", ")}`, async () => {
      const out = temp();
      const result = await limit(() => runCli([
        "run", "--protocol", "provider",
        "--config-file", join(ROOT, "test/fakes/provider-lean-config.json"),
        "--invalid-config-file", join(ROOT, "test/fakes/provider-invalid-configs.json"),
        "--out", out, "--reporter", "json", "--jobs", "1",
        ...(withRobustness ? robustnessSelection(c) : ["--skip", "provider/robustness"]),
        ...(withRobustness ? [] : OWN_CALLS.filter((id) => !c.fails.includes(id)).flatMap((id) => ["--skip", id])),
        ...(c.options ?? []),
        FAKE, "--", "--fault", c.fault,
      ]));
      const report = readReport(out);
      expect(failing(report)).toEqual([...c.fails].sort());
      const mustFails = report.clauses.some((r) => r.status === "fail" && r.level === "MUST");
      // A fault that keeps the kit from judging a MUST clause (no invocation can be sent) leaves the run incomplete.
      const mustSkipped = report.clauses.some((r) => r.status === "skip" && r.level === "MUST");
      expect(result.code).toBe(mustFails ? 1 : mustSkipped ? 4 : 0);
      expect(report.summary.verdict).toBe(mustFails ? "not-conformant" : mustSkipped ? "incomplete" : "conformant");
      for (const clause of report.clauses.filter((r) => r.status === "fail")) {
        expect(clause.findings.length).toBeGreaterThan(0);
        expect(clause.findings[0]?.evidence?.length).toBeGreaterThan(0);
      }
    });
  }
  });
}
