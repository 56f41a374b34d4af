import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { removeSpool, SPOOL_MIN_BYTES, spoolDir, spoolRequest, sweepSpools, takeSpooled } from "../../src/runner/launcher/spool.js";

const HAS_SHM = process.platform === "linux" && existsSync("/dev/shm");

afterAll(() => removeSpool());

/** A pid no process has now: one that just ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  return child.pid as number;
}

describe("sweeping spool directories left behind", () => {
  it("removes those of a kit that is gone and unchanged for an hour; keeps the rest", () => {
    const root = mkdtempSync(join(tmpdir(), "awp-spool-root-"));
    try {
      const hourAgo = (Date.now() - 61 * 60 * 1000) / 1000;
      const make = (name: string, old: boolean): string => {
        const path = join(root, name);
        mkdirSync(path);
        if (old) utimesSync(path, hourAgo, hourAgo);
        return path;
      };
      const dead = deadPid();
      const gone = make(`awp-conformance-spool-${dead}-aaaaaa`, true);
      const recent = make(`awp-conformance-spool-${dead}-bbbbbb`, false);
      const living = make(`awp-conformance-spool-${process.ppid}-cccccc`, true);
      const other = make("something-else", true);
      sweepSpools(root, Date.now());
      expect([gone, recent, living, other].map(existsSync)).toEqual([false, true, true, true]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!HAS_SHM)("the request spool (needs Linux and /dev/shm)", () => {
  it("spools big requests only, in a private directory of this process, and a launcher takes each once", () => {
    expect(spoolRequest(new Uint8Array(SPOOL_MIN_BYTES - 1))).toBeUndefined();
    const bytes = new Uint8Array(SPOOL_MIN_BYTES + 7).map((_, i) => i % 251);
    const path = spoolRequest(bytes);
    expect(path).toBeDefined();
    const file = path as string;
    expect(dirname(dirname(file))).toBe("/dev/shm");
    expect(basename(dirname(file))).toMatch(new RegExp(`^awp-conformance-spool-${process.pid}-`));
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new Uint8Array(readFileSync(file))).toEqual(bytes);
    expect(new Uint8Array(takeSpooled(file))).toEqual(bytes);
    expect(existsSync(file)).toBe(false);
    expect(() => takeSpooled(file)).toThrow();
  });

  it("removeSpool removes the directory; the next big request makes a new one", () => {
    const first = spoolDir() as string;
    removeSpool();
    expect(existsSync(first)).toBe(false);
    const path = spoolRequest(new Uint8Array(SPOOL_MIN_BYTES)) as string;
    expect(existsSync(path)).toBe(true);
    expect(dirname(path)).not.toBe(first);
  });

  it("a spool that cannot be written sends the request, and those after it, through the channel", () => {
    rmSync(spoolDir() as string, { recursive: true, force: true });
    expect(spoolRequest(new Uint8Array(SPOOL_MIN_BYTES))).toBeUndefined();
    expect(spoolRequest(new Uint8Array(SPOOL_MIN_BYTES))).toBeUndefined();
  });
});
