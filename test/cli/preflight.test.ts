import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMAND_NEEDS, OPTION_RULES } from "../../src/cli/option-rules.js";
import { checkApplicable, checkNumbers, preflight, type Argv } from "../../src/cli/preflight.js";
import { checkReportInputs } from "../../src/cli/preflight-reports.js";
import { walkCommands } from "../../src/cli/command-walk.js";
import { COMMANDS } from "../../src/cli/parser.js";
import { KitError } from "../../src/core/errors.js";

const root = mkdtempSync(join(tmpdir(), "awp-preflight-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function usage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof KitError) return `${error.message} [${error.code}]`;
    throw error;
  }
  return "accepted";
}

describe("options checked against protocol and command", () => {
  // Each was accepted and ignored (issue 27).
  it.each<[string, string, Argv, RegExp]>([
    ["--env on a provider", "run", { protocol: "provider", env: ["FOO=bar"] }, /^--env applies to --protocol agent-cli only, and this run checks a provider: leave it out \[usage\]$/],
    ["--invalid-config-file on an agent CLI", "run", { protocol: "agent-cli", "invalid-config-file": "x" }, /^--invalid-config-file applies to --protocol provider only, and this run checks an agent CLI/],
    ["--mode stream-json on a provider", "run", { protocol: "provider", mode: "stream-json" }, /^--mode applies to --protocol agent-cli only/],
    ["--mode on a provider fuzz", "fuzz", { protocol: "provider", mode: "awp-jsonl" }, /^--mode applies to --protocol agent-cli only, and this fuzz checks a provider/],
    ["--seed on a run that does not fuzz", "run", { protocol: "provider", seed: 3 }, /^--seed applies only when the run fuzzes: give --fuzz-runs or --fuzz-time too/],
    ["--config-file on record (an agent CLI)", "record", { "config-file": "x" }, /^--config-file applies to --protocol provider only, and this record checks an agent CLI/],
    ["--protocol provider on record", "record", { protocol: "provider" }, /^--protocol provider: record checks an agent CLI only/],
    ["--expect-model on a provider host", "check-launch", { protocol: "provider", "expect-model": "m" }, /^--expect-model applies to --protocol agent-cli only/],
    // Agent CLIs are launched by the kit itself whatever it says (docs/processes-and-safety.md).
    ["--spawner on an agent CLI", "run", { protocol: "agent-cli", spawner: "native" }, /^--spawner applies to --protocol provider only, and this run checks an agent CLI/],
    ["--spawner on an agent-cli fuzz", "fuzz", { protocol: "agent-cli", spawner: "node" }, /^--spawner applies to --protocol provider only, and this fuzz checks an agent CLI/],
  ])("refuses %s", (_what, command, argv, message) => {
    expect(usage(() => checkApplicable(command, argv))).toMatch(message);
  });

  it.each<[string, string, Argv]>([
    ["--seed when the run fuzzes", "run", { protocol: "provider", seed: 3, "fuzz-runs": 10 }],
    ["--seed of fuzz", "fuzz", { protocol: "provider", seed: 3 }],
    ["--jobs for either protocol", "run", { protocol: "provider", jobs: 2 }],
    ["--spawner for a provider", "fuzz", { protocol: "provider", spawner: "native" }],
    ["agent-cli options for an agent CLI", "run", { protocol: "agent-cli", env: ["A=1"], mode: "stream-json", "turn-timeout": 5 }],
    ["a bundled run (no protocol)", "run", { "turn-timeout": 5000, timeout: 100 }],
    ["a false boolean (not given)", "run", { protocol: "provider", "from-env": false }],
    ["record --protocol agent-cli", "record", { protocol: "agent-cli", mode: "awp-jsonl" }],
  ])("accepts %s", (_what, command, argv) => {
    expect(usage(() => checkApplicable(command, argv))).toBe("accepted");
  });

  it("names only options that exist, and only commands that exist", () => {
    const declared = new Map(walkCommands(COMMANDS).map((c) => [c.name, new Set(c.options.map((o) => o.name))]));
    const everyOption = new Set([...declared.values()].flatMap((s) => [...s]));
    expect(OPTION_RULES.map((r) => r.option).filter((o) => !everyOption.has(o))).toEqual([]);
    expect([...OPTION_RULES.flatMap((r) => r.commands ?? []), ...Object.keys(COMMAND_NEEDS)].filter((c) => !declared.has(c))).toEqual([]);
    for (const [command, needs] of Object.entries(COMMAND_NEEDS)) {
      const keys = [...(needs.inputs ?? []).map((i) => i.key), ...(needs.out ? [needs.out.key] : []), ...(needs.candidate ? [needs.candidate.key] : [])];
      expect({ command, missing: keys.filter((k) => !declared.get(command)?.has(k)) }).toEqual({ command, missing: [] });
    }
  });

  it("refuses a number option that is not a number (run --seed abc)", () => {
    expect(usage(() => checkNumbers({ seed: Number.NaN, _: [] }))).toBe("--seed takes a number [usage]");
    expect(usage(() => checkNumbers({ seed: 3, "fuzz-runs": 1 }))).toBe("accepted");
  });
});

