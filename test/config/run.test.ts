/**
 * `run` with a configuration file: its candidates one after another, each into its own report
 * folder, the worst exit code; a name picks one; --protocol keeps one protocol's; flags given
 * override keys; --no-config and no file leave run as it was. runCommand is a fake here that
 * records the arguments it was given.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { overlayFlags, flagGiven } from "../../src/config/apply.js";
import { runWithConfig } from "../../src/config/run.js";
import type { RunArgs } from "../../src/cli/run.js";
import { locateCandidate } from "../../src/cli/candidate.js";
import { useTempDirs } from "../integration/cli.js";

/** What `node` is launched as: run looks a bare name up on PATH before the first launch. */
const NODE = locateCandidate("node", process.env, process.cwd()).file;

const temp = useTempDirs("awp-config-run-");

function flags(extra: Partial<RunArgs> = {}): RunArgs {
  return { rest: [], clause: [], skip: [], scenario: [], reporter: ["console", "json"], color: false, ...extra };
}

/** A folder with a configuration of two candidates (and the files it names), and a subfolder to run from. */
function project(): { dir: string; sub: string } {
  const dir = temp();
  writeFileSync(join(dir, "provider.sh"), "#!/bin/sh\n", { mode: 0o755 });
  writeFileSync(join(dir, "valid.json"), '{"a":1}');
  writeFileSync(join(dir, "awp-conformance.config.yaml"), [
    "candidates:",
    "  - name: prov",
    "    protocol: provider",
    "    command: [./provider.sh, --x]",
    "    configFile: valid.json",
    "    bounds: { budget: 300 }",
    "  - name: cli",
    "    protocol: agent-cli",
    "    command: [node, cli.mjs]",
    "    env: { A: '1', B: '2' }",
    "reporters: [json, junit]",
    "",
  ].join("\n"));
  const sub = join(dir, "deep", "er");
  mkdirSync(sub, { recursive: true });
  return { dir, sub };
}

/** A fake runCommand: records each call's arguments, answers the codes given in turn. */
function recorder(codes: number[] = []): { run: (args: RunArgs) => Promise<number>; calls: RunArgs[] } {
  const calls: RunArgs[] = [];
  return { calls, run: async (args) => (calls.push(args), codes[calls.length - 1] ?? 0) };
}

const quiet = { say: (): void => undefined, print: (): void => undefined, argv: [] as string[] };

