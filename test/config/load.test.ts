/**
 * Reading awp-conformance.config.yaml: found upward, paths made absolute against its folder,
 * and every mistake told with the file, line, column and key path (did you mean, the protocol
 * a key belongs to), all at once, as a configuration error (exit 2).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findConfig } from "../../src/config/find.js";
import { loadConfig } from "../../src/config/load.js";
import { KitError } from "../../src/core/errors.js";
import { useTempDirs } from "../integration/cli.js";

const temp = useTempDirs("awp-config-");

function write(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The configuration error a file makes (the test fails if it loads). */
function refusal(file: string): KitError {
  try {
    loadConfig(file);
  } catch (error) {
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).exitCode).toBe(2);
    return error as KitError;
  }
  throw new Error(`${file} loaded`);
}

describe("finding the configuration file", () => {
  it("in the working folder or the nearest one above it; .yaml before .yml before .json; none up to the root", () => {
    const root = temp();
    const deep = join(root, "a", "b", "c");
    mkdirSync(deep, { recursive: true });
    expect(findConfig(deep)).toBeUndefined();
    const json = write(join(root, "a"), "awp-conformance.config.json", "{}");
    expect(findConfig(deep)).toBe(json);
    const yaml = write(join(root, "a"), "awp-conformance.config.yaml", "");
    expect(findConfig(deep)).toBe(yaml);
    const nearer = write(join(root, "a", "b"), "awp-conformance.config.yml", "");
    expect(findConfig(deep)).toBe(nearer);
  });
});

describe("a valid configuration", () => {
  it("comes back with its paths absolute against the file's folder (an executable without a slash stays a PATH name)", () => {
    const dir = temp();
    write(dir, "provider.sh", "#!/bin/sh\n");
    write(dir, "valid.json", "{}");
    write(dir, "invalid.json", "[{}]");
    write(dir, "xfail.txt", "");
    write(dir, "base.json", "{}");
    const file = write(dir, "awp-conformance.config.yaml", [
      "candidates:",
      "  - name: p",
      "    protocol: provider",
      "    command: [./provider.sh, --flag]",
      "    configFile: valid.json",
      "    invalidConfigFile: ./invalid.json",
      "    expectedFailures: xfail.txt",
      "    baseline: base.json",
      "    bounds: { timeout: 3000, budget: 2000 }",
      "  - name: a",
      "    protocol: agent-cli",
      "    command: [node, cli.mjs]",
      "    env: { BASE: '{{fixture.openai}}' }",
      "    home: home",
      "    fuzz: { runs: 5, corpus: corpus }",
      "out: out",
      "reporters: [console, junit]",
      "",
    ].join("\n"));
    const config = loadConfig(file);
    expect(config.file).toBe(file);
    expect(config.out).toBe(join(dir, "out"));
    expect(config.reporters).toEqual(["console", "junit"]);
    expect(config.candidates[0]).toMatchObject({ command: [join(dir, "provider.sh"), "--flag"], configFile: join(dir, "valid.json"), invalidConfigFile: join(dir, "invalid.json"), expectedFailures: join(dir, "xfail.txt"), baseline: join(dir, "base.json"), bounds: { timeout: 3000, budget: 2000 } });
    expect(config.candidates[1]).toMatchObject({ command: ["node", "cli.mjs"], env: { BASE: "{{fixture.openai}}" }, home: join(dir, "home"), fuzz: { runs: 5, corpus: join(dir, "corpus") } });
  });

  it("JSON is read strictly: a duplicate key is an error with its line", () => {
    const dir = temp();
    const ok = write(dir, "ok.json", JSON.stringify({ candidates: [{ name: "a", protocol: "agent-cli", command: ["node"] }] }));
    expect(loadConfig(ok).candidates[0]?.name).toBe("a");
    const dup = write(dir, "dup.json", '{\n  "candidates": [],\n  "candidates": []\n}\n');
    expect(refusal(dup).message).toMatch(/dup\.json: not valid JSON: .*duplicate.*\(line 3\)/i);
  });
});

