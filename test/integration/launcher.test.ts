import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, ROOT, useTempDirs } from "./cli.js";
import { isDead } from "../runner/dead.js";
import { NATIVE_SKIP } from "../runner/native/paths.js";

/**
 * Provider calls are made by the kit's launcher process (src/runner/launcher). Killed with
 * SIGKILL mid-call, the kit can run no clean-up of its own: the launcher sees its channel close
 * and ends every candidate it started, then itself.
 */

const HAS_PROC = existsSync("/proc/self/environ") && existsSync("/dev/shm");
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
    // The native spawner (runner/native/) stands for the launchers on the native path.
    if ((argv[0] ?? "").endsWith("/spawner") && argv[1] === String(kitPid)) launchers.push(Number(name));
  }
  return { candidates, launchers };
}

/** A process's environment variable (from /proc/PID/environ: what it was started with), undefined when unset. */
function envOf(pid: number, name: string): string | undefined {
  const entry = read(`/proc/${pid}/environ`).split("\0").find((e) => e.startsWith(`${name}=`));
  return entry?.slice(name.length + 1);
}

/** The processes a process started (from /proc/PID/task/PID/children). */
const childrenOf = (pid: number): number[] => read(`/proc/${pid}/task/${pid}/children`).trim().split(/\s+/).filter(Boolean).map(Number);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => T | undefined, ms: number): Promise<T | undefined> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) {
    const value = probe();
    if (value !== undefined) return value;
  }
  return probe();
}

