/**
 * The composite action (action.yml): valid for GitHub (@action-validator/cli), inputs only through
 * env:, the job's Node left alone, and its steps run here as a runner would (test/package/action-steps.ts).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPORTERS } from "../../src/reporters/all.js";
import { ActionRun, actionPath, expressions, readAction, type Job } from "./action-steps.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const action = readAction();
const steps = action.runs.steps;
const temps: string[] = [];

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "awp-action-"));
  temps.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** @action-validator/cli on a file named action.yml: its exit status and what it printed. */
function validate(file: string): { status: number; out: string } {
  const cli = createRequire(import.meta.url).resolve("@action-validator/cli/cli.mjs");
  const r = spawnSync(process.execPath, [cli, file], { encoding: "utf8", timeout: 30_000, env: { ...process.env, FORCE_COLOR: "0" } });
  return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describe("action.yml is valid action metadata", () => {
  it("passes @action-validator/cli", () => {
    expect(validate(fileURLToPath(actionPath))).toEqual({ status: 0, out: "" });
  });

  it("the validator is not vacuous: a run step without a shell fails it", () => {
    const dir = temp();
    const broken = readFileSync(actionPath, "utf8").replace(/\n {6}shell: bash\n/, "\n");
    writeFileSync(join(dir, "action.yml"), broken);
    const r = validate(join(dir, "action.yml"));
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/"path": "\/runs\/steps\/\d+\/shell"/);
  });

  it("declares every input its steps use, with a description", () => {
    const text = readFileSync(actionPath, "utf8");
    const used = new Set(expressions(text.slice(text.indexOf("\nruns:"))).flatMap((e) => [...e.matchAll(/\binputs\.([\w-]+)/g)].map((m) => m[1] ?? "")));
    expect([...used].filter((name) => action.inputs[name] === undefined)).toEqual([]);
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
    // And every input is used.
    expect(Object.keys(action.inputs).filter((name) => !used.has(name))).toEqual([]);
  });

  it("never expands an expression inside a script: inputs arrive as environment variables", () => {
    for (const step of steps.filter((s) => s.run !== undefined)) {
      expect(step.run, step.name).not.toMatch(/\$\{\{/);
      for (const value of Object.values(step.env ?? {})) expect(String(value), step.name).toMatch(/^\$\{\{ [\w.-]+ \}\}$/);
    }
  });
});

describe("what the action does", () => {
  it("takes working-directory, config, shard, protocol, candidate, args and node-version, and keeps its earlier inputs", () => {
    for (const name of ["working-directory", "config", "shard", "protocol", "candidate", "args", "node-version", "kit-version", "merge", "reporters", "out", "docs-url", "artifact-name"]) {
      expect(Object.keys(action.inputs), name).toContain(name);
    }
    expect(action.inputs["working-directory"]?.default).toBe(".");
    expect(action.inputs.config?.description).toMatch(/--config/);
  });

  it("leaves the job's Node alone unless node-version is given", () => {
    const setups = steps.filter((s) => s.uses?.startsWith("actions/setup-node@"));
    expect(setups).toHaveLength(1);
    expect(setups[0]?.if).toBe("inputs.node-version != ''");
    expect(setups[0]?.with?.["node-version"]).toBe("${{ inputs.node-version }}");
  });

  it("keeps npm's downloads and the packed kit in actions/cache, keyed by what they are made from", () => {
    const caches = steps.filter((s) => s.uses?.startsWith("actions/cache@"));
    expect(caches.map((s) => s.with?.key)).toEqual(["${{ steps.kit.outputs.npm-key }}", "${{ steps.kit.outputs.kit-key }}"]);
    expect(caches[0]?.with?.path).toBe("${{ steps.kit.outputs.npm-cache }}");
    expect(caches[1]?.if).toBe("steps.kit.outputs.source == 'checkout'");
    const install = steps.find((s) => s.id === "install");
    expect(install?.env?.npm_config_cache).toBe("${{ steps.kit.outputs.npm-cache }}");
    expect(install?.run).not.toMatch(/--global|\bnpm i(nstall)? -g\b/);
  });

  it("uses the github reporter by default, among reporters the kit knows", () => {
    const defaults = (action.inputs.reporters?.default ?? "").split(",");
    expect(defaults).toContain("github");
    for (const name of defaults) expect(Object.keys(REPORTERS), name).toContain(name);
  });
});

describe("the kit step (scripts/action-kit.mjs)", () => {
  /** A copy of the files the key is made from, in a fresh folder. */
  function checkout(): string {
    const dir = temp();
    for (const name of ["package.json", "package-lock.json", "LICENSE", "action.yml", "src/index.ts", "scripts/action-kit.mjs"]) {
      mkdirSync(join(dir, name, ".."), { recursive: true });
      cpSync(join(root, name), join(dir, name));
    }
    return dir;
  }

  function keys(dir: string, withInputs: Record<string, string> = {}): Record<string, string> {
    const run = new ActionRun({ workspace: dir, actionDir: dir, temp: temp(), with: withInputs, env: { HOME: temp() } });
    expect(run.step("kit").status).toBe(0);
    return run.outputs.kit ?? {};
  }

  it("packs the checkout by default: the kit key follows its sources, not dist/ or node_modules/", () => {
    const dir = checkout();
    const first = keys(dir);
    expect(first.source).toBe("checkout");
    expect(first["kit-key"]).toMatch(/^awp-conformance-kit-[0-9a-f]{24}$/);
    expect(first["npm-key"]).toMatch(/^awp-conformance-npm-Linux-[0-9a-f]{24}$/);
    expect(first["npm-key"]?.startsWith(first["npm-restore"] ?? "?")).toBe(true);
    expect(first.tarballs).toContain(first["kit-key"]);
    mkdirSync(join(dir, "dist"));
    writeFileSync(join(dir, "dist", "x.js"), "built");
    mkdirSync(join(dir, "node_modules"));
    writeFileSync(join(dir, "node_modules", "y.js"), "installed");
    const pick = (k: Record<string, string>): string[] => [k.source ?? "", k["kit-key"] ?? "", k["npm-key"] ?? ""];
    expect(pick(keys(dir))).toEqual(pick(first));
    writeFileSync(join(dir, "src", "index.ts"), "export {};\n");
    const edited = keys(dir);
    expect(edited["kit-key"]).not.toBe(first["kit-key"]);
    expect(edited["npm-key"]).toBe(first["npm-key"]);
    writeFileSync(join(dir, "package-lock.json"), "{}\n");
    expect(keys(dir)["npm-key"]).not.toBe(first["npm-key"]);
  });

  it("installs from the registry when kit-version is given", () => {
    const out = keys(checkout(), { "kit-version": "1.2.3" });
    expect(out).toMatchObject({ source: "npm", "npm-key": "awp-conformance-npm-Linux-registry-1.2.3", "kit-key": "" });
  });

  it("stops with an annotation when the job's Node is older than the kit's engines range", () => {
    const dir = checkout();
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { engines: { node: string } };
    manifest.engines.node = ">=999.1";
    writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
    const run = new ActionRun({ workspace: dir, actionDir: dir, temp: temp(), with: {} });
    const r = run.step("kit");
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^::error title=awp-conformance::the kit needs Node >=999\.1; this job has v\d+.*node-version/);
  });
});

describe("the install step", () => {
  it("installs awp-conformance@VERSION from the registry into its own prefix, without scripts or dev dependencies", () => {
    const dir = temp();
    const bin = join(dir, "bin");
    mkdirSync(bin);
    // A stand-in npm that records its arguments and lays out what npm install would.
    writeFileSync(join(bin, "npm"), `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/npm-args"\nmkdir -p "$3/node_modules/awp-conformance/dist/src/cli"\necho 'console.log("9.9.9")' > "$3/node_modules/awp-conformance/dist/src/cli/main.js"\n`);
    chmodSync(join(bin, "npm"), 0o755);
    const run = new ActionRun({ workspace: dir, actionDir: root, temp: dir, with: { "kit-version": "1.2.3" }, env: { PATH: `${bin}:${process.env.PATH ?? ""}` } });
    run.outputs.kit = { source: "npm", "npm-cache": join(dir, "cache"), tarballs: join(dir, "none"), home: join(dir, "home") };
    const r = run.step("install");
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, "npm-args"), "utf8").split("\n")).toEqual(["install", "--prefix", join(dir, "home"), "--omit=dev", "--ignore-scripts", "--no-save", "--no-fund", "--no-audit", "awp-conformance@1.2.3", ""]);
    expect(r.stdout).toContain("awp-conformance 9.9.9 from awp-conformance@1.2.3");
    expect(run.outputs.install?.kit).toBe(join(dir, "home", "node_modules", "awp-conformance", "dist", "src", "cli", "main.js"));
  });
});

