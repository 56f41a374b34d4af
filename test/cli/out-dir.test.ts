import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KitError } from "../../src/core/errors.js";
import { prepareOutDir } from "../../src/cli/out-dir.js";

const root = mkdtempSync(join(tmpdir(), "awp-out-dir-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function refusal(path: string): KitError {
  try {
    prepareOutDir(path);
  } catch (error) {
    if (error instanceof KitError) return error;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

const isRoot = process.getuid?.() === 0;

describe("prepareOutDir", () => {
  it("creates a missing folder with its parents and leaves no probe file behind", () => {
    const out = join(root, "a", "b", "c");
    expect(prepareOutDir(out)).toBe(out);
    expect(statSync(out).isDirectory()).toBe(true);
    expect(readdirSync(out)).toEqual([]);
    // An existing folder is fine too.
    expect(prepareOutDir(out)).toBe(out);
  });

  // `--out /proc/nope` spun at 100% CPU, deaf to SIGTERM (Node's recursive mkdir loops on /proc): a bounded walk answers at once.
  it.runIf(existsSync("/proc/self"))("refuses a folder under /proc at once, naming it and why (usage, exit 2)", { timeout: 5000 }, () => {
    const started = performance.now();
    const error = refusal("/proc/nope/deeper");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error.code).toBe("usage");
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^--out \/proc\/nope\/deeper: cannot write reports there: cannot create \/proc\/nope: /);
  });

  it.runIf(existsSync("/sys/kernel"))("refuses /sys, a folder that takes no files of ours", { timeout: 5000 }, () => {
    expect(refusal("/sys/nope").message).toMatch(/^--out \/sys\/nope: cannot write reports there: cannot create \/sys\/nope: /);
    // An existing folder that refuses a file: the probe says so.
    expect(refusal("/proc").message).toMatch(/^--out \/proc: cannot write reports there: cannot create a file in \/proc: /);
  });

  it("refuses a FIFO, a regular file and a path through a file, without opening them", { timeout: 5000 }, () => {
    const fifo = join(root, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(refusal(fifo).message).toBe(`--out ${fifo}: cannot write reports there: ${fifo} is a FIFO (named pipe)`);
    const file = join(root, "file");
    writeFileSync(file, "x");
    expect(refusal(file).message).toBe(`--out ${file}: cannot write reports there: ${file} is a regular file`);
    expect(refusal(join(file, "sub")).message).toBe(`--out ${join(file, "sub")}: cannot write reports there: ${file} is a regular file`);
    expect(refusal("").message).toMatch(/--out is empty/);
  });

  it.skipIf(isRoot)("refuses a read-only folder (root may write anywhere: skipped when run as root)", () => {
    const locked = join(root, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    expect(refusal(join(locked, "reports")).message).toMatch(/cannot create .*locked\/reports: permission denied/);
    expect(refusal(locked).message).toMatch(/cannot create a file in .*locked: permission denied/);
    chmodSync(locked, 0o755);
  });
});
