import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildSpawnFloor, cFloorRun } from "../../bench/c-floor.js";

const dir = mkdtempSync(join(tmpdir(), "awp-spawn-floor-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const floor = buildSpawnFloor(dir);
const cc = spawnSync("cc", ["--version"]).error === undefined;

describe("the C floor of the provider-fuzz bench (bench/fixtures/spawn-floor.c)", () => {
  it.skipIf(!cc)("sends every request file of a folder once, two at a time, and does not hang on a candidate that reads nothing or echoes 4 MiB", () => {
    if ("skip" in floor) throw new Error(floor.skip);
    const requests = join(dir, "requests");
    mkdirSync(requests);
    // Bigger than a pipe's buffer: written while the echo is drained, and refused (EPIPE) by a candidate that exits without reading.
    const big = new Uint8Array(4 << 20).fill(0x61);
    for (let i = 0; i < 5; i++) writeFileSync(join(requests, `${String(i).padStart(6, "0")}.bin`), i === 2 ? big : new TextEncoder().encode(`request ${i}\n`));
    for (const candidate of [["cat"], ["true"]]) {
      const run = cFloorRun(floor.path, candidate, requests, 2);
      expect(run.calls).toBe(5);
      expect(run.seconds).toBeGreaterThan(0);
      expect(run.seconds).toBeLessThan(30);
    }
  });

  it.skipIf(cc)("without cc it says why in one line", () => {
    expect("skip" in floor && floor.skip).toMatch(/^C floor skipped: no C compiler \(cc\) on PATH/);
  });
});
