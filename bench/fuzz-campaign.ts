/**
 * Longer fuzz campaigns than CI runs: each seeded size bug of the mocks (src/mocks) hunted with a budget
 * of 300 cases at several seeds (how soon it is found, what it shrinks to, what it costs), and
 * agent-cli sessions per second at --jobs 1 and 2 against the reference CLI.
 */
import { join } from "node:path";
import { packageRoot } from "../src/core/paths.js";
import type { LaunchConfig } from "../src/core/agent-cli/launch.js";
import { fuzzAgentCli, type AgentFuzzContext } from "../src/fuzz/agent-cli/index.js";
import { prepareProviderFuzz } from "../src/fuzz/prepare.js";
import { fuzzProvider } from "../src/fuzz/provider-run.js";
import type { FuzzFailure } from "../src/fuzz/types.js";
import type { BenchResult } from "./json-reader.js";

const SEEDS = [1, 2, 3];
const CASES = 300;
const root = packageRoot();

function agentContext(fault: string | undefined): AgentFuzzContext {
  const script = fault === undefined ? [join(root, "examples/reference-agent-cli/agent-cli.mjs")] : [join(root, "dist/src/mocks/agent-cli.js"), "--fault", fault];
  const config: LaunchConfig = {
    executable: process.execPath,
    prefixArgs: script,
    mode: "awp-jsonl",
    model: "awp-fixture-model",
    env: { AWP_REFERENCE_API_BASE_URL: "{{fixture.openai}}", AWP_REFERENCE_API_KEY: "{{fixture.token}}", AWP_REFERENCE_TIMEOUT_MS: "2000" },
  };
  return { config, turnTimeoutMs: 1000 };
}

/** "51 members", "12 blocks", "102401 bytes": the size of a shrunk case, read from its replay. */
function shrunkSize(failure: FuzzFailure | undefined): string {
  if (failure === undefined) return "not found";
  if (failure.replay.protocol === "provider") return /tool\.input [a-z]+ of \d+ \w+|tool\.input nested \d+ deep|tool name of \d+ chars/.exec(failure.replay.case.label)?.[0] ?? failure.replay.case.label.slice(0, 60);
  const turn = failure.replay.steps.find((s) => s.op === "turn");
  return turn?.op === "turn" ? `a turn of ${Buffer.byteLength(turn.text, "utf8")} text bytes and ${turn.blocks?.length ?? 0} blocks` : `${failure.replay.steps.length} steps`;
}

async function providerCampaign(fault: string): Promise<BenchResult[]> {
  const argv = [process.execPath, join(root, "dist/src/mocks/provider.js"), "--fault", fault];
  const config = { value: { blocked_tools: ["example_tool"] }, document: '{"blocked_tools":["example_tool"]}' };
  const ctx = await prepareProviderFuzz(argv, config, 5000, 6000);
  if ("reason" in ctx) throw new Error(ctx.reason);
  const rows: BenchResult[] = [];
  for (const seed of SEEDS) {
    const started = performance.now();
    const result = await fuzzProvider(ctx, { argv, config: config.value, timeoutMs: 6000 }, { runs: CASES, seed, jobs: 2 });
    const failure = result.failures[0];
    const at = failure === undefined ? "-" : `case ${Number(failure.path.split(":")[0]) + 1}`;
    rows.push({ name: `${fault}, seed ${seed}: found at ${at}, shrunk to ${shrunkSize(failure)} (${result.calls} calls)`, value: (performance.now() - started) / 1000, unit: "s" });
  }
  return rows;
}

async function agentCampaign(fault: string): Promise<BenchResult[]> {
  const rows: BenchResult[] = [];
  for (const seed of SEEDS) {
    const started = performance.now();
    const result = await fuzzAgentCli(agentContext(fault), { runs: CASES, seed, jobs: 2 });
    const failure = result.failures[0];
    rows.push({ name: `${fault}, seed ${seed}: found in session ${result.runs}, shrunk to ${shrunkSize(failure)} (${result.calls} sessions)`, value: (performance.now() - started) / 1000, unit: "s" });
  }
  return rows;
}

async function sessionRate(jobs: number): Promise<BenchResult> {
  const started = performance.now();
  const result = await fuzzAgentCli(agentContext(undefined), { runs: 16, seed: 1, jobs });
  return { name: `agent-cli fuzz --jobs ${jobs}, reference CLI (16 sessions, ${result.failures.length} failures)`, value: result.runs / ((performance.now() - started) / 1000), unit: "sessions/s" };
}

export async function benchFuzzCampaign(): Promise<BenchResult[]> {
  const rows: BenchResult[] = [await sessionRate(1), await sessionRate(2)];
  for (const fault of ["crash-on-input-over-50-members", "crash-on-nesting-20", "crash-on-long-tool-name"]) rows.push(...(await providerCampaign(fault)));
  for (const fault of ["silent-over-12-blocks", "exit-on-text-over-100k", "drop-terminal-over-64k"]) rows.push(...(await agentCampaign(fault)));
  return rows;
}
