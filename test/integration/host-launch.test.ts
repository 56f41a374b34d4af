/**
 * End to end: the small test host (test/host/launch-host.mjs) launches the mock's standalone
 * bins (package.json "bin") as the contracts say, the mock records the launch
 * (AWP_CONFORMANCE_MOCK_RECORD), and check-launch judges the record; deliberately broken
 * launches fail exactly their clauses. The grace is 800 ms on both sides (and the kit's slack
 * 400 ms), short for a fast test yet long enough for the mock on a loaded machine to write that it
 * got SIGTERM: a late kill at 2000 ms is well past its bound of 1200 ms, and an invoke left running
 * for 4000 ms is past its budget of 1500 ms plus a slack of 200 ms.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelFixture, type ModelFixture } from "../../src/servers/index.js";
import type { RunReport } from "../../src/core/report/types.js";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const HOST = join(ROOT, "test/host/launch-host.mjs");
const GRACE = ["--shutdown-grace", "800", "--slack", "400"];
const bins = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin?: Record<string, string> }).bin ?? {};
/** The mock's bins by their agreed names; the path is read from package.json, so a rename of the file does not break the test. */
const mockBin = (name: string): string => {
  const path = bins[name];
  if (path === undefined) throw new Error(`package.json has no bin ${name}: the mock (issue 13, part 1) is not in this tree`);
  return join(ROOT, path);
};

const temp = useTempDirs("host-launch-");
let fixture: ModelFixture;
beforeAll(async () => {
  fixture = await startModelFixture();
});
afterAll(async () => {
  await fixture?.close();
});

interface Launch {
  record: string;
  env: Record<string, string>;
}

/** A fresh record file and the configured child environment that points the mock at it. */
function setup(faults: string): Launch {
  const dir = temp();
  const record = join(dir, "record.jsonl");
  const state = join(dir, "state");
  mkdirSync(state);
  const env = { AWP_REFERENCE_API_BASE_URL: fixture.openaiBase, AWP_REFERENCE_STATE_DIR: state, AWP_CONFORMANCE_MOCK_FAULTS: faults, AWP_CONFORMANCE_MOCK_RECORD: record };
  return { record, env };
}

async function host(protocol: "agent-cli" | "provider", launch: Launch, args: string[]): Promise<string> {
  const bin = mockBin(protocol === "provider" ? "awp-conformance-mock-provider" : "awp-conformance-mock-agent-cli");
  const result = await execa(process.execPath, [HOST, protocol, bin, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", AWP_AGENT_CLI_ARGS_JSON: "[]", AWP_AGENT_CLI_ENV_JSON: JSON.stringify(launch.env), AWP_PROVIDER_ENV_JSON: JSON.stringify(launch.env) },
    extendEnv: false,
    timeout: 30_000,
  });
  return result.stdout;
}

async function checkLaunch(launch: Launch, options: string[]): Promise<{ code: number; report: RunReport }> {
  const out = temp();
  const { code, stderr } = await runCli(["check-launch", launch.record, ...options, "--reporter", "json", "--out", out]);
  if (code === 2 || code === 3) throw new Error(stderr);
  return { code, report: readReport(out) };
}

const statuses = (report: RunReport, status: string): string[] => report.clauses.filter((c) => c.status === status).map((c) => c.id).sort();

