/**
 * End to end: the small provider host (test/host/provider-host.mjs) runs two enabled providers and
 * one disabled one, all pointed at the provider mock's bin, through two events; the mock records
 * every call (AWP_CONFORMANCE_MOCK_RECORD) and check-launch judges the record. Provider alpha's mock
 * echoes a wrong input_digest (wrong-digest: a failure under on_error report) and, on the second
 * event, answers only after 5 s (slow-invoke), so the host kills it at the event's deadline and has
 * nothing left for beta. A correct host passes every provider clause; each broken host (one flag)
 * fails exactly its clause. The budget is 1.5 s (the mock's Node start-up on a loaded machine) and
 * the kit's slack 300 ms: the late spawn comes a 1 s back-off after the deadline.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report/types.js";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const HOST = join(ROOT, "test/host/provider-host.mjs");
const bins = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin?: Record<string, string> }).bin ?? {};
const MOCK = join(ROOT, bins["awp-conformance-mock-provider"] ?? "bin awp-conformance-mock-provider missing from package.json");
const temp = useTempDirs("provider-host-");

interface Provider {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  on_error: "report";
  enabled: boolean;
}

/** A fresh configuration, record and outcomes file; runs the host with `flags` and judges the record. */
async function hostRun(flags: string[]): Promise<{ code: number; report: RunReport }> {
  const dir = temp();
  const work = join(dir, "work");
  mkdirSync(work);
  const record = join(dir, "record.jsonl");
  const outcomes = join(dir, "outcomes.json");
  const provider = (name: string, faults: string, enabled = true): Provider => ({
    argv: [MOCK, "--policy", name],
    cwd: work,
    env: { AWP_CONFORMANCE_MOCK_RECORD: record, AWP_CONFORMANCE_MOCK_FAULTS: faults, POLICY_LEVEL: "strict" },
    on_error: "report",
    enabled,
  });
  const providers = { alpha: provider("alpha", "wrong-digest,slow-invoke:ms=5000,id=call-2-alpha"), beta: provider("beta", ""), gamma: provider("gamma", "", false) };
  const config = {
    budget_ms: 1500,
    outcomes,
    providers,
    steps: [{ provider: "alpha", operation: "check" }, { provider: "beta", operation: "check" }],
    events: [{ call_id: "call-1", tool: "bash" }, { call_id: "call-2", tool: "bash" }],
  };
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify(config));
  await execa(process.execPath, [HOST, file, ...flags], { env: { PATH: process.env.PATH ?? "" }, extendEnv: false, timeout: 30_000 });
  const expected = Object.fromEntries(Object.entries(providers).map(([name, p]) => [name, { args: p.argv.slice(1), cwd: p.cwd, env: p.env, enabled: p.enabled }]));
  const out = temp();
  const options = ["--expect-providers-json", JSON.stringify(expected), "--host-outcomes", outcomes, "--slack", "300", "--reporter", "json", "--out", out];
  const { code, stderr } = await runCli(["check-launch", record, ...options]);
  if (code === 2 || code === 3) throw new Error(stderr);
  return { code, report: readReport(out) };
}

const ids = (report: RunReport, status: string): string[] => report.clauses.filter((c) => c.status === status).map((c) => c.id).sort();
const R = "host/provider-reactions";

/** Each broken host, the one clause it fails, and the exit code (1 for a MUST clause; a SHOULD failure is a warning, exit 0). */
const BROKEN: readonly [string, string, number][] = [
  ["--invoke-first", `${R}/prepared-before-invoke`, 1],
  ["--start-disabled", `${R}/disabled-not-started`, 0],
  ["--late-spawn", `${R}/spawn-before-deadline`, 0],
  ["--twice", `${R}/one-process-per-claim`, 0],
  ["--retry", `${R}/no-retry-after-failure`, 0],
  ["--as-block", `${R}/failure-not-block`, 1],
  ["--wrong-cwd", "host/provider/configured-cwd", 0],
  ["--wrong-env", "host/provider/configured-env", 0],
];

describe("a provider host judged by its reactions (check-launch)", () => {
  it("a host that prepares, shares the deadline and applies on_error passes every provider clause; each broken host fails exactly its own", async () => {
    // Three hosts at a time: each is mostly waiting (the killed slow invoke).
    const runs: { code: number; report: RunReport }[] = [];
    const all: string[][] = [[], ...BROKEN.map(([flag]) => [flag])];
    for (let i = 0; i < all.length; i += 3) runs.push(...(await Promise.all(all.slice(i, i + 3).map(hostRun))));
    const [good, ...broken] = runs;
    expect(ids(good!.report, "fail")).toEqual([]);
    expect(ids(good!.report, "skip")).toEqual([]);
    expect(ids(good!.report, "not-applicable")).toEqual([]);
    expect([good!.code, good!.report.summary.passed]).toEqual([0, 14]);
    expect(broken.map((run, i) => [BROKEN[i]![0], run.code, ids(run.report, "fail")])).toEqual(BROKEN.map(([flag, clause, code]) => [flag, code, [clause]]));
  }, 120_000);
});
