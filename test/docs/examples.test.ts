/**
 * Every example of README.md and docs/*.md works as pasted (issue 27, point 4). Shell blocks
 * are linted (blocks.ts); YAML and JSON blocks must parse; blocks marked `sh runnable` are run
 * with bash, in the order of their file, and every command in them must succeed.
 *
 * Where they run: a scratch folder per Markdown file that holds a symbolic link to each top-level
 * entry of the repository except .git and reports/ (nothing copied), so a block sees the
 * repository root as a user of a clone does (`examples/...` paths, package.json, the built kit),
 * while its reports/ and the files it writes stay in the scratch folder. A `file=NAME` block is
 * written there before the file's later blocks run. Each block is bounded (BLOCK_MS; its whole
 * process group is killed past it).
 *
 * `npx awp-conformance`: one test runs the real npx from the repository root (npm runs the root
 * project's own bin, which is not linked into its node_modules/.bin). The blocks then run with a
 * small `npx` shim first on PATH that starts that same bin, dist/src/cli/main.js, directly, and
 * hands any other package to the real npx: npx's own start-up costs about a second a call, and
 * the docs make a dozen calls. This test uses bash; the kit never does.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anchorsOf, blocksOf, isShell, linksOf, projectBlocks, shellMistakes, type Block } from "./blocks.js";
import { expectBundledRun } from "./bundled-run.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const KIT = join(ROOT, "dist/src/cli/main.js");
/** The bound of one block: the longest (the bundled examples) takes about 15 s on an idle 2-core machine. */
const BLOCK_MS = 90_000;
const blocks = projectBlocks(ROOT);
const runnable = blocks.filter((b) => b.runnable);
const files = [...new Set(runnable.map((b) => b.file))];

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  timedOut: boolean;
}

/** Runs `script` with bash in `cwd`, its own process group, bounded; stdout and stderr kept (capped). */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, ms: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer): void => {
      if (output.length < 200_000) output += chunk.toString("utf8");
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // Already gone.
      }
    }, ms);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, timedOut });
    });
  });
}

/** A folder that looks like the repository root: links to its entries, no reports/, no .git. */
function scratchRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), "awp-doc-examples-"));
  for (const entry of readdirSync(ROOT)) if (entry !== ".git" && entry !== "reports") symlinkSync(join(ROOT, entry), join(dir, entry));
  return dir;
}

let shims: string;
let env: NodeJS.ProcessEnv;
const scratches: string[] = [];

beforeAll(() => {
  shims = mkdtempSync(join(tmpdir(), "awp-doc-shims-"));
  const npx = join(shims, "npx");
  writeFileSync(npx, `#!/usr/bin/env bash\n# npx awp-conformance ARGS... as npm resolves it from the repository root (checked by the doc test)\nif [ "$1" = awp-conformance ]; then shift; exec "${process.execPath}" "${KIT}" "$@"; fi\nPATH="$AWP_DOC_REAL_PATH" exec npx "$@"\n`);
  chmodSync(npx, 0o755);
  const path = process.env.PATH ?? "";
  env = { ...process.env, PATH: `${shims}:${path}`, AWP_DOC_REAL_PATH: path, NO_COLOR: "1" };
  delete env.FORCE_COLOR;
});

