/**
 * CLIs that never answer (issue 9): one prints nothing and never reads stdin, one prints only
 * binary garbage without a line break. Each gets a complete report after one wave of
 * scenarios, saying in its first lines that the CLI never answered; a CI log shows one
 * progress line per scenario. The turn timeout is shortened here; the wall time with the
 * defaults (under 90 s for both modes) is measured by `npm run bench` (bench/never-answers.ts).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCENARIO_NAMES } from "../../src/core/agent-cli/scenarios.js";
import type { RunReport } from "../../src/core/report/types.js";
import { failing, readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const temp = useTempDirs("awp-silent-");
const TURN_TIMEOUT_MS = 3000;
/** The default --jobs plus the two failure probes, which run beside them. */
const FIRST_WAVE = ["basic", "queued", "content", "malformed", "failures-error", "failures-stall"];

interface Run {
  code: number;
  report: RunReport;
  stdout: string;
  stderr: string;
}

/** A run against the agent-cli mock with one fault. */
async function run(fault: string, mode: string, extra: string[] = []): Promise<Run> {
  const out = temp();
  const args = ["run", "--protocol", "agent-cli", "--mode", mode, "--turn-timeout", String(TURN_TIMEOUT_MS), "--quiet-window", "300", "--out", out, "--reporter", "console", "--reporter", "json", ...extra, join(ROOT, "dist/src/mocks/agent-cli.js"), "--", "--fault", fault];
  const result = await runCli(args);
  return { ...result, report: readReport(out) };
}

/**
 * The shared verdict: the awaited turns fail one-terminal-per-turn (plus what the output
 * itself shows), the never-answered cause comes first and is the reason of every skip.
 */
function expectNeverAnswered(r: Run, stdout: RegExp, fails: string[] = ["agent-cli/turns/one-terminal-per-turn"]): void {
  expect(r.code).toBe(1);
  expect(failing(r.report)).toEqual(fails);
  expect(r.report.halted).toMatch(/^the CLI never answered a turn: no turn got a terminal event within 3000 ms \(--turn-timeout\); /);
  expect(r.report.halted).toMatch(stdout);
  const lines = r.stdout.split("\n");
  expect(lines[1]).toBe(`STOPPED EARLY — ${r.report.halted}`);
  const skipped = r.report.clauses.filter((c) => c.status === "skip");
  expect(skipped.length).toBeGreaterThan(25);
  expect(new Set(skipped.map((c) => c.reason))).toEqual(new Set([r.report.halted]));
  // Only turns of the first wave were waited for; none of a later scenario.
  const scenarios = new Set(r.report.clauses.flatMap((c) => c.findings).map((f) => f.scenario?.split(" ")[0]));
  expect([...scenarios].every((s) => s !== undefined && FIRST_WAVE.includes(s))).toBe(true);
}

describe("a CLI that never answers gets a complete report after one wave", () => {
  const silent = run("silent", "awp-jsonl");
  const garbage = run("binary-garbage", "stream-json", ["--quiet"]);

  it("prints nothing: one failure, the cause first, and one plain progress line per scenario on stderr", async () => {
    const r = await silent;
    expectNeverAnswered(r, /; it wrote nothing on stdout; nothing on stderr; nor did it ever call the kit's model fixture \(if it tried: point .+\): make it read one JSON line per turn on stdin/);
    const progress = r.stderr.trimEnd().split("\n");
    // Without {{fixture.controlplane}} the managed-task scenarios do not run at all.
    const run = SCENARIO_NAMES.filter((s) => !s.startsWith("managed-"));
    expect(progress).toHaveLength(run.length);
    for (const line of progress) expect(line).toMatch(/^awp-conformance: agent-cli \(awp-jsonl\) scenario [a-z-]+ (stopped after \d+\.\d s: .+|not run: the CLI answered no turn of any scenario)$/);
    const notRun = progress.filter((l) => l.includes(" not run: ")).map((l) => /scenario (\S+)/.exec(l)?.[1]);
    expect(notRun.sort()).toEqual(run.filter((s) => !FIRST_WAVE.includes(s)).sort());
    // The waits that ran out: at least one, and never more than one per scenario of the first wave.
    const ranOut = progress.filter((l) => l.endsWith(`got no terminal event within ${TURN_TIMEOUT_MS} ms (--turn-timeout)`));
    expect(ranOut.length).toBeGreaterThanOrEqual(1);
    expect(ranOut.length).toBeLessThanOrEqual(FIRST_WAVE.length);
  }, 120_000);

  it("prints binary garbage without a line break: the same verdict, quoting what it printed and stderr; --quiet prints no progress", async () => {
    const r = await garbage;
    // Output without a line break is also a framing failure of its own, and does not open with system/init (SHOULD).
    expectNeverAnswered(r, /; it wrote \d+ characters on stdout and never a line break, starting ".+"; stderr says: awp-conformance-mock: writing binary data, not JSON lines; nor did it ever call the kit's model fixture \(if it tried: point .+\): make it/, [
      "agent-cli/output/no-partial-line",
      "agent-cli/session/init-event",
      "agent-cli/turns/one-terminal-per-turn",
    ]);
    expect(r.report.summary.failed).toBe(2);
    expect(r.stderr).toBe("");
  }, 120_000);
});