describe("the run step passes the inputs to the kit", () => {
  /** A stand-in kit that records its working folder and arguments, then exits with 1. */
  function fakeRun(withInputs: Record<string, string>): { argv: string[]; cwd: string; outputs: Record<string, string> } {
    const dir = temp();
    const kit = join(dir, "kit.mjs");
    writeFileSync(kit, `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(join(dir, "argv.json"))}, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));\nprocess.exit(1);\n`);
    mkdirSync(join(dir, "ws", "adapter"), { recursive: true });
    const run = new ActionRun({ workspace: join(dir, "ws"), actionDir: root, temp: dir, with: withInputs });
    run.outputs.install = { kit };
    expect(run.step("run").status).toBe(0);
    const seen = JSON.parse(readFileSync(join(dir, "argv.json"), "utf8")) as { argv: string[]; cwd: string };
    return { ...seen, cwd: seen.cwd.replace(`${dir}/`, ""), argv: seen.argv.map((a) => a.replace(`${dir}/`, "")), outputs: run.outputs.run ?? {} };
  }

  it("in working-directory, with --config, --protocol, --shard, the candidate made absolute and the args split", () => {
    const seen = fakeRun({ "working-directory": "adapter", config: "ci/awp.yaml", protocol: "provider", candidate: "bin/p", shard: "2/4", args: `--config-file 'my config.json' -- --verbose`, reporters: "json,github" });
    expect(seen.cwd).toBe("ws/adapter");
    expect(seen.argv).toEqual(["run", "--config", "ci/awp.yaml", "--protocol", "provider", "--out", "ws/adapter/awp-conformance-reports", "--reporter", "json,github", "--shard", "2/4", "ws/adapter/bin/p", "--config-file", "my config.json", "--", "--verbose"]);
    expect(seen.outputs).toEqual({ out: expect.stringMatching(/\/ws\/adapter\/awp-conformance-reports$/) as string, "exit-code": "1" });
  });

  it("leaves protocol and candidate to the config file when they are not given", () => {
    expect(fakeRun({ config: "awp.yaml" }).argv).toEqual(["run", "--config", "awp.yaml", "--out", "ws/awp-conformance-reports", "--reporter", action.inputs.reporters?.default]);
  });

  it("merges the shards' folders instead of running when merge is given", () => {
    const seen = fakeRun({ merge: "a b", out: "/abs/merged" });
    expect(seen.argv).toEqual(["merge", "--out", "/abs/merged", "--reporter", action.inputs.reporters?.default, "a", "b"]);
  });

  it("stops with an annotation when working-directory does not exist", () => {
    const dir = temp();
    const run = new ActionRun({ workspace: dir, actionDir: root, temp: dir, with: { "working-directory": "nope" } });
    run.outputs.install = { kit: "/nonexistent" };
    const r = run.step("run");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("::error title=awp-conformance::working-directory nope does not exist in the workspace");
  });
});

