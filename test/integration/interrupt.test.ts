import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report/types.js";
import { CLI, readReport, ROOT, useTempDirs } from "./cli.js";

const REFERENCE_CLI = join(ROOT, "examples/reference-agent-cli/agent-cli.mjs");
const REFERENCE_PROVIDER = join(ROOT, "examples/reference-provider/provider.mjs");
const SLOW_PROVIDER = join(ROOT, "test/corpus/provider-slow.mjs");
const CONFIG = '{"blocked_tools":["example_tool"]}';
/** Generous for a loaded 2-core box: every wait below is for something that comes in a second or two when idle. */
const WAIT_MS = 60_000;

const outDir = useTempDirs("awp-interrupt-");

/** The built kit, no shell, its output watched as it comes. */
function startKit(args: string[]): { child: ResultPromise; seen: () => string } {
  // forceKillAfterDelay: false, or execa follows the test's signal with SIGKILL after 5 s, which a loaded box can reach.
  const child = execa(process.execPath, [CLI, ...args], { cwd: ROOT, reject: false, env: { NO_COLOR: "1" }, timeout: 150_000, forceKillAfterDelay: false });
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { child, seen: () => text };
}

async function waitFor(seen: () => string, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!pattern.test(seen())) {
    if (Date.now() > deadline) throw new Error(`never saw ${pattern} in the kit's output:\n${seen()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Processes whose command line holds `token` (Linux /proc; an empty list elsewhere). */
function processesWith(token: string): string[] {
  if (!existsSync("/proc/self/cmdline")) return [];
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name) && name !== String(process.pid)).flatMap((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return cmdline.includes(token) ? [`${pid}: ${cmdline.replace(/\0/g, " ")}`] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Runs the kit with `args` (its report going to `out`), sends `signal` once `marker` shows (and
 * `afterMs` later), and checks it exits with the signal's code, with no kit error; returns the
 * report, what the kit printed, and how long it took to exit after the signal.
 */
async function interruptKit(args: string[], out: string, marker: RegExp, signal: "SIGINT" | "SIGTERM", afterMs = 0): Promise<{ report: RunReport; seen: string; tookMs: number }> {
  const kit = startKit([...args.slice(0, 1), "--out", out, ...args.slice(1)]);
  await waitFor(kit.seen, marker);
  if (afterMs > 0) await new Promise((resolve) => setTimeout(resolve, afterMs));
  const signalled = Date.now();
  kit.child.kill(signal);
  const result = await kit.child;
  const tookMs = Date.now() - signalled;
  expect(result.exitCode, kit.seen()).toBe(signal === "SIGINT" ? 130 : 143);
  expect(kit.seen()).not.toContain("internal error");
  return { report: readReport(out), seen: kit.seen(), tookMs };
}

/** Every clause of the report is skipped with the reason its first line gives. */
function expectAllSkipped(report: RunReport): void {
  expect(report.clauses.length).toBeGreaterThan(0);
  expect(report.clauses.filter((c) => c.status !== "skip" || c.reason !== report.halted).map((c) => c.id)).toEqual([]);
}

/** A token only this test's candidate processes carry on their command line. */
const tokenOf = (name: string): string => `awp-interrupt-${name}-${process.pid}-${Date.now()}`;

describe("an interrupted kit writes its report", () => {
  it("agent-cli: SIGINT mid-run ends the CLI's processes, skips the unfinished scenarios with the reason, exits 130", async () => {
    const model = tokenOf("agent");
    // failures-stall waits up to 180 s for a stalled turn: it is running when the signal comes.
    const env = ["--env", "AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "--env", "AWP_REFERENCE_API_KEY={{fixture.token}}"];
    const { report, seen } = await interruptKit(["run", "--protocol", "agent-cli", "--scenario", "basic", "--scenario", "failures-stall", "--jobs", "1", "--model", model, ...env, REFERENCE_CLI], outDir(), /scenario basic /, "SIGINT");
    expect(report.halted).toMatch(/^the kit was interrupted \(SIGINT\) before every scenario finished/);
    expect(report.summary.verdict).toBe("incomplete");
    expect(report.clauses.filter((c) => c.status === "fail").map((c) => c.id)).toEqual([]);
    // The basic scenario's clauses were judged; the stall probe's were not, and say why.
    expect(report.clauses.find((c) => c.id === "agent-cli/session/init-event")?.status).toBe("pass");
    expect(report.clauses.find((c) => c.id === "agent-cli/failures/model-stall")).toMatchObject({ status: "skip", reason: expect.stringMatching(/^the kit was interrupted \(SIGINT\) before the failures-stall scenario finished/) });
    expect(seen).toContain("SIGINT: stopping");
    expect(processesWith(model)).toEqual([]);
  });

  it("provider: SIGTERM during a slow call ends it at once, reports the calls before it, exits 143", async () => {
    const token = tokenOf("provider");
    // describe and validate_config answer after 0.5 s; each invoke after half of --budget, 30 s.
    // The signal comes once describe answered, and 2 s later: most likely while the first invoke is out.
    const { report, tookMs } = await interruptKit(["run", "--protocol", "provider", "--budget", "60000", "--timeout", "70000", "--config-json", CONFIG, SLOW_PROVIDER, token], outDir(), /phase describe done/, "SIGTERM", 2000);
    // Not the rest of a 30 s invoke: the launchers and their candidates went at once.
    expect(tookMs).toBeLessThan(15_000);
    expect(report.halted).toMatch(/^the kit was interrupted \(SIGTERM\) after \d+ calls, before the kit sent every request/);
    expect(report.summary.verdict).toBe("incomplete");
    expect(report.clauses.filter((c) => c.status === "fail").map((c) => c.id)).toEqual([]);
    expect(report.clauses.find((c) => c.id === "provider/invoke/answers-ok")).toMatchObject({ status: "skip", reason: report.halted });
    expect(processesWith(token)).toEqual([]);
  });

  it("policy-test: SIGINT during a slow case skips the cases not answered, with the reason, exit 130", async () => {
    const token = tokenOf("policy");
    const cases = join(ROOT, "examples/reference-provider/policy-tests.yaml");
    const { report } = await interruptKit(["policy-test", cases, "--budget", "60000", "--timeout", "70000", "--config-json", CONFIG, SLOW_PROVIDER, "--", token], outDir(), /policy-test describe answered/, "SIGINT");
    expect(report.halted).toMatch(/^the kit was interrupted \(SIGINT\) after \d+ calls, before the kit sent every case/);
    expect(report.summary.verdict).toBe("incomplete");
    expectAllSkipped(report);
    expect(processesWith(token)).toEqual([]);
  });

  it("fuzz: SIGINT before the first case (describe still out) reports every fuzzed clause skipped, not a kit error", async () => {
    const token = tokenOf("prepare");
    // The slow provider answers describe after 0.5 s: the signal comes while fuzzing prepares.
    const { report } = await interruptKit(["fuzz", "--protocol", "provider", "--fuzz-runs", "50", "--seed", "7", "--config-json", CONFIG, SLOW_PROVIDER, token], outDir(), /fuzzing provider with seed 7/, "SIGINT");
    expect(report.halted).toMatch(/^the kit was interrupted \(SIGINT\) while fuzzing, after 0 cases/);
    expectAllSkipped(report);
    expect(processesWith(token)).toEqual([]);
  });

  it("fuzz: SIGINT stops the campaign; no fuzzed clause passes on a cut campaign, exit 130", async () => {
    const token = tokenOf("fuzz");
    const { report } = await interruptKit(["fuzz", "--protocol", "provider", "--fuzz-runs", "5000", "--seed", "7", "--config-json", CONFIG, REFERENCE_PROVIDER, token], outDir(), /fuzzing provider with seed 7/, "SIGINT", 1500);
    expect(report.halted).toMatch(/^the kit was interrupted \(SIGINT\) while fuzzing, after \d+ cases/);
    expect(report.summary.verdict).toBe("incomplete");
    expectAllSkipped(report);
    expect(processesWith(token)).toEqual([]);
  });
});
