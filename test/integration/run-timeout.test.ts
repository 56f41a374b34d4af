/**
 * --run-timeout bounds a whole run: the provider suite stops sending at it (a call still
 * running is ended and dropped, never judged), and the report says so first; a bad value is
 * a usage error. (The agent-cli side is in test/runner/agent-cli/stops.test.ts.)
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { failing, readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const temp = useTempDirs("awp-run-timeout-");
const FAKE = join(ROOT, "dist/src/mocks/provider.js");
const RUN_TIMEOUT_MS = 4000;

describe("--run-timeout on a provider run", () => {
  it("ends the call in flight, judges what it has, skips the rest naming --run-timeout, and logs each phase", async () => {
    const out = temp();
    const started = performance.now();
    // invoke-1 answers after budget + 300 ms (5.3 s): past the run's end, whenever it starts.
    const result = await runCli([
      "run", "--protocol", "provider", "--out", out, "--reporter", "console", "--reporter", "json", "--run-timeout", String(RUN_TIMEOUT_MS),
      "--config-file", join(ROOT, "test/fakes/provider-lean-config.json"),
      "--invalid-config-file", join(ROOT, "test/fakes/provider-invalid-configs.json"),
      FAKE, "--", "--fault", "slow-invoke",
    ]);
    const ms = performance.now() - started;
    const report = readReport(out);
    expect(result.code).toBe(4);
    // The slow invocation was cut, not judged: within-budget does not fail for it.
    expect(failing(report)).toEqual([]);
    expect(report.halted).toMatch(new RegExp(`^the run reached --run-timeout \\(${RUN_TIMEOUT_MS} ms, 4 s\\) after \\d+ calls, before the kit sent every request: the kit ended every candidate process and judged what it had; raise --run-timeout, or run less at once \\(--clause\\)$`));
    expect(result.stdout.split("\n")[1]).toBe(`STOPPED EARLY — ${report.halted}`);
    expect(new Set(report.clauses.filter((c) => c.status === "skip").map((c) => c.reason))).toEqual(new Set([report.halted]));
    expect(report.options.runTimeoutMs).toBe(RUN_TIMEOUT_MS);
    // The kit's own start-up and judging come on top of the bound; the slow call alone would take 5.3 s.
    expect(ms).toBeLessThan(RUN_TIMEOUT_MS + 5000);
    for (const line of result.stderr.trimEnd().split("\n")) expect(line).toMatch(/^awp-conformance: provider phase (describe|validate_config|invoke|robustness) done in \d+\.\d s: \d+ calls?$/);
    expect(result.stderr).toMatch(/^awp-conformance: provider phase describe done in \d+\.\d s: 1 call$/m);
  }, 60_000);

  it("is a usage error when not a positive integer of milliseconds", async () => {
    const results = await Promise.all(["0", "1.5", "2147483648"].map((value) => runCli(["run", "--protocol", "agent-cli", "--run-timeout", value, join(ROOT, "examples/reference-agent-cli/agent-cli.mjs")])));
    for (const result of results) {
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--run-timeout must be a positive integer \(milliseconds\)/);
    }
  });
});
