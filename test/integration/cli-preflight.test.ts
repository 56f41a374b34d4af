import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, runCli } from "./cli.js";

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

  it("prints a command's help for -h and for help CMD", async () => {
    const [dashH, helpRun] = await Promise.all([runCli(["run", "-h"]), runCli(["help", "run"])]);
    for (const result of [dashH, helpRun]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^awp-conformance run \[candidate\] \[args\.\.\]/);
      expect(result.stdout).toContain("--clause");
    }
  });
});