describe.skipIf(!HAS_PROC)("the launcher process (needs /proc)", () => {
  for (const spawner of ["node", "native"] as const) {
  const skip = spawner === "native" && NATIVE_SKIP !== undefined ? ` (skipped: ${NATIVE_SKIP})` : "";
  it.skipIf(skip !== "")(`a kit killed with SIGKILL in the middle of a call leaves no candidate and no ${spawner === "node" ? "launcher" : "native spawner"} behind${skip}`, async () => {
    const args = [
      CLI, "run", "--protocol", "provider", "--spawner", spawner, "--out", temp(), "--budget", "60000", "--config-file", join(ROOT, "test/fakes/provider-lean-config.json"),
      join(ROOT, "dist/src/mocks/provider.js"), "--", "--fault", "slow-invoke",
    ];
    const kit = execa(process.execPath, args, { cwd: ROOT, reject: false, timeout: 60_000, env: { NO_COLOR: "1" } });
    const pid = kit.pid as number;
    // invoke-1 sleeps past its 60 s budget: a candidate seen running for over a second is that one
    // (the calls before it end sooner; a wait of fixed length could fall between two calls).
    const firstSeen = new Map<number, number>();
    const running = await until(() => {
      const seen = processesOf(pid);
      const now = Date.now();
      for (const candidate of seen.candidates) if (!firstSeen.has(candidate)) firstSeen.set(candidate, now);
      const long = seen.candidates.some((candidate) => now - (firstSeen.get(candidate) ?? now) > 1000);
      return long && seen.launchers.length > 0 ? seen : undefined;
    }, 30_000);
    // A launcher per call in flight: the suite sends describe and validate_config at once (--jobs 2, the default); one native spawner for all.
    expect(running?.launchers.length).toBeGreaterThanOrEqual(1);
    expect(running?.launchers.length, JSON.stringify((running?.launchers ?? []).map((p) => [p, read(`/proc/${p}/stat`)]))).toBeLessThanOrEqual(spawner === "node" ? 2 : 1);
    const before = processesOf(pid);
    strays.push(...before.candidates, ...before.launchers);
    expect(before.candidates.length).toBeGreaterThan(0);
    // The launcher runs with glibc's mmap threshold fixed (malloc-env.ts); the candidate gets the kit's environment.
    for (const launcher of before.launchers) expect(envOf(launcher, "MALLOC_MMAP_THRESHOLD_")).toBe(spawner === "node" ? "131072" : process.env.MALLOC_MMAP_THRESHOLD_);
    for (const candidate of before.candidates) {
      expect(envOf(candidate, "MALLOC_MMAP_THRESHOLD_")).toBe(process.env.MALLOC_MMAP_THRESHOLD_);
      expect(envOf(candidate, "AWP_CONFORMANCE_TUNED")).toBeUndefined();
    }
    process.kill(pid, "SIGKILL");
    await kit;
    const left = await until(() => {
      const now = processesOf(pid);
      return now.candidates.length + now.launchers.length === 0 ? now : undefined;
    }, 5000);
    expect(left).toEqual({ candidates: [], launchers: [] });
  }, 60_000);
  }

  it("fuzz runs in a tuned second process: the candidates see the user's environment, and a SIGKILL of the first process leaves nothing behind", async () => {
    const out = temp();
    const record = join(out, "record.jsonl");
    const args = [
      CLI, "fuzz", "--protocol", "provider", "--spawner", "node", "--fuzz-runs", "4", "--budget", "60000", "--out", join(out, "report"), "--config-file", join(ROOT, "test/fakes/provider-lean-config.json"),
      join(ROOT, "dist/src/mocks/provider.js"), "--", "--record", record, "--fault", "slow-invoke:ms=60000,id=*",
    ];
    const outer = execa(process.execPath, args, { cwd: ROOT, reject: false, timeout: 60_000, env: { NO_COLOR: "1", MALLOC_MMAP_THRESHOLD_: "99999" } });
    const outerPid = outer.pid as number;
    const running = await until(() => {
      const [inner] = childrenOf(outerPid);
      if (inner === undefined) return undefined;
      const seen = processesOf(inner);
      // A candidate that has written its launch line to the record.
      return seen.candidates.length > 0 && seen.launchers.length > 0 && read(record).includes('"event":"launch"') ? { inner, ...seen } : undefined;
    }, 20_000);
    expect(running).toBeDefined();
    const { inner } = running as { inner: number };
    // The kit's own process was started with its V8 setting and the user's malloc; the launchers with their own malloc setting; the candidate got the user's value back.
    expect(read(`/proc/${inner}/cmdline`).split("\0")).toContain("--max-semi-space-size=8");
    expect(envOf(inner, "MALLOC_MMAP_THRESHOLD_")).toBe("99999");
    for (const launcher of (running as { launchers: number[] }).launchers) expect(envOf(launcher, "MALLOC_MMAP_THRESHOLD_")).toBe("131072");
    const launch = read(record).split("\n").filter((line) => line.includes('"event":"launch"')).map((line) => JSON.parse(line) as { env?: Record<string, string> })[0];
    expect(launch?.env?.MALLOC_MMAP_THRESHOLD_).toBe("99999");
    expect(Object.keys(launch?.env ?? {}).filter((k) => k.startsWith("AWP_CONFORMANCE_") && k !== "AWP_CONFORMANCE_LAUNCH")).toEqual([]);
    const before = processesOf(inner);
    strays.push(inner, ...before.candidates, ...before.launchers);
    process.kill(outerPid, "SIGKILL");
    await outer;
    const left = await until(() => {
      const now = processesOf(inner);
      return isDead(inner) && now.candidates.length + now.launchers.length === 0 ? now : undefined;
    }, 5000);
    expect(left).toEqual({ candidates: [], launchers: [] });
  }, 60_000);

  it("a big request reaches the candidate through the spool byte for byte; a kit killed with SIGKILL leaves no spool behind", async () => {
    const dir = temp();
    // A small kit: the built launcher client, one call with a 300 KB request, then a call that never ends.
    const kit = join(dir, "kit.mjs");
    const candidate = join(dir, "candidate.mjs");
    writeFileSync(candidate, `import { createHash } from "node:crypto";
const hash = createHash("sha256");
process.stdin.on("data", (d) => hash.update(d)).on("end", () => {
  process.stdout.write(hash.digest("hex"));
  if (process.argv[2] === "hang") setInterval(() => {}, 1000);
});
`);
    writeFileSync(kit, `import { currentLauncher, useLauncher } from ${JSON.stringify(join(ROOT, "dist/src/runner/launcher/client.js"))};
import { createHash } from "node:crypto";
useLauncher();
const request = new Uint8Array(300 * 1024).map((_, i) => (i * 7) % 256);
const launcher = currentLauncher();
const first = await launcher.call([process.execPath, ${JSON.stringify(candidate)}], request, { timeoutMs: 20000 });
process.stdout.write(JSON.stringify({ sent: createHash("sha256").update(request).digest("hex"), got: Buffer.from(first.stdout).toString() }) + "\\n");
await launcher.call([process.execPath, ${JSON.stringify(candidate)}, "hang"], request, { timeoutMs: 60000 });
`);
    const run = execa(process.execPath, [kit], { cwd: ROOT, reject: false, timeout: 60_000, env: { NO_COLOR: "1" } });
    const pid = run.pid as number;
    let out = "";
    run.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    const answered = await until(() => (out.includes("\n") ? (JSON.parse(out) as { sent: string; got: string }) : undefined), 20_000);
    expect(answered).toBeDefined();
    expect(answered?.got).toBe(answered?.sent);
    const spools = (): string[] => readdirSync("/dev/shm").filter((name) => name.startsWith(`awp-conformance-spool-${pid}-`));
    // The second call is running: its request was taken from the spool, which is still there.
    const running = await until(() => {
      const seen = processesOf(pid);
      return seen.candidates.length > 0 ? seen : undefined;
    }, 20_000);
    expect(running?.candidates.length).toBe(1);
    strays.push(...(running?.candidates ?? []), ...(running?.launchers ?? []));
    expect(spools().length).toBe(1);
    expect(readdirSync(join("/dev/shm", spools()[0] as string))).toEqual([]);
    process.kill(pid, "SIGKILL");
    await run;
    const left = await until(() => {
      const now = processesOf(pid);
      return now.candidates.length + now.launchers.length === 0 && spools().length === 0 ? now : undefined;
    }, 5000);
    expect(left).toEqual({ candidates: [], launchers: [] });
    expect(spools()).toEqual([]);
  }, 60_000);
});
