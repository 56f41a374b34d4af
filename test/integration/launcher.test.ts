import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, ROOT, useTempDirs } from "./cli.js";
import { isDead } from "../runner/dead.js";

/**
 * Provider calls are made by the kit's launcher process (src/runner/launcher). Killed with
 * SIGKILL mid-call, the kit can run no clean-up of its own: the launcher sees its channel close
 * and ends every candidate it started, then itself.
 */

const HAS_PROC = existsSync("/proc/self/environ");
const temp = useTempDirs("awp-launcher-");
const strays: number[] = [];

afterAll(() => {
  for (const pid of strays) if (!isDead(pid)) process.kill(pid, "SIGKILL");
});

const read = (file: string): string => {
  try {
    return readFileSync(file, "latin1");
  } catch {
    return "";
  }
};

/** Live processes of a kit run: candidates by their launch marker, the launcher by its argv. */
function processesOf(kitPid: number): { candidates: number[]; launchers: number[] } {
  const candidates: number[] = [];
  const launchers: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || isDead(Number(name))) continue;
    const marker = read(`/proc/${name}/environ`).split("\0").find((e) => e.startsWith("AWP_CONFORMANCE_LAUNCH="));
    if (marker?.split("=")[1]?.split(":").some((link) => link.startsWith(`${kitPid}-`))) candidates.push(Number(name));
    const argv = read(`/proc/${name}/cmdline`).split("\0");
    if (argv.some((arg) => arg.endsWith("launcher/serve.js")) && argv.includes(String(kitPid))) launchers.push(Number(name));
  }
  return { candidates, launchers };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => T | undefined, ms: number): Promise<T | undefined> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) {
    const value = probe();
    if (value !== undefined) return value;
  }
  return probe();
}

describe.skipIf(!HAS_PROC)("the launcher process (needs /proc)", () => {
  it("a kit killed with SIGKILL in the middle of a call leaves no candidate and no launcher behind", async () => {
    const args = [
      CLI, "run", "--protocol", "provider", "--out", temp(), "--budget", "60000", "--config-file", join(ROOT, "test/fakes/provider-lean-config.json"),
      join(ROOT, "dist/src/mocks/provider.js"), "--", "--fault", "slow-invoke",
    ];
    const kit = execa(process.execPath, args, { cwd: ROOT, reject: false, timeout: 60_000, env: { NO_COLOR: "1" } });
    const pid = kit.pid as number;
    // invoke-1 sleeps past its 60 s budget: once a candidate has run for a while, that is the one.
    const running = await until(() => {
      const seen = processesOf(pid);
      return seen.candidates.length > 0 && seen.launchers.length > 0 ? seen : undefined;
    }, 20_000);
    expect(running?.launchers.length).toBe(1);
    await sleep(1500);
    const before = processesOf(pid);
    strays.push(...before.candidates, ...before.launchers);
    expect(before.candidates.length).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    await kit;
    const left = await until(() => {
      const now = processesOf(pid);
      return now.candidates.length + now.launchers.length === 0 ? now : undefined;
    }, 5000);
    expect(left).toEqual({ candidates: [], launchers: [] });
  }, 60_000);
});
