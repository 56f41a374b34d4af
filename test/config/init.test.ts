/**
 * What init writes, from flags or answers: the bundled examples get their own configurations
 * (so the files pass as written), other candidates a skeleton; paths relative to the folder;
 * the editor's schema line; nothing overwritten without --force; flags of the other protocol
 * and missing answers off a terminal are usage errors.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initFiles } from "../../src/config/init.js";
import { runInit, type InitFlags } from "../../src/config/init-command.js";
import { askMissing, splitArgs, type Ask } from "../../src/config/prompt.js";
import { loadConfig } from "../../src/config/load.js";
import { ROOT, useTempDirs } from "../integration/cli.js";

const temp = useTempDirs("awp-init-");
const PROVIDER = join(ROOT, "examples", "reference-provider", "provider.mjs");
const AGENT = join(ROOT, "examples", "reference-agent-cli", "agent-cli.mjs");

function answersFrom(list: string[]): { ask: Ask; asked: string[] } {
  const asked: string[] = [];
  return { asked, ask: async (question) => (asked.push(question), list.shift() ?? "") };
}

const quietIo = (cwd: string, ask?: Ask): { cwd: string; print: () => void; ask?: Ask } => ({ cwd, print: () => undefined, ...(ask !== undefined ? { ask } : {}) });
const base = (extra: Partial<InitFlags>): InitFlags => ({ args: [], dir: ".", force: false, ...extra });

describe("init's files", () => {
  it("for the bundled provider: its configuration and invalid configurations, a policy-tests skeleton, a workflow; the config loads", () => {
    const dir = temp();
    const files = initFiles({ protocol: "provider", command: [PROVIDER], dir: "." }, dir);
    expect(files.map((f) => f.path)).toEqual(["awp-conformance.config.yaml", "invalid-configs.json", "policy-tests.yaml", join(".github", "workflows", "awp-conformance.yml")].map((p) => join(dir, p)));
    const [config, invalid, policy, workflow] = files.map((f) => f.text);
    expect(config?.split("\n")[0]).toMatch(/^# yaml-language-server: \$schema=\S+\/schemas\/awp-conformance\.config\.schema\.json$/);
    expect(config).toContain('config: {"blocked_tools":["example_tool"],"redact_terms":["hunter2"]}');
    expect(config).toContain('invalidConfigFile: "./invalid-configs.json"');
    expect(JSON.parse(invalid ?? "")).toEqual(JSON.parse(readFileSync(join(ROOT, "examples", "reference-provider", "invalid-configs.json"), "utf8")));
    expect(policy).toContain('config: {"blocked_tools":["example_tool"],"redact_terms":["hunter2"]}');
    expect(workflow).toContain("run: npx awp-conformance run --reporter console --reporter github --reporter junit");
  });

  it("for another provider: the candidate relative to the folder within the repository (absolute outside it), config {} and a placeholder to replace", () => {
    const dir = temp();
    mkdirSync(join(dir, ".git"));
    mkdirSync(join(dir, "bin"));
    writeFileSync(join(dir, "bin", "my-provider"), "#!/bin/sh\n", { mode: 0o755 });
    const files = initFiles({ protocol: "provider", command: ["bin/my-provider", "--strict"], dir: "conf" }, dir);
    const config = files[0]?.text ?? "";
    expect(files[0]?.path).toBe(join(dir, "conf", "awp-conformance.config.yaml"));
    expect(config).toContain('name: "my-provider"');
    expect(config).toContain('command: ["../bin/my-provider","--strict"]');
    expect(config).toContain("config: {}");
    expect(files[1]?.text).toContain("awp_conformance_replace_me");
    expect(files[2]?.text).toContain("replace them with your provider's tools and decisions");
    const outside = initFiles({ protocol: "provider", command: ["/opt/p"], dir: "." }, dir);
    expect(outside[0]?.text).toContain('command: ["/opt/p"]');
  });

  it("for the bundled agent CLI: its environment and mode; another CLI gets the env as comments", () => {
    const dir = temp();
    const [bundled] = initFiles({ protocol: "agent-cli", command: [AGENT], dir: ".", mode: "stream-json" }, dir);
    expect(bundled?.text).toContain('name: "reference-agent-cli-stream-json"');
    expect(bundled?.text).toContain('mode: "stream-json"');
    expect(bundled?.text).toContain('      AWP_REFERENCE_API_BASE_URL: "{{fixture.openai}}"');
    const [other] = initFiles({ protocol: "agent-cli", command: ["my-cli"], dir: "." }, dir);
    expect(other?.text).toContain('command: ["my-cli"]');
    expect(other?.text).toContain('#   OPENAI_BASE_URL: "{{fixture.openai}}"');
    expect(other?.text).not.toMatch(/^ {4}env:/m);
  });

  it("in a repository's subfolder: the workflow at the repository root, working in that folder", () => {
    const repo = temp();
    mkdirSync(join(repo, ".git"));
    const files = initFiles({ protocol: "agent-cli", command: ["cli"], dir: "tools/conformance" }, repo);
    const workflow = files.at(-1);
    expect(workflow?.path).toBe(join(repo, ".github", "workflows", "awp-conformance.yml"));
    expect(workflow?.text).toContain('        working-directory: "tools/conformance"');
    expect(workflow?.text).toContain("path: tools/conformance/reports/");
  });
});

describe("awp-conformance init", () => {
  it("writes the files, and the configuration loads and names the candidate", async () => {
    const dir = temp();
    expect(await runInit(base({ protocol: "provider", candidate: PROVIDER }), quietIo(dir))).toBe(0);
    const config = loadConfig(join(dir, "awp-conformance.config.yaml"));
    expect(config.candidates[0]).toMatchObject({ name: "reference-provider", protocol: "provider", command: [PROVIDER], invalidConfigFile: join(dir, "invalid-configs.json") });
    expect(config.out).toBe(join(dir, "reports"));
  });

  it("never overwrites: a file there is a usage error and nothing is written; --force overwrites; on a terminal it asks", async () => {
    const dir = temp();
    writeFileSync(join(dir, "policy-tests.yaml"), "mine\n");
    await expect(runInit(base({ protocol: "provider", candidate: PROVIDER }), quietIo(dir))).rejects.toThrow(/init would overwrite .*policy-tests\.yaml: nothing was written; give --force/);
    expect(existsSync(join(dir, "awp-conformance.config.yaml"))).toBe(false);
    const no = answersFrom(["n"]);
    await expect(runInit(base({ protocol: "provider", candidate: PROVIDER }), quietIo(dir, no.ask))).rejects.toThrow(/nothing was written/);
    expect(no.asked).toEqual(["These files exist: policy-tests.yaml. Overwrite them? [y/N] "]);
    expect(readFileSync(join(dir, "policy-tests.yaml"), "utf8")).toBe("mine\n");
    expect(await runInit(base({ protocol: "provider", candidate: PROVIDER, force: true }), quietIo(dir))).toBe(0);
    expect(readFileSync(join(dir, "policy-tests.yaml"), "utf8")).toContain("cases:");
  });

  it("off a terminal, what is missing is a usage error; options of the other protocol too", async () => {
    const dir = temp();
    await expect(runInit(base({}), quietIo(dir))).rejects.toThrow("init needs --protocol provider|agent-cli and --candidate PATH when not on a terminal");
    await expect(runInit(base({ protocol: "provider", candidate: PROVIDER, mode: "awp-jsonl" }), quietIo(dir))).rejects.toThrow("--mode does not apply to a provider candidate");
    await expect(runInit(base({ protocol: "agent-cli", candidate: AGENT, configFile: "x", invalidConfigFile: "y" }), quietIo(dir))).rejects.toThrow("--config-file, --invalid-config-file do not apply to an agent-cli candidate");
    await expect(runInit(base({ protocol: "provider", candidate: PROVIDER, invalidConfigFile: "nope.json" }), quietIo(dir))).rejects.toThrow(`--invalid-config-file nope.json: no such file (looked at ${join(dir, "nope.json")})`);
    expect(existsSync(join(dir, "awp-conformance.config.yaml"))).toBe(false);
  });

  it("a candidate that does not exist yet is written, and said", async () => {
    const dir = temp();
    const printed: string[] = [];
    expect(await runInit(base({ protocol: "provider", candidate: "./build/provider" }), { cwd: dir, print: (text) => printed.push(text) })).toBe(0);
    expect(printed.join("")).toContain("  build the candidate: ./build/provider does not exist yet (run checks it first)\n  edit invalid-configs.json and policy-tests.yaml");
  });

  it("on a terminal it asks for what the flags left out", async () => {
    const { ask, asked } = answersFrom(["agent-cli", AGENT, '--flag "two words"', "", "stream-json"]);
    const answers = await askMissing({ dir: "." }, ask);
    expect(answers).toMatchObject({ protocol: "agent-cli", command: [AGENT, "--flag", "two words"], name: "agent-cli", mode: "stream-json" });
    expect(asked).toHaveLength(5);
    const retry = answersFrom(["nope", "provider", "./p", "", "", ""]);
    expect(await askMissing({ dir: "." }, retry.ask)).toMatchObject({ protocol: "provider", command: ["./p"], name: "p" });
    expect(splitArgs(" a  'b c' \"d\" ")).toEqual(["a", "b c", "d"]);
  });
});