describe("a configuration with mistakes", () => {
  it("names file, line, column and key path of each, with did-you-mean and the protocol a key belongs to", () => {
    const dir = temp();
    const file = write(dir, "awp-conformance.config.yaml", [
      "candidates:",
      "  - name: p",
      "    protocol: provider",
      "    command: [/bin/true]",
      "    env: { A: b }",
      "    bounds: { timout: 3, budget: x }",
      "  - name: a",
      "    protocol: agent-cli",
      "    comand: [x]",
      "    mode: awp-json",
      "reporters: [console, jsn]",
      "",
    ].join("\n"));
    const message = refusal(file).message;
    expect(message).toContain(`the configuration file ${file} has 7 problems:`);
    const lines = message.split("\n").slice(1, 8).map((l) => l.trim());
    expect(lines).toEqual([
      `${file}:5:5: candidates[0].env: "env" applies to agent-cli candidates only (this one is protocol: provider)`,
      `${file}:6:15: candidates[0].bounds.timout: unknown key "timout" (did you mean "timeout"?)`,
      `${file}:6:34: candidates[0].bounds.budget: must be integer`,
      `${file}:7:5: candidates[1]: lacks the required key "command"`,
      `${file}:9:5: candidates[1].comand: unknown key "comand" (did you mean "command"?)`,
      `${file}:10:11: candidates[1].mode: must be one of "awp-jsonl", "stream-json" (did you mean "awp-jsonl"?)`,
      `${file}:11:22: reporters[1]: must be one of "console", "json", "junit", "tap", "markdown", "html", "badge", "github" (did you mean "json"?)`,
    ]);
  });

  it("an unknown key far from every known one lists the keys of its place", () => {
    const dir = temp();
    const file = write(dir, "c.yaml", "candidates:\n  - { name: a, protocol: agent-cli, command: [x] }\nzzzzzz: 1\n");
    expect(refusal(file).message).toContain(`${file}:3:1: zzzzzz: unknown key "zzzzzz"; the keys here are candidates, reporters, out, docsUrl, evidence`);
  });

  it("what a schema cannot say: unique names, one configuration source, files that exist", () => {
    const dir = temp();
    write(dir, "valid.json", "{}");
    const file = write(dir, "c.yaml", [
      "candidates:",
      "  - name: p",
      "    protocol: provider",
      "    command: [./missing-provider]",
      "    config: {}",
      "    configFile: valid.json",
      "    invalidConfigFile: nope.json",
      "  - name: p",
      "    protocol: agent-cli",
      "    command: [node]",
      "",
    ].join("\n"));
    const message = refusal(file).message;
    expect(message).toContain(`${file}:4:15: candidates[0].command[0]: ${join(dir, "missing-provider")} does not exist`);
    expect(message).toContain(`${file}:6:17: candidates[0].configFile: give config or configFile, not both`);
    expect(message).toContain(`${file}:7:24: candidates[0].invalidConfigFile: ${join(dir, "nope.json")} does not exist`);
    expect(message).toContain(`${file}:8:11: candidates[1].name: "p" is also the name of candidates[0]: names must be unique`);
  });

  it("YAML that does not parse, an empty file, a non-JSON value: file and line", () => {
    const dir = temp();
    expect(refusal(write(dir, "bad.yaml", "candidates:\n  - name: a\n    name: b\n")).message).toMatch(/bad\.yaml:3:5: not valid YAML: Map keys must be unique/);
    expect(refusal(write(dir, "empty.yaml", "# nothing\n")).message).toContain("empty.yaml: the file is empty");
    expect(refusal(write(dir, "inf.yaml", "candidates:\n  - name: a\n    protocol: provider\n    command: [x]\n    config: { n: .inf }\n")).message).toContain("inf.yaml:5:18: candidates[0].config.n: is not a finite number");
  });
});
