import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, runCli, useTempDirs } from "./cli.js";

const temp = useTempDirs();

const REFERENCE = join(ROOT, "examples/reference-provider/provider.mjs");

describe("awp-conformance checks before the first launch (built CLI)", () => {
  // It never exited: 100% CPU, SIGTERM ignored, only SIGKILL ended it (issue 27).
  it.runIf(process.platform === "linux")("refuses --out /proc/nope at once with exit 2, naming the folder and why", { timeout: 30_000 }, async () => {
    const started = performance.now();
    const result = await execa(process.execPath, [CLI, "run", "--protocol", "provider", "--out", "/proc/nope", REFERENCE], { reject: false, timeout: 20_000, killSignal: "SIGKILL", env: { NO_COLOR: "1" } });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toMatch(/^awp-conformance: --out \/proc\/nope: cannot write reports there: cannot create \/proc\/nope: .* \[usage\]$/m);
    expect(String(result.stdout)).toBe("");
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  // An unwritable --out was found after the whole run: 16 s, then "cannot write .../report.json [io_failed]", exit 3.
  it("refuses an --out it cannot write before the first launch (exit 2, nothing run)", async () => {
    const file = join(temp(), "a-file");
    writeFileSync(file, "");
    const result = await runCli(["run", "--protocol", "provider", "--out", join(file, "reports"), REFERENCE]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`awp-conformance: --out ${join(file, "reports")}: cannot write reports there: ${file} is a regular file [usage]\n`);
    expect(result.stdout).toBe("");
  });

  it("prints a command's help for -h and for help CMD", async () => {
    const [dashH, helpRun] = await Promise.all([runCli(["run", "-h"]), runCli(["help", "run"])]);
    for (const result of [dashH, helpRun]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^awp-conformance run \[candidate\] \[args\.\.\]/);
      expect(result.stdout).toContain("--clause");
    }
  });
});