afterAll(() => {
  for (const dir of [shims, ...scratches]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const where = (block: Block): string => `${block.file}:${block.line}`;

describe("the examples of README.md and docs/*.md", () => {
  it("shell blocks parse, put no comment after a `\\` continuation, and call the kit as `npx awp-conformance`", async () => {
    const shells = blocks.filter(isShell);
    expect(shells.length).toBeGreaterThan(10);
    expect(shells.flatMap(shellMistakes)).toEqual([]);
    for (const block of shells) {
      const parsed = await bash(`bash -n <<'AWP_DOC_BLOCK'\n${block.body}AWP_DOC_BLOCK\n`, ROOT, process.env, 10_000);
      expect(parsed.code, `${where(block)} does not parse: ${parsed.output}`).toBe(0);
    }
  });

  it("the lint catches a comment after a continuation, and a bare awp-conformance", () => {
    // The provider block of the README before issue 27: bash ran `--invalid-config-file ...` as a command.
    const old = "```sh\nawp-conformance run --protocol provider \\\n  --config-file my-config.json \\            # a configuration your provider accepts\n  ./my-provider\n```\n";
    const mistakes = shellMistakes(blocksOf("README.md", old)[0] as Block);
    expect(mistakes).toEqual([
      "README.md:2: write `npx awp-conformance`: after npm ci the bare command is not on PATH",
      "README.md:3: a comment after a `\\` continuation: the `\\` escapes a space, and bash runs the next line as a command of its own",
    ]);
  });

  it("links between the docs point at files that exist, and at headings those files have", () => {
    const broken: string[] = [];
    for (const file of ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)]) {
      if (file === "docs/clauses.md" || file === "docs/mocks.md") continue; // generated, with tests of their own
      for (const { target, line } of linksOf(readFileSync(join(ROOT, file), "utf8"))) {
        const [path = "", anchor] = target.split("#");
        const resolved = path === "" ? join(ROOT, file) : join(ROOT, dirname(file), path);
        if (!existsSync(resolved)) broken.push(`${file}:${line}: ${target} (no such file)`);
        else if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor)) broken.push(`${file}:${line}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("YAML and JSON blocks parse", () => {
    for (const block of blocks.filter((b) => b.lang === "yaml" || b.lang === "yml")) {
      const errors = parseAllDocuments(block.body).flatMap((d) => ("errors" in d ? d.errors : []));
      expect(errors.map((e) => e.message), where(block)).toEqual([]);
    }
    for (const block of blocks.filter((b) => b.lang === "json")) expect(() => JSON.parse(block.body), where(block)).not.toThrow();
  });

  it("only shell blocks are runnable, and only runnable blocks or data blocks are saved as files", () => {
    for (const block of runnable) expect(isShell(block), where(block)).toBe(true);
    for (const block of blocks.filter((b) => b.saveAs !== undefined)) expect(block.runnable || isShell(block), where(block)).toBe(false);
  });

  it("the README opens with what the kit is, the two commands, then a run of your own program", () => {
    const readme = blocks.filter((b) => b.file === "README.md");
    expect(readme.slice(0, 2).map((b) => b.body.split("#")[0]?.trim())).toEqual(["npx awp-conformance run", "npm test"]);
    expect(readme[2]?.body).toMatch(/^npx awp-conformance run --protocol agent-cli .*\.\/my-cli\n/);
    expect(readme[0]?.runnable).toBe(true);
    expect(readme[0]?.line).toBeLessThan(25);
  });

  it("`npx awp-conformance` runs the built kit from the repository root, and its first call there does not rebuild it", async () => {
    // From the root itself, with an npm cache of its own: as on a fresh clone, npm has not seen this
    // folder, links it into its npx cache and runs `prepare` in it. A rebuild there would empty dist/
    // under every test running the kit at that moment (scripts/prepare.mjs leaves a built kit alone).
    const cache = mkdtempSync(join(tmpdir(), "awp-doc-npm-cache-"));
    scratches.push(cache);
    const main = join(ROOT, "dist", "src", "cli", "main.js");
    const before = statSync(main);
    const real = await bash("npx awp-conformance --version", ROOT, { ...process.env, PATH: env.AWP_DOC_REAL_PATH, npm_config_cache: cache }, 60_000);
    expect(statSync(main).mtimeMs, "npx rebuilt dist/").toBe(before.mtimeMs);
    expect(statSync(main).ino).toBe(before.ino);
    const shim = await bash("npx awp-conformance --version", ROOT, env, 10_000);
    expect(real.code, real.output).toBe(0);
    expect(real.output.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(shim.output).toBe(real.output);
  }, 70_000);

  // Two lanes side by side: the README (its first block, the bundled examples, is the longest)
  // and the docs pages. Within a file, blocks run in order, in one scratch folder.
  const lanes = [files.filter((f) => f === "README.md"), files.filter((f) => f !== "README.md")].filter((lane) => lane.length > 0);
  for (const lane of lanes) {
    const steps = blocks.filter((b) => lane.includes(b.file) && (b.runnable || b.saveAs !== undefined));
    it.concurrent(`runs the runnable blocks of ${lane.join(", ")} (${steps.filter((b) => b.runnable).length})`, async () => {
      const failures: string[] = [];
      const dirs = new Map<string, string>();
      let headline: string | undefined;
      for (const block of steps) {
        let dir = dirs.get(block.file);
        if (dir === undefined) {
          dir = scratchRoot();
          scratches.push(dir);
          dirs.set(block.file, dir);
        }
        if (!block.runnable) {
          writeFileSync(join(dir, block.saveAs as string), block.body);
          continue;
        }
        const outcome = await bash(block.body, dir, env, BLOCK_MS);
        if (block.file === "README.md" && block.body.startsWith("npx awp-conformance run ") && headline === undefined) headline = outcome.output;
        const tail = outcome.output.slice(-4000);
        if (outcome.timedOut) failures.push(`${where(block)} ran past ${BLOCK_MS} ms:\n${tail}`);
        else if (outcome.code !== 0) failures.push(`${where(block)} failed (exit ${outcome.code}):\n${tail}`);
      }
      expect(failures).toEqual([]);
      // The README's first command runs every bundled example: the kit's own test of that run
      // (it would otherwise run the same suites a second time).
      const readme = dirs.get("README.md");
      if (readme !== undefined) {
        expect(headline, "README.md runs `npx awp-conformance run` as written").toBeDefined();
        expectBundledRun(headline ?? "", join(readme, "reports"));
      }
    }, steps.length * BLOCK_MS + 10_000);
  }
});
