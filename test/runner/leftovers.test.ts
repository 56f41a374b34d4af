import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { LAUNCH_MARKER_ENV } from "../../src/core/process-outcome.js";
import { SECRET_ENV_NAME } from "../../src/core/agent-cli/launch.js";
import { beginLaunch, findLeftovers, forgetLaunch, knowLaunchers, markedEnv, sweepLeftovers, traceLaunch, unsweptLaunches, type LaunchTrace } from "../../src/runner/leftovers.js";
import { carriesMarker, markerLinks } from "../../src/runner/proc-read.js";
import { finalizeGroup, killAllGroups, spawnGroup } from "../../src/runner/process-group.js";
import { runProcess, type ProcessResult } from "../../src/runner/process.js";
import { isDead, taggedProcesses } from "./dead.js";
import { legTitle, RUN_PATHS, type RunPath } from "./native/paths.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/processes/", import.meta.url));
const TAG = "awp-test-leftover";
const HAS_PROC = existsSync("/proc/self/stat");
/** The built runner (npm test builds first), for a kit started in a pid namespace of its own. */
const BUILT_PROCESS = fileURLToPath(new URL("../../dist/src/runner/process.js", import.meta.url));

/** Whether this test may start a process as the init of a new pid namespace (root, with unshare). */
function canUnshare(): boolean {
  if (!HAS_PROC || !existsSync(BUILT_PROCESS)) return false;
  try {
    execFileSync("unshare", ["-pf", "--mount-proc", "true"], { stdio: "ignore", timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}
const CAN_UNSHARE = canUnshare();

const tagged = (): number[] => taggedProcesses(TAG);

// A failing test must not leave its daemons behind.
afterEach(() => {
  if (!HAS_PROC) return;
  for (const pid of tagged()) process.kill(pid, "SIGKILL");
});

function leaveWith(mode: string, grace: number, run: RunPath["run"]): Promise<ProcessResult> {
  return run({ argv: [process.execPath, path.join(FIXTURES, "leave-daemon.mjs"), mode], timeoutMs: 5000, killGraceMs: grace, stdoutCap: 4096, stderrCap: 4096 });
}

const pidOf = (result: ProcessResult): number => Number(result.stdout.toString().trim());

describe("the launch marker", () => {
  it("is added to the given environment, after a marker the kit inherited", () => {
    expect(markedEnv({ A: "1" }, "9-ab")).toEqual({ A: "1", [LAUNCH_MARKER_ENV]: "9-ab" });
    expect(markedEnv({ [LAUNCH_MARKER_ENV]: "1-outer" }, "9-ab")[LAUNCH_MARKER_ENV]).toBe("1-outer:9-ab");
  });

  it("is matched only as the whole value (or one link of the chain) of the marker variable", () => {
    const env = (...entries: string[]): Buffer => Buffer.from(`${entries.join("\0")}\0`, "latin1");
    expect(carriesMarker(env("PATH=/bin", `${LAUNCH_MARKER_ENV}=9-ab`), "9-ab")).toBe(true);
    expect(carriesMarker(env(`${LAUNCH_MARKER_ENV}=1-outer:9-ab`), "9-ab")).toBe(true);
    expect(carriesMarker(env(`${LAUNCH_MARKER_ENV}=9-abc`), "9-ab")).toBe(false);
    expect(carriesMarker(env("OTHER=9-ab", `X${LAUNCH_MARKER_ENV}=9-ab`), "9-ab")).toBe(false);
    expect(markerLinks(env("A=1", `${LAUNCH_MARKER_ENV}=1-outer:9-ab`))).toEqual(["1-outer", "9-ab"]);
    expect(markerLinks(env("A=1"))).toEqual([]);
  });

  it("is not a name the reports treat as a secret", () => {
    expect(SECRET_ENV_NAME.test(LAUNCH_MARKER_ENV)).toBe(false);
  });
});

describe("the start of a launch, as /proc counts process starts", () => {
  it.skipIf(process.platform !== "linux")("is never ahead of the truth, even when reading the clock came late", () => {
    // A /proc whose uptime is a FIFO that answers 150 ms late, with the time when it answers:
    // the read ends then, and a launch begun then started no earlier than that.
    const root = mkdtempSync(path.join(tmpdir(), "awp-proc-"));
    try {
      mkdirSync(path.join(root, "self"));
      writeFileSync(path.join(root, "self", "stat"), "1 (x) S 0");
      execFileSync("mkfifo", [path.join(root, "uptime")]);
      const answer = `setTimeout(() => require("node:fs").writeFileSync(${JSON.stringify(path.join(root, "uptime"))}, "100.00 5.00\\n"), 150)`;
      const writer = spawn(process.execPath, ["-e", answer], { stdio: "ignore" });
      const first = beginLaunch(root);
      const answered = performance.now();
      // The next launch counts on from that reading (it is kept for seconds).
      const next = beginLaunch(root);
      const truth = 100 * 100 + Math.floor((performance.now() - answered) / 10);
      writer.kill();
      expect(first.proc).toBe(root);
      expect(first.startTicks).toBeLessThan(100 * 100);
      expect(next.startTicks).toBeLessThanOrEqual(truth);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

// The sweep after a launch, on both paths: runProcess here, and the native spawner's own look.
for (const leg of RUN_PATHS) describe.skipIf(!HAS_PROC || leg.skip !== undefined)(legTitle("leftovers after a launch (needs /proc)", leg), () => {
  const leave = (mode: string, grace = 300): Promise<ProcessResult> => leaveWith(mode, grace, leg.run);

  it("finds by pipe alone a daemon that dropped its environment but holds stdout", async () => {
    const result = await leave("scrub-stdout");
    const daemon = pidOf(result);
    expect(result.leftovers?.found).toEqual([expect.objectContaining({ pid: daemon, foundBy: ["pipe"], holds: [expect.objectContaining({ stream: "stdout", link: expect.stringMatching(/^socket:\[\d+\]$/) })], ended: "SIGTERM" })]);
    expect(result.leftovers?.found[0]?.command).toContain(`-e setTimeout(() => {}, 60000); ${TAG} scrub-stdout`);
    expect(isDead(daemon)).toBe(true);
  });

  it("finds by pipe a daemon that dropped its environment and holds only stdin", async () => {
    const result = await leave("scrub-stdin");
    expect(result.leftovers?.found).toEqual([expect.objectContaining({ pid: pidOf(result), foundBy: ["pipe"], holds: [expect.objectContaining({ stream: "stdin" })] })]);
  });

  it("finds by marker alone a daemon that closed every fd of the kit", async () => {
    const result = await leave("close-all");
    expect(result.leftovers?.found).toEqual([expect.objectContaining({ pid: pidOf(result), foundBy: ["marker"], holds: [], ended: "SIGTERM" })]);
    expect(isDead(pidOf(result))).toBe(true);
  });

  it("SIGKILLs after the grace a daemon that ignores SIGTERM", async () => {
    const began = performance.now();
    const result = await leave("ignore-term", 300);
    expect(result.leftovers?.found).toEqual([expect.objectContaining({ pid: pidOf(result), ended: "SIGKILL" })]);
    expect(performance.now() - began).toBeGreaterThanOrEqual(300);
    expect(isDead(pidOf(result))).toBe(true);
  });

  it("looks again after ending them: a daemon started by a dying one is ended too", async () => {
    const result = await leave("respawn");
    const found = result.leftovers?.found ?? [];
    expect(found.map((l) => l.pid)[0]).toBe(pidOf(result));
    expect(found).toHaveLength(2);
    // (Its command line may be read between fork and exec, so only its pid is sure to differ.)
    expect(found[1]?.pid).not.toBe(found[0]?.pid);
    expect(found.every((l) => l.foundBy.includes("marker"))).toBe(true);
    expect(tagged()).toEqual([]);
  });
});

describe.skipIf(!HAS_PROC)("leftovers: processes that escaped the process group (needs /proc)", () => {
  it("ends the leftovers of a launch still running when the kit exits (killAllGroups)", async () => {
    const spawned = await spawnGroup({ argv: [process.execPath, path.join(FIXTURES, "leave-daemon.mjs"), "close-all", "hang"], env: { PATH: path.dirname(process.execPath) } });
    if (!spawned.ok) throw new Error(spawned.error.message);
    const child = spawned.child;
    child.stderr.resume();
    const daemon = await new Promise<number>((resolve) => {
      child.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.stdout.resume();
    });
    killAllGroups();
    await child.exited;
    expect(isDead(daemon) || (await new Promise((r) => setTimeout(r, 200)).then(() => isDead(daemon)))).toBe(true);
    expect(unsweptLaunches()).toBe(0);
    await finalizeGroup(child, 100);
  });

  it("never signals the kit, a process older than the launch, or one without the marker or pipe", async () => {
    // older holds a pipe (its stdout) and, 300 ms later, starts two processes that hold it too:
    // sharer, and sibling, which carries the marker of another launch of this kit (a parallel
    // job's). A launch traced between the two moments, whose "stdout" is that pipe, owns sharer only.
    const start = (tag: string, env: string): string => `require("node:child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", "${TAG}", "${tag}"], { detached: true, stdio: ["ignore", "inherit", "ignore"], env: ${env} })`;
    const later = `setTimeout(() => { const a = ${start("sharer", "process.env")}; const b = ${start("sibling", `{ ${LAUNCH_MARKER_ENV}: "${process.pid}-0123456789abcdef" }`)}; a.unref(); b.unref(); console.log(a.pid + " " + b.pid); }, 300); setTimeout(() => {}, 60000);`;
    const older = spawn(process.execPath, ["-e", later, TAG, "older"], { stdio: ["ignore", "pipe", "ignore"], detached: true, env: {} });
    const pids = new Promise<number[]>((resolve) => older.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim().split(" ").map(Number))));
    await new Promise((r) => setTimeout(r, 100));
    const pipe = readlinkSync(`/proc/${older.pid}/fd/1`);
    const stranger = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", TAG, "stranger"], { stdio: "ignore", detached: true });
    const traced = traceLaunch(stranger.pid as number, beginLaunch());
    forgetLaunch(traced);
    const trace: LaunchTrace = { ...traced, stdio: new Map([[pipe, "stdout"]]) };
    const [sharer, sibling] = (await pids) as [number, number];
    try {
      expect(findLeftovers(trace).map((f) => f.pid)).toEqual([sharer]);
      const sweep = await sweepLeftovers(trace, 300);
      expect(sweep.found).toEqual([expect.objectContaining({ pid: sharer, foundBy: ["pipe"], holds: [{ stream: "stdout", link: pipe }] })]);
      expect(isDead(sharer)).toBe(true);
      for (const pid of [process.pid, process.ppid, older.pid as number, stranger.pid as number, sibling]) expect(isDead(pid)).toBe(false);
    } finally {
      older.kill("SIGKILL");
      stranger.kill("SIGKILL");
      if (!isDead(sibling)) process.kill(sibling, "SIGKILL");
    }
  });

  it("rules out the children of the kit's launcher processes, and only those", async () => {
    // A stand-in for another launcher of this kit starts, after the launch below, a process that
    // carries this launch's marker: the launch's by the marker, but a child of a process that
    // launches, which a leftover never is (its parent is in its launch, or a reaper).
    const stranger = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", TAG, "stranger"], { stdio: "ignore", detached: true });
    const trace = traceLaunch(stranger.pid as number, beginLaunch());
    forgetLaunch(trace);
    const child = `const c = require("node:child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", "${TAG}", "child"], { detached: true, stdio: "ignore", env: { ${LAUNCH_MARKER_ENV}: "${trace.marker}" } }); console.log(c.pid); setTimeout(() => {}, 60000);`;
    const launcher = spawn(process.execPath, ["-e", child, TAG, "launcher"], { stdio: ["ignore", "pipe", "ignore"], detached: true, env: {} });
    const marked = await new Promise<number>((resolve) => launcher.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    try {
      knowLaunchers([launcher.pid as number]);
      expect(findLeftovers(trace)).toEqual([]);
      knowLaunchers([]);
      expect(findLeftovers(trace)).toEqual([expect.objectContaining({ pid: marked, foundBy: ["marker"] })]);
    } finally {
      knowLaunchers([]);
      for (const proc of [launcher, stranger]) proc.kill("SIGKILL");
      if (!isDead(marked)) process.kill(marked, "SIGKILL");
    }
  });

  // The kit as pid 1 of a container: orphans become its children, and must not be taken for its launches.
  it.skipIf(!CAN_UNSHARE)("finds the leftovers of a launch when the kit is its pid namespace's init (unshare -pf; needs the built kit and root)", async () => {
    const script = `const { runProcess } = await import(${JSON.stringify(BUILT_PROCESS)}); const r = await runProcess({ argv: [process.execPath, ${JSON.stringify(path.join(FIXTURES, "leave-daemon.mjs"))}, "close-all"], timeoutMs: 5000, killGraceMs: 300, stdoutCap: 4096, stderrCap: 4096 }); console.log(JSON.stringify({ pid: process.pid, leftovers: r.leftovers }));`;
    const out = execFileSync("unshare", ["-pf", "--mount-proc", process.execPath, "--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
    const seen = JSON.parse(out) as { pid: number; leftovers: { found: { foundBy: string[]; ended: string }[] } };
    expect(seen.pid).toBe(1);
    expect(seen.leftovers.found).toEqual([expect.objectContaining({ foundBy: ["marker"], ended: "SIGTERM" })]);
  });

  it("finds nothing after a plain call, and a look stays cheap", async () => {
    const result = await runProcess({ argv: [process.execPath, "-e", ""], timeoutMs: 5000, stdoutCap: 10, stderrCap: 10 });
    expect(result.leftovers).toEqual({ scan: "proc", found: [] });
    const plain = spawn(process.execPath, ["-e", ""], { stdio: "pipe" });
    const trace = traceLaunch(plain.pid as number, beginLaunch());
    forgetLaunch(trace);
    await new Promise((resolve) => plain.once("exit", resolve));
    const began = performance.now();
    for (let i = 0; i < 20; i++) expect(findLeftovers(trace)).toEqual([]);
    // A fraction of a millisecond on a quiet machine; the bound only catches a look gone wrong.
    expect((performance.now() - began) / 20).toBeLessThan(100);
  });
});

describe("leftovers without /proc", () => {
  it("says the platform has no /proc and signals nothing", async () => {
    const trace = traceLaunch(process.pid, beginLaunch("/definitely/no/proc"));
    expect(trace.proc).toBeUndefined();
    expect(findLeftovers(trace)).toEqual([]);
    expect(await sweepLeftovers(trace, 100)).toEqual({ scan: "unavailable", found: [] });
  });
});
