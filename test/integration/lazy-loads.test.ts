/**
 * What a run loads at start: a JSON-only run of one protocol leaves out the other protocol's
 * runner (and its model fixtures), the badge and HTML renderers, and the YAML reader (the
 * catalogue comes from the build's snapshot); a run that asks for the badge loads badge-maker.
 * Seen from the CommonJS module cache of the built kit's process, written at its exit.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI, readReport, ROOT, useTempDirs } from "./cli.js";

const temp = useTempDirs("awp-lazy-");
const PROVIDER = join(ROOT, "dist/src/mocks/provider.js");

/**
 * Runs the built kit with preloaded hooks that list what it loaded: every module through the
 * ES module loader (a load hook) and every CommonJS module (the require cache, at exit).
 */
async function loaded(args: string[]): Promise<{ packages: string[]; kit: string[]; out: string }> {
  const dir = temp();
  const list = join(dir, "loaded.txt");
  const loader = join(dir, "loader.mjs");
  writeFileSync(loader, `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(list)}, url + "\\n"); return next(url, context); }
`);
  const hook = join(dir, "hook.mjs");
  writeFileSync(hook, `import { createRequire, register } from "node:module";
import { appendFileSync } from "node:fs";
register(${JSON.stringify(pathToFileURL(loader).href)});
const require = createRequire(import.meta.url);
process.on("exit", () => appendFileSync(${JSON.stringify(list)}, Object.keys(require.cache).join("\\n") + "\\n"));
`);
  const out = join(dir, "out");
  const result = await execa(process.execPath, ["--import", pathToFileURL(hook).href, CLI, ...args, "--out", out], { cwd: dir, reject: false, timeout: 60_000, env: { NO_COLOR: "1" } });
  expect(result.exitCode, String(result.stderr)).toBe(0);
  const paths = readFileSync(list, "utf8").split("\n").filter((line) => line !== "").map((line) => (line.startsWith("file:") ? new URL(line).pathname : line));
  const packages = [...new Set(paths.flatMap((path) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? []))].sort();
  const kit = [...new Set(paths.flatMap((path) => /\/dist\/src\/(.+)\.js$/.exec(path)?.[1] ?? []))].sort();
  return { packages, kit, out };
}

describe("a run loads what it uses", () => {
  it.concurrent("a provider run with the JSON reporter: no YAML reader, no badge or HTML renderer, no agent-cli runner; --reporter badge loads badge-maker", async () => {
    const run = (reporters: string[]): string[] => ["run", "--protocol", "provider", "--clause", "provider/describe", "--config-json", "{}", ...reporters.flatMap((r) => ["--reporter", r]), PROVIDER];
    const [json, badge] = await Promise.all([loaded(run(["json"])), loaded(run(["json", "badge"]))]);
    expect(readReport(json.out).summary.passed).toBeGreaterThan(0);
    expect(json.kit).toContain("runner/provider/suite");
    expect(json.kit).toContain("reporters/json");
    expect(json.packages).toContain("ajv");
    for (const absent of ["yaml", "badge-maker"]) expect(json.packages).not.toContain(absent);
    for (const absent of ["runner/agent-cli/suite", "servers/index", "reporters/html", "reporters/badge"]) expect(json.kit).not.toContain(absent);
    // Without --baseline, nothing of the diff, nor the saved reports' pre-flight.
    for (const absent of ["cli/preflight-reports", "cli/baseline", "core/report/diff-compare"]) expect(json.kit).not.toContain(absent);
    // The same run asked for the badge loads it: the checks above can fail.
    expect(badge.packages).toContain("badge-maker");
    expect(badge.kit).toContain("reporters/badge");
    expect(badge.packages).not.toContain("yaml");
  }, 60_000);
});