describe("preflight", () => {
  const provider = join(root, "provider");
  writeFileSync(provider, "#!/bin/sh\n");
  chmodSync(provider, 0o755);
  const config = join(root, "config.json");
  writeFileSync(config, "{}");
  const ctx = (notes: string[] = []) => ({ env: { PATH: root }, cwd: root, note: (line: string) => notes.push(line) });

  it.each<[string, string, Argv, RegExp]>([
    ["--config-file", "run", { protocol: "provider", candidate: provider, "config-file": "nope.json" }, /^--config-file nope.json: no such file \[usage\]$/],
    ["--invalid-config-file", "run", { protocol: "provider", candidate: provider, "invalid-config-file": "nope.json" }, /^--invalid-config-file nope.json: no such file/],
    ["--expected-failures", "fuzz", { protocol: "provider", candidate: provider, "expected-failures": "nope.txt" }, /^--expected-failures nope.txt: no such file/],
    ["--flaky", "policy-test", { paths: [config, provider], flaky: "nope.txt" }, /^--flaky nope.txt: no such file/],
    ["a case file", "policy-test", { paths: ["cases.yaml", provider] }, /^case file cases.yaml: no such file/],
    ["a folder given as --config-file", "admit", { candidate: provider, "config-file": root }, /^--config-file .*: is a directory, not a regular file \[usage\]$/],
    ["a file given as --corpus", "run", { protocol: "provider", candidate: provider, "fuzz-runs": 1, corpus: config }, /^--corpus .*: is a regular file, not a folder \[usage\]$/],
    ["a transcript", "check", { transcripts: ["t.jsonl"] }, /^transcript t.jsonl: no such file/],
  ])("refuses a missing or wrong input: %s", (_what, command, argv, message) => {
    expect(usage(() => preflight(command, { out: join(root, "out"), ...argv }, ctx()))).toMatch(message);
  });

  it("lets a new --corpus folder and stdin (-) through", () => {
    expect(usage(() => preflight("run", { protocol: "provider", candidate: provider, "fuzz-runs": 1, corpus: "new-corpus", out: "o" }, ctx()))).toBe("accepted");
    expect(usage(() => preflight("digest", { request: "-" }, ctx()))).toBe("accepted");
  });

  it("launches a bare name as the file PATH names, and says so once", () => {
    const notes: string[] = [];
    const argv = preflight("run", { protocol: "provider", candidate: "provider", out: "o" }, ctx(notes));
    expect(argv.candidate).toBe(provider);
    expect(notes).toEqual([`awp-conformance: candidate provider resolved on PATH to ${provider}; the launch contract wants an absolute path, so that file is what is launched (give ${provider} to say so yourself)\n`]);
    const dashed = preflight("fuzz", { protocol: "provider", "--": ["provider", "--flag"], out: "o" }, ctx());
    expect([dashed.candidate, dashed["--"]]).toEqual([provider, ["--flag"]]);
    const cases = preflight("policy-test", { paths: [config, "provider"] }, ctx());
    expect(cases.paths).toEqual([config, provider]);
  });

  it("checks the --against provider as it checks the candidate, and what only it is given", () => {
    const argv = preflight("fuzz", { protocol: "provider", candidate: provider, against: "provider", out: "o" }, ctx());
    expect(argv.against).toBe(provider);
    expect(usage(() => preflight("fuzz", { protocol: "provider", candidate: provider, against: "./nosuch", out: "o" }, ctx()))).toMatch(/^--against: candidate \.\/nosuch does not exist .*\[candidate_not_found\]$/);
    expect(usage(() => preflight("fuzz", { protocol: "provider", candidate: provider, against: root, out: "o" }, ctx()))).toMatch(/^--against: .* is not a regular file .*\[candidate_not_regular_file\]$/);
    expect(usage(() => preflight("fuzz", { protocol: "provider", candidate: provider, against: config, out: "o" }, ctx()))).toMatch(/^--against: .* is not executable .*\[candidate_not_executable\]$/);
    expect(usage(() => preflight("fuzz", { protocol: "provider", candidate: provider, "against-arg": ["--x"], out: "o" }, ctx()))).toBe("--against-arg applies only with --against: give --against too, or leave --against-arg out [usage]");
    expect(usage(() => preflight("fuzz", { protocol: "provider", candidate: provider, "against-config-json": "{}", out: "o" }, ctx()))).toMatch(/^--against-config-json applies only with --against/);
    expect(usage(() => preflight("fuzz", { protocol: "provider", candidate: provider, against: provider, "against-config-file": "nope.json", out: "o" }, ctx()))).toMatch(/^--against-config-file nope.json: no such file/);
    expect(usage(() => preflight("fuzz", { protocol: "agent-cli", candidate: provider, against: provider, out: "o" }, ctx()))).toMatch(/^--against applies to --protocol provider only/);
    expect(usage(() => preflight("fuzz", { protocol: "provider", candidate: provider, against: provider, corpus: "c", out: "o" }, ctx()))).toBe("--against does not combine with --corpus: a differential run compares one whole campaign of two providers [usage]");
    expect(usage(() => preflight("fuzz", { protocol: "provider", candidate: provider, against: provider, shard: "1/2", out: "o" }, ctx()))).toMatch(/^--against does not combine with --shard/);
  });

  it("checks the candidate before it makes the report folder", () => {
    expect(usage(() => preflight("run", { protocol: "provider", candidate: "nosuch", out: "never" }, ctx()))).toMatch(/\[candidate_not_found\]$/);
    expect(usage(() => preflight("run", { protocol: "provider", candidate: "provider", out: "made/here" }, ctx()))).toBe("accepted");
    expect([existsSync(join(root, "never")), existsSync(join(root, "made", "here"))]).toEqual([false, true]);
  });

  it("leaves --from-env and the bundled examples' run (no candidate) alone", () => {
    expect(usage(() => preflight("run", { protocol: "agent-cli", "from-env": true, out: "o" }, ctx()))).toBe("accepted");
    expect(usage(() => preflight("run", { out: "o" }, ctx()))).toBe("accepted");
  });

  it("refuses an unwritable report folder and the folder of record --out", () => {
    expect(usage(() => preflight("run", { out: "/proc/nope" }, ctx()))).toMatch(/^--out \/proc\/nope: cannot write reports there/);
    expect(usage(() => preflight("record", { candidate: provider, out: "/proc/nope/t.jsonl" }, ctx()))).toMatch(/^--out \/proc\/nope\/t.jsonl: its folder \/proc\/nope: cannot write reports there/);
  });
});