// The two hosts run at once: most of each test is waiting (graces, a slow invoke).
describe.concurrent("a host launching the mock, judged by check-launch", () => {
  it("agent-cli: a host that follows the launch contract passes every clause; one through a shell, or killing late, fails exactly those", async () => {
    const good = setup("ignore-sigterm");
    const shell = setup("ignore-sigterm");
    const late = setup("ignore-sigterm");
    const mcp = join(temp(), "mcp.json");
    writeFileSync(mcp, JSON.stringify({ mcpServers: {} }));
    const modeArgs = ["--mode", "stream-json", "--model", "mock-model", "--grace", "800"];
    // A conversation, then the same one resumed with an MCP file, while the broken hosts run.
    const conversation = async (): Promise<string | undefined> => {
      const first = await host("agent-cli", good, [...modeArgs, "--turn", "hello", "--turn", "and again"]);
      const id = (JSON.parse(first) as { sessionId?: string }).sessionId;
      if (id !== undefined) await host("agent-cli", good, [...modeArgs, "--resume", id, "--mcp-config", mcp]);
      return id;
    };
    const [sessionId] = await Promise.all([conversation(), host("agent-cli", shell, [...modeArgs, "--via-shell"]), host("agent-cli", late, [...modeArgs, "--kill-after", "2000"])]);
    expect(sessionId).toMatch(/^[A-Za-z0-9._:-]{1,256}$/);

    const configured = ["--expect-model", "mock-model", "--expect-mode", "stream-json", "--expect-args-json", "[]", ...GRACE];
    const env = (launch: Launch): string[] => ["--expect-env-json", JSON.stringify(launch.env)];
    const [pass, viaShell, killedLate] = await Promise.all([
      checkLaunch(good, [...configured, ...env(good), "--expect-resume", sessionId!]),
      checkLaunch(shell, [...configured, ...env(shell)]),
      checkLaunch(late, [...configured, ...env(late)]),
    ]);
    expect(statuses(pass.report, "fail")).toEqual([]);
    expect(statuses(pass.report, "skip")).toEqual([]);
    // The reactions to faults it never met do not arise; its resumed conversation and its shutdown are judged too (host-reactions.test.ts has the rest).
    const reactions = ["bad-output-session-goes-on", "no-replay-after-failure", "no-start-retry-loop", "oversize-stops-cli"].map((id) => `host/agent-cli-reactions/${id}`);
    expect(statuses(pass.report, "not-applicable")).toEqual(reactions);
    expect([pass.code, pass.report.summary.passed]).toEqual([0, 18]);
    // The shell is the parent, and it adds variables of its own (PWD).
    expect([viaShell.code, statuses(viaShell.report, "fail")]).toEqual([1, ["host/launch/env-allowlist", "host/launch/no-shell"]]);
    expect([killedLate.code, statuses(killedLate.report, "fail")]).toEqual([1, ["host/shutdown/kill-after-grace"]]);
  });

  it("provider: one process per call with the invoke ended at its budget passes (SIGTERM first, or SIGKILL at once as aw does); a host that lets it run on fails the deadline", async () => {
    // A budget of 1.5 s: on a loaded box the mock's Node can take over half a second to start, and
    // a SIGTERM before it is up ends it without a word (deadline-enforced then has nothing to judge).
    const good = setup("slow-invoke:ms=4000");
    const killed = setup("slow-invoke:ms=4000");
    const lax = setup("slow-invoke:ms=4000");
    await Promise.all([host("provider", good, ["--budget", "1500"]), host("provider", killed, ["--budget", "1500", "--sigkill"]), host("provider", lax, ["--budget", "1500", "--no-deadline"])]);
    // Slack 200 ms: the bound (1.7 s) stays well below the slow invoke.
    // The launch clauses only: the reactions (host/provider-reactions) are provider-host.test.ts's.
    const options = ["--expect-args-json", "[]", "--slack", "200", "--clause", "host/provider"];
    const [pass, passKilled, fail] = await Promise.all([checkLaunch(good, options), checkLaunch(killed, options), checkLaunch(lax, options)]);
    const all = ["host/provider/deadline-enforced", "host/provider/literal-argv", "host/provider/no-shell", "host/provider/one-request-per-process", "host/provider/stdin-closed"];
    expect([pass.code, pass.report.mode, statuses(pass.report, "pass")]).toEqual([0, "provider", all]);
    // Killed silently, the mock's heartbeats (every 100 ms while slow-invoke holds it) show when it went.
    expect([passKilled.code, statuses(passKilled.report, "pass")]).toEqual([0, all]);
    expect([fail.code, statuses(fail.report, "fail")]).toEqual([1, ["host/provider/deadline-enforced"]]);
  });
});