describe("the summary step", () => {
  function summary(reporters: string, files: Record<string, string>): string {
    const dir = temp();
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const run = new ActionRun({ workspace: dir, actionDir: root, temp: dir, with: { reporters } });
    run.outputs.run = { out: dir };
    expect(run.step("Write the job summary").status).toBe(0);
    return readFileSync(run.summary, "utf8");
  }

  it("puts report.md on the job page", () => {
    expect(summary("json,markdown", { "report.json": "{}", "report.md": "# the report\n" })).toBe("# the report\n");
  });

  it("leaves it to the github reporter when that ran (no second copy)", () => {
    expect(summary("json, markdown, github", { "report.json": "{}", "report.md": "# the report\n" })).toBe("");
  });

  it("says so when the kit wrote no report", () => {
    expect(summary("json,markdown,github", {})).toMatch(/^awp-conformance wrote no report\.md/);
  });
});

describe("the action end to end: the kit packed from this checkout, installed as a package, judges the reference provider", () => {
  it("installs the tarball into a prefix of its own and runs one shard of the provider suite in working-directory", () => {
    expect(existsSync(join(root, "dist", "src", "cli", "main.js")), "run npm run build first").toBe(true);
    const dir = temp();
    const npmCache = spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8", timeout: 30_000 }).stdout.trim();
    const job: Job = {
      workspace: join(dir, "ws"),
      actionDir: root,
      temp: dir,
      with: {
        "working-directory": "examples/reference-provider",
        protocol: "provider",
        candidate: "provider.mjs",
        shard: "6/6",
        args: "--config-file valid-config.json --invalid-config-file invalid-configs.json",
        reporters: "json,markdown",
      },
      // The dependencies come from this machine's npm cache when it has them (npm ci filled it).
      env: { npm_config_prefer_offline: "true" },
    };
    cpSync(join(root, "examples"), join(job.workspace, "examples"), { recursive: true });
    const run = new ActionRun(job);
    expect(run.step("kit").status).toBe(0);
    run.outputs.kit = { ...run.outputs.kit, "npm-cache": npmCache, tarballs: join(dir, "tarballs") };
    const install = run.step("install");
    expect(install.status, install.stderr).toBe(0);
    const kit = run.outputs.install?.kit ?? "";
    expect(kit).toBe(join(dir, "awp-conformance-kit", "node_modules", "awp-conformance", "dist", "src", "cli", "main.js"));
    expect(readdirSync(join(dir, "tarballs"))).toEqual(["awp-conformance-0.1.0.tgz"]);
    // Installed as a package: runtime dependencies only, no sources or maps.
    const installed = join(dir, "awp-conformance-kit", "node_modules");
    expect(existsSync(join(installed, "yargs"))).toBe(true);
    expect(existsSync(join(installed, "vitest"))).toBe(false);
    expect(existsSync(join(installed, "awp-conformance", "src"))).toBe(false);
    expect(existsSync(`${kit}.map`)).toBe(false);

    const r = run.step("run");
    expect(r.status, r.stderr).toBe(0);
    const out = join(job.workspace, "examples", "reference-provider", "awp-conformance-reports");
    expect(run.outputs.run).toEqual({ out, "exit-code": "0" });
    expect(run.step("verdict").status).toBe(0);
    expect(run.outputs.verdict).toEqual({ verdict: "conformant" });
    expect(run.step("Write the job summary").status).toBe(0);
    expect(readFileSync(run.summary, "utf8")).toBe(readFileSync(join(out, "report.md"), "utf8"));
    expect(run.step("Fail unless conformant").status).toBe(0);
  });
});