describe("preflight of saved reports: diff OLD NEW and run --baseline", () => {
  const samples = join(import.meta.dirname, "../fixtures/reports");
  const providerReport = join(samples, "provider-sample.json");
  const agentReport = join(samples, "agent-cli-sample.json");
  const notReport = join(root, "not-a-report.json");
  writeFileSync(notReport, '{"hello": 1}');
  const candidate = join(root, "cand");
  writeFileSync(candidate, "#!/bin/sh\n");
  chmodSync(candidate, 0o755);
  const ctx = { env: { PATH: root }, cwd: root, note: () => undefined, reports: checkReportInputs };

  it.each<[string, string, Argv, RegExp]>([
    ["a missing OLD", "diff", { old: "gone.json", new: providerReport }, /^OLD report gone.json: no such file \[usage\]$/],
    ["a NEW that is a folder", "diff", { old: providerReport, new: root }, /^NEW report .*: is a directory, not a regular file \[usage\]$/],
    ["a file that is not a report", "diff", { old: notReport, new: providerReport }, /^.*not-a-report\.json: the document lacks the required property "reportVersion" \[usage\]$/],
    ["reports of different protocols", "diff", { old: providerReport, new: agentReport }, /^OLD \(.*provider-sample\.json\) is of the provider protocol and NEW \(.*agent-cli-sample\.json\) of agent-cli: compare two runs of one protocol \[usage\]$/],
    ["a missing --baseline", "run", { protocol: "provider", candidate, baseline: "gone.json" }, /^--baseline gone.json: no such file \[usage\]$/],
    ["a --baseline that is not a report", "run", { protocol: "provider", candidate, baseline: notReport }, /lacks the required property "reportVersion" \[usage\]$/],
    ["a --baseline of the other protocol", "run", { protocol: "agent-cli", candidate, baseline: providerReport }, /^--baseline .*provider-sample\.json is of the provider protocol and this run of agent-cli: compare two runs of one protocol \[usage\]$/],
    ["a --baseline of the other mode (awp-jsonl by default)", "run", { protocol: "agent-cli", candidate, baseline: agentReport }, /^--baseline .*agent-cli-sample\.json ran --mode stream-json and this run --mode awp-jsonl: compare two runs of one mode \[usage\]$/],
    ["a --baseline of a whole run for one shard", "run", { protocol: "provider", candidate, baseline: providerReport, shard: "1/2" }, /^--baseline .* is a whole run and this run shard 1\/2: combine each run's shards/],
  ])("refuses %s before anything starts", (_what, command, argv, message) => {
    expect(usage(() => preflight(command, { out: join(root, "out"), ...argv }, ctx))).toMatch(message);
  });

  it.each<[string, string, Argv]>([
    ["two reports of one protocol", "diff", { old: providerReport, new: join(samples, "provider-incomplete-sample.json") }],
    ["a --baseline of the same protocol and mode", "run", { protocol: "agent-cli", mode: "stream-json", candidate, baseline: agentReport }],
    ["a --baseline whose protocol the configuration file will say (checked again then)", "run", { baseline: agentReport }],
  ])("accepts %s", (_what, command, argv) => {
    expect(usage(() => preflight(command, { out: join(root, "out"), ...argv }, ctx))).toBe("accepted");
  });

  it("a caller that names a report without the check it needs is a kit bug, never a skipped check", () => {
    expect(() => preflight("diff", { old: providerReport, new: providerReport }, { ...ctx, reports: undefined })).toThrow(new KitError("kit_bug", "the pre-flight of diff reads saved reports: its caller gives it the check (preflight-reports.ts)"));
  });
});
