/** The build starts from an empty dist/, so nothing stale (an old source map, a renamed module) is published. */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
let dir = "";

afterEach(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

describe("the build", () => {
  it("first empties dist/", () => {
    const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.build).toMatch(/^node scripts\/clean-dist\.mjs && tsc -p tsconfig\.build\.json/);
  });

  it("clean-dist removes dist/ with what an earlier build left there, and nothing beside it", () => {
    dir = mkdtempSync(join(tmpdir(), "awp-clean-dist-"));
    mkdirSync(join(dir, "scripts"));
    copyFileSync(join(root, "scripts", "clean-dist.mjs"), join(dir, "scripts", "clean-dist.mjs"));
    mkdirSync(join(dir, "dist", "src", "fixtures"), { recursive: true });
    writeFileSync(join(dir, "dist", "src", "fixtures", "gone.js.map"), "{}");
    writeFileSync(join(dir, "kept.txt"), "kept");
    execFileSync(process.execPath, [join(dir, "scripts", "clean-dist.mjs")], { cwd: tmpdir(), timeout: 10_000 });
    expect(existsSync(join(dir, "dist"))).toBe(false);
    expect(readFileSync(join(dir, "kept.txt"), "utf8")).toBe("kept");
    // Nothing to remove is not an error.
    execFileSync(process.execPath, [join(dir, "scripts", "clean-dist.mjs")], { timeout: 10_000 });
  });
});