describe("run with a configuration file", () => {
  it("runs every candidate of the file found upward, each into <out>/<name>, and exits with the worst code", async () => {
    const { dir, sub } = project();
    const fake = recorder([4, 1]);
    const printed: string[] = [];
    expect(await runWithConfig(flags(), fake.run, { ...quiet, print: (text) => printed.push(text), cwd: sub })).toBe(1);
    expect(printed.join("")).toContain(`  prov: incomplete (exit 4) (${join(dir, "reports", "prov", "report.json")})\n  cli: not conformant (exit 1)`);
    expect(fake.calls.map((c) => [c.protocol, c.candidate, c.rest, c.out])).toEqual([
      ["provider", join(dir, "provider.sh"), ["--x"], join(dir, "reports", "prov")],
      ["agent-cli", NODE, ["cli.mjs"], join(dir, "reports", "cli")],
    ]);
    expect(fake.calls[0]).toMatchObject({ configFile: join(dir, "valid.json"), budget: 300, reporter: ["json", "junit"] });
    expect(fake.calls[1]).toMatchObject({ env: ["A=1", "B=2"], reporter: ["json", "junit"] });
  });

  it("a name (run NAME or --candidate NAME) picks one, into <out>/ itself; flags given override its keys, --env adds by name", async () => {
    const { sub } = project();
    const fake = recorder();
    const elsewhere = join(temp(), "elsewhere");
    const given = flags({ candidate: "cli", env: ["B=3", "C=4"], out: elsewhere, reporter: ["tap"], model: "m" });
    expect(await runWithConfig(given, fake.run, { ...quiet, cwd: sub, argv: ["run", "cli", "--reporter", "tap"] })).toBe(0);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ candidate: NODE, rest: ["cli.mjs"], out: elsewhere, reporter: ["tap"], model: "m", env: ["A=1", "B=2", "B=3", "C=4"] });
  });

  it("--protocol keeps that protocol's candidates; one the file lacks is a usage error", async () => {
    const { sub } = project();
    const fake = recorder();
    await runWithConfig(flags({ protocol: "agent-cli" }), fake.run, { ...quiet, cwd: sub });
    expect(fake.calls.map((c) => c.candidate)).toEqual([NODE]);
    const { dir: other } = project();
    writeFileSync(join(other, "awp-conformance.config.yaml"), "candidates:\n  - { name: a, protocol: agent-cli, command: [node] }\n");
    await expect(runWithConfig(flags({ protocol: "provider" }), fake.run, { ...quiet, cwd: other })).rejects.toThrow(/--protocol provider: .* has no provider candidate \(it has a\)/);
  });

  it("a flag that configures one candidate, with several to run, is a usage error naming them", async () => {
    const { sub } = project();
    const fake = recorder();
    await expect(runWithConfig(flags({ configJson: "{}" }), fake.run, { ...quiet, cwd: sub })).rejects.toThrow(/--config-json configures one candidate, and awp-conformance.config.yaml has 2 to run \(prov, cli\): pick one/);
    await expect(runWithConfig(flags({ rest: ["--x"], budget: 5 }), fake.run, { ...quiet, cwd: sub })).rejects.toThrow(/^--budget, candidate arguments \(--x\) configure one candidate/);
    expect(fake.calls).toEqual([]);
  });

  it("a mistyped name is a usage error with did-you-mean; a path runs as given, with the file's reporters and out", async () => {
    const { dir, sub } = project();
    const fake = recorder();
    await expect(runWithConfig(flags({ candidate: "prv" }), fake.run, { ...quiet, cwd: sub })).rejects.toThrow(/no candidate named "prv" in .* \(did you mean "prov"\?\)/);
    writeFileSync(join(sub, "other"), "#!/bin/sh\n", { mode: 0o755 });
    await runWithConfig(flags({ candidate: "./other", protocol: "provider" }), fake.run, { ...quiet, cwd: sub });
    expect(fake.calls[0]).toMatchObject({ candidate: join(sub, "other"), protocol: "provider", reporter: ["json", "junit"], out: join(dir, "reports") });
    expect(fake.calls[0]?.configFile).toBeUndefined();
  });

  it("every candidate's command, files and report folder are checked before the first one is launched", async () => {
    const { dir, sub } = project();
    writeFileSync(join(dir, "awp-conformance.config.yaml"), "candidates:\n  - { name: a, protocol: provider, command: [./provider.sh] }\n  - { name: b, protocol: agent-cli, command: [no-such-program-awp] }\n");
    const fake = recorder();
    await expect(runWithConfig(flags(), fake.run, { ...quiet, cwd: sub })).rejects.toThrow(/candidate no-such-program-awp was not found/);
    writeFileSync(join(dir, "awp-conformance.config.yaml"), "candidates:\n  - { name: a, protocol: provider, command: [./provider.sh] }\nout: provider.sh/reports\n");
    await expect(runWithConfig(flags(), fake.run, { ...quiet, cwd: sub })).rejects.toThrow(/provider\.sh/);
    expect(fake.calls).toEqual([]);
  });

  it("a candidate's baseline key is its own --baseline: each is checked against its candidate before the first launch", async () => {
    const { dir, sub } = project();
    const samples = join(import.meta.dirname, "../fixtures/reports");
    const provider = join(samples, "provider-sample.json");
    const agent = join(samples, "agent-cli-sample.json");
    writeFileSync(join(dir, "awp-conformance.config.yaml"), `candidates:\n  - { name: a, protocol: provider, command: [./provider.sh], baseline: ${provider} }\n  - { name: b, protocol: agent-cli, command: [node], mode: awp-jsonl, baseline: ${provider} }\n`);
    const fake = recorder();
    await expect(runWithConfig(flags(), fake.run, { ...quiet, cwd: sub })).rejects.toThrow(/^--baseline .*provider-sample\.json is of the provider protocol and this run of agent-cli/);
    expect(fake.calls).toEqual([]);
    writeFileSync(join(dir, "awp-conformance.config.yaml"), `candidates:\n  - { name: a, protocol: provider, command: [./provider.sh], baseline: ${provider} }\n  - { name: b, protocol: agent-cli, command: [node], mode: stream-json, baseline: ${agent} }\n`);
    await runWithConfig(flags(), fake.run, { ...quiet, cwd: sub });
    expect(fake.calls.map((c) => c.baseline)).toEqual([provider, agent]);
    // One --baseline for several candidates is a mistake: each run has its own.
    await expect(runWithConfig(flags({ baseline: provider }), recorder().run, { ...quiet, cwd: sub })).rejects.toThrow(/^--baseline configures one candidate, and awp-conformance.config.yaml has 2 to run/);
  });

  it("--no-config, or no file up to the root, leaves the arguments as they were; --config FILE must exist", async () => {
    const { sub } = project();
    const fake = recorder();
    const given = flags({ protocol: "provider" });
    await runWithConfig(given, fake.run, { ...quiet, cwd: sub, config: false });
    await runWithConfig(given, fake.run, { ...quiet, cwd: temp() });
    expect(fake.calls).toEqual([given, given]);
    await expect(runWithConfig(given, fake.run, { ...quiet, cwd: sub, config: "nope.yaml" })).rejects.toThrow(/--config nope\.yaml: no such file/);
  });
});

describe("flags over the file's keys", () => {
  it("a given flag replaces its key (and its group's: --config-json over configFile); defaults do not", () => {
    const file = flags({ configFile: "/f.json", budget: 9, reporter: ["json"], clause: ["x"] });
    const merged = overlayFlags(file, flags({ configJson: "{}", reporter: ["console", "json"] }), false);
    expect(merged).toMatchObject({ configJson: "{}", budget: 9, reporter: ["json"], clause: ["x"] });
    expect(merged.configFile).toBeUndefined();
    expect(overlayFlags(file, flags({ reporter: ["console", "json"], clause: ["y"] }), true)).toMatchObject({ reporter: ["console", "json"], clause: ["y"] });
    expect(overlayFlags(flags({ env: ["A=1"] }), flags({ envJson: '{"B":"2"}' }), false).env).toBeUndefined();
  });

  it("--reporter is told given from its default by the command line, up to --", () => {
    expect(flagGiven(["run", "--reporter", "tap"], "reporter")).toBe(true);
    expect(flagGiven(["run", "--reporter=tap"], "reporter")).toBe(true);
    expect(flagGiven(["run", "x", "--", "--reporter"], "reporter")).toBe(false);
    expect(flagGiven(["run", "--reporters"], "reporter")).toBe(false);
  });
});
