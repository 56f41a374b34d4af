/**
 * A key and its flag cannot mean different things: every option of `run` is a key of the
 * configuration (described as "the flag --x") or one of the few that stay on the command line,
 * and a candidate with every key set becomes run arguments under the flags' own names.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { candidateArgs } from "../../src/config/apply.js";
import type { AgentCliCandidate, KitConfig, ProviderCandidate } from "../../src/config/types.js";
import { runCommandDefinition } from "../../src/cli/commands/run.js";
import { declaredOptions } from "../cli/declared-options.js";
import { ROOT } from "../integration/cli.js";

/**
 * Options with no key: the file itself, the console's progress and detail, a CI job's shard, launch forms the keys already cover
 * (env, command), and how provider calls are spawned (a setting of the machine, read before the file is).
 */
const FLAG_ONLY = ["config", "quiet", "verbose", "shard", "from-env", "env-json", "args-json", "spawner"];

const schema = JSON.parse(readFileSync(join(ROOT, "schemas", "awp-conformance.config.schema.json"), "utf8")) as unknown;

function descriptions(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(descriptions);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => (key === "description" && typeof item === "string" ? [item] : descriptions(item)));
}

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

const described = new Set(descriptions(schema).flatMap((text) => [...text.matchAll(/the flag (--[a-z-]+)/g)].map((m) => (m[1] as string).slice(2))));

describe("the configuration's keys and run's flags", () => {
  it("every option of run has a key described as its flag, or stays on the command line; no key names a flag run lacks", () => {
    const declared = declaredOptions(runCommandDefinition);
    expect(described.size).toBe(declared.length - FLAG_ONLY.length);
    expect(declared.filter((name) => !FLAG_ONLY.includes(name) && !described.has(name))).toEqual([]);
    expect([...described].filter((name) => !declared.includes(name))).toEqual([]);
  });

  it("a candidate with every key set becomes the run arguments of those flags", () => {
    const config: KitConfig = { file: "/x/c.yaml", candidates: [], reporters: ["junit"], out: "/x/out", docsUrl: "https://docs", evidence: "all" };
    const fuzz = { runs: 3, time: 2, seed: 7, corpus: "/x/corpus" };
    const common = { command: ["/x/cand", "--a"], expectedFailures: "/x/xf", flaky: "/x/fl", baseline: "/x/base.json", level: "all", clause: ["c"], skip: ["s"], fuzz };
    const provider: ProviderCandidate = { name: "p", protocol: "provider", ...common, config: { k: 1 }, invalidConfigFile: "/x/inv", bounds: { timeout: 1, budget: 2, budgetSlack: 3, runTimeout: 4, jobs: 5 } };
    const withFile: ProviderCandidate = { ...provider, config: undefined, configFile: "/x/valid.json" } as ProviderCandidate;
    delete withFile.config;
    const agent: AgentCliCandidate = {
      name: "a", protocol: "agent-cli", ...common, mode: "stream-json", model: "m", env: { A: "1" }, home: "/x/home", managedTasksOptIn: "OPT", scenario: ["basic"],
      bounds: { runTimeout: 1, turnTimeout: 2, stallTimeout: 3, quietWindow: 4, shutdownTimeout: 5, orderSkew: 0, outputBudget: 6, taskOutputLimit: 7, taskWaitSlack: 8, jobs: 9 },
    };
    const args = [provider, withFile, agent].map((c) => candidateArgs(c, config, "/x/out") as unknown as Record<string, unknown>);
    const set = new Set(args.flatMap((a) => Object.entries(a).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)).map(([k]) => k)));
    // Each described flag's run argument; the fuzz group's keys are the --fuzz-* flags, out/reporter/docs-url the file's own.
    expect([...described].map(camel).filter((key) => !set.has(key))).toEqual([]);
    expect(args[0]).toMatchObject({ protocol: "provider", candidate: "/x/cand", rest: ["--a"], configJson: '{"k":1}', invalidConfigFile: "/x/inv", timeout: 1, budget: 2, budgetSlack: 3, runTimeout: 4, jobs: 5, fuzzRuns: 3, fuzzTime: 2, seed: 7, corpus: "/x/corpus", reporter: ["junit"], out: "/x/out", docsUrl: "https://docs", evidence: "all", level: "all", clause: ["c"], skip: ["s"], expectedFailures: "/x/xf", flaky: "/x/fl", baseline: "/x/base.json" });
    expect(args[1]).toMatchObject({ configFile: "/x/valid.json" });
    expect(args[1]?.configJson).toBeUndefined();
    expect(args[2]).toMatchObject({ protocol: "agent-cli", mode: "stream-json", model: "m", env: ["A=1"], home: "/x/home", managedTasksOptIn: "OPT", scenario: ["basic"], turnTimeout: 2, orderSkew: 0, outputBudget: 6, taskWaitSlack: 8, jobs: 9 });
  });
});
