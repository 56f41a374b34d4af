/**
 * The built kit, as a new user runs it: `init` given a bundled example as its candidate (no
 * terminal: flags only) writes files that `run` then judges the candidate through, with nothing
 * else on the command line but a selection to keep the test short; policy-test passes on the
 * skeleton. Each run's report names the candidate and the configuration it was given.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readReport, ROOT, runCli, useTempDirs } from "../integration/cli.js";

const temp = useTempDirs("awp-init-cli-");
const PROVIDER = join(ROOT, "examples", "reference-provider", "provider.mjs");
const AGENT = join(ROOT, "examples", "reference-agent-cli", "agent-cli.mjs");

describe("init, then run through the configuration it wrote", () => {
  it.concurrent("a provider: run judges the bundled reference provider with its configurations; policy-test passes on the skeleton", async () => {
    const dir = temp();
    const init = await runCli(["init", "--protocol", "provider", "--candidate", PROVIDER], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("awp-conformance init wrote:\n  awp-conformance.config.yaml\n  invalid-configs.json\n  policy-tests.yaml\n  .github/workflows/awp-conformance.yml\n");
    const [run, policy] = await Promise.all([
      // Picked by its name in the file: not a program on PATH (the checks before the run wait for the file).
      runCli(["run", "reference-provider", "--clause", "provider/validate-config/accepts-valid-config", "--clause", "provider/validate-config/rejects-invalid-config", "--quiet"], { cwd: dir }),
      runCli(["policy-test", "policy-tests.yaml", PROVIDER, "--quiet"], { cwd: dir }),
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain(`awp-conformance: candidate reference-provider (provider) of ${join(dir, "awp-conformance.config.yaml")}`);
    const report = readReport(join(dir, "reports"));
    expect(report.candidate.argv).toEqual([PROVIDER]);
    expect(report.options).toMatchObject({ configGiven: true, invalidConfigs: 10 });
    expect(report.clauses.map((c) => [c.id, c.status])).toEqual([["provider/validate-config/accepts-valid-config", "pass"], ["provider/validate-config/rejects-invalid-config", "pass"]]);
    // The configuration's reporters: junit and html besides console and json.
    expect(existsSync(join(dir, "reports", "report.xml")) && existsSync(join(dir, "reports", "report.html"))).toBe(true);
    expect(policy.code, policy.stdout + policy.stderr).toBe(0);
    expect(policy.stdout).toMatch(/4 cases: 4 passed, 0 failed/);
  });

  it.concurrent("an agent CLI: run judges the bundled reference CLI with the environment init wrote", async () => {
    const dir = temp();
    const init = await runCli(["init", "--protocol", "agent-cli", "--candidate", AGENT, "--dir", "conf"], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    // Run from the folder above, the file given with --config; flags over its keys keep the run short.
    const run = await runCli(["run", "--config", "conf/awp-conformance.config.yaml", "--scenario", "basic", "--quiet-window", "300", "--reporter", "json", "--quiet"], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = readReport(join(dir, "conf", "reports"));
    expect(report.candidate.argv).toEqual([AGENT]);
    expect(report.options).toMatchObject({ mode: "awp-jsonl", scenarios: ["basic"], quietWindowMs: 300, fixtureToken: true, managedTasks: true });
    expect(report.summary.passed).toBeGreaterThan(20);
    expect(existsSync(join(dir, "conf", "reports", "report.xml"))).toBe(false);
  });

  it.concurrent("init refuses to overwrite, and run names a mistake in the file by line", async () => {
    const dir = temp();
    expect((await runCli(["init", "--protocol", "provider", "--candidate", PROVIDER], { cwd: dir })).code).toBe(0);
    const again = await runCli(["init", "--protocol", "provider", "--candidate", PROVIDER], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/init would overwrite .*awp-conformance\.config\.yaml.*nothing was written; give --force/);
    const bad = await runCli(["run", "--config", "policy-tests.yaml"], { cwd: dir });
    expect(bad.code).toBe(2);
    // The file's first key is on line 6, below its comments.
    expect(bad.stderr).toContain(`${join(dir, "policy-tests.yaml")}:6:1: (top level): lacks the required key "candidates"`);
    expect(bad.stderr).toContain(`${join(dir, "policy-tests.yaml")}:8:1: cases: unknown key "cases"; the keys here are candidates, reporters, out, docsUrl`);
  });
});
