/**
 * End to end: the small reacting host (test/host/agent-host.mjs) drives the agent-cli mock's
 * standalone bin with a fault, the mock records what it saw (AWP_CONFORMANCE_MOCK_RECORD), and
 * check-launch judges the host's reactions. The host done right, run against every fault into
 * one record, passes every reaction clause; each deliberately wrong host (--wrong) fails exactly
 * its clause. Each run is a few turns of the built-in model, so they all run at once.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report/types.js";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const HOST = join(ROOT, "test/host/agent-host.mjs");
const BIN = join(ROOT, (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["awp-conformance-mock-agent-cli"] ?? "");
const AREA = "host/agent-cli-reactions/";
const THREE_TURNS = ["--turn", "Explain this failure", "--turn", "And the next one?", "--turn", "Where were we?"];
const temp = useTempDirs("host-reactions-");

/** Runs the host against the mock with `faults`, recording into `record`; the state folder is the run's. */
async function host(record: string, state: string, faults: string, args: readonly string[]): Promise<void> {
  const env = { AWP_REFERENCE_STATE_DIR: state, AWP_CONFORMANCE_MOCK_FAULTS: faults, AWP_CONFORMANCE_MOCK_RECORD: record };
  await execa(process.execPath, [HOST, BIN, "--grace", "800", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", AWP_AGENT_CLI_ARGS_JSON: "[]", AWP_AGENT_CLI_ENV_JSON: JSON.stringify(env) },
    extendEnv: false,
    timeout: 30_000,
  });
}

async function judge(record: string, state: string): Promise<RunReport> {
  const out = temp();
  const { code, stderr } = await runCli(["check-launch", record, "--expect-env-json", JSON.stringify({ AWP_REFERENCE_STATE_DIR: state }), "--reporter", "json", "--out", out]);
  if (code === 2 || code === 3) throw new Error(stderr);
  return readReport(out);
}

const statusOf = (report: RunReport): Record<string, string> => Object.fromEntries(report.clauses.filter((c) => c.id.startsWith(AREA)).map((c) => [c.id.slice(AREA.length), c.status]));
const failing = (report: RunReport): string[] => report.clauses.filter((c) => c.status === "fail").map((c) => c.id).sort();

/** Each wrong host, the fault it runs against, its turns, and the one clause it fails. */
const WRONG: readonly { wrong: string; faults: string; turns: readonly string[]; fails: string }[] = [
  { wrong: "no-output-guard", faults: "huge-line:turn=1", turns: THREE_TURNS, fails: "oversize-stops-cli" },
  { wrong: "restart-on-bad-output", faults: "log-on-stdout,untyped-event", turns: THREE_TURNS, fails: "bad-output-session-goes-on" },
  { wrong: "second-process", faults: "", turns: THREE_TURNS, fails: "one-process-per-conversation" },
  { wrong: "replay-on-failure", faults: "exit-mid-turn", turns: THREE_TURNS, fails: "no-replay-after-failure" },
  { wrong: "quit-leaves-running", faults: "", turns: THREE_TURNS.slice(0, 2), fails: "shutdown-stops-every-cli" },
  { wrong: "retry-start", faults: "exit-at-start:code=1", turns: THREE_TURNS.slice(0, 2), fails: "no-start-retry-loop" },
];

describe.concurrent("an agent-cli host reacting to the mock's faults, judged by check-launch", () => {
  it("the host done right, against every fault into one record, passes every reaction clause and fails nothing", async () => {
    const dir = temp();
    const record = join(dir, "record.jsonl");
    const state = join(dir, "state");
    mkdirSync(state);
    const runs: [string, readonly string[]][] = [
      ["huge-line:turn=1", THREE_TURNS],
      ["log-on-stdout,untyped-event,unknown-event,split-lines", THREE_TURNS],
      ["exit-mid-turn", THREE_TURNS],
      ["exit-at-start:code=1", THREE_TURNS.slice(0, 2)],
    ];
    await Promise.all(runs.map(([faults, turns]) => host(record, state, faults, turns)));
    const report = await judge(record, state);
    // On a failure, its findings (with the record's times) are the message.
    const findings = report.clauses.filter((c) => c.status === "fail").map((c) => ({ id: c.id, findings: c.findings.map((f) => f.message) }));
    expect(failing(report), JSON.stringify(findings)).toEqual([]);
    expect(Object.values(statusOf(report))).toEqual(Array(6).fill("pass"));
  });

  it.each(WRONG.map((w) => [w.wrong, w] as const))("--wrong %s fails exactly its clause", async (_name, w) => {
    const dir = temp();
    const record = join(dir, "record.jsonl");
    const state = join(dir, "state");
    mkdirSync(state);
    await host(record, state, w.faults, [...w.turns, "--wrong", w.wrong]);
    const report = await judge(record, state);
    expect(failing(report)).toEqual([`${AREA}${w.fails}`]);
  });
});
