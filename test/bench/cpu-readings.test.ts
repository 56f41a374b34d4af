import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { spawnerStatsOf } from "../../bench/c-floor.js";
import { statTimes } from "../../bench/cpu-share.js";
import { buildSpawner } from "../../src/runner/native/build.js";
import { NATIVE_SKIP } from "../runner/native/paths.js";

describe("the CPU readings of the c-floor bench (where the kit's whole fuzz process spends its CPU)", () => {
  it("reads a process's user + system time from /proc/PID/stat, a command with spaces and parentheses included", () => {
    // Fields after the command: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
    expect(statTimes("4242 (node (a) b) S 1 4242 4242 0 -1 4194560 100 0 0 0 123 45 6 7 20 0")).toEqual({ self: 1680, children: 130 });
    if (process.platform === "linux") expect(statTimes(readFileSync("/proc/self/stat", "utf8")).self).toBeGreaterThan(0);
  });

  it("finds the spawner's own line among the kit's stderr, and nothing in a stderr without one", () => {
    const stderr = "fuzz: provider/robustness/rejects-bad-config — answered ok\nawp-conformance spawner: 3013 calls; own cpu 0.405 s (user 0.090, sys 0.314), peak rss 7812 KiB; candidates cpu 1.568 s\n";
    expect(spawnerStatsOf(stderr)).toEqual({ calls: 3013, ownMs: 405, candidatesMs: 1568 });
    expect(spawnerStatsOf("fuzz: provider done\n")).toBeUndefined();
  });

  it.skipIf(NATIVE_SKIP !== undefined)(`reads what the native spawner itself prints when its input ends${NATIVE_SKIP !== undefined ? ` (skipped: ${NATIVE_SKIP})` : ""}`, () => {
    const built = buildSpawner();
    if (!built.ok) throw new Error(built.reason);
    // Its input closed at once: it ran no call, says so, and exits 0.
    const run = spawnSync(built.path, [String(process.pid)], { input: "", encoding: "utf8", timeout: 10_000, env: { ...process.env, AWP_CONFORMANCE_SPAWNER_STATS: "1" } });
    expect(run.status).toBe(0);
    expect(spawnerStatsOf(run.stderr)).toMatchObject({ calls: 0 });
  });
});
