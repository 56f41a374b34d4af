import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { ProcessResult, RunProcessOptions } from "../../src/runner/process.js";
import { liveGroupIds } from "../../src/runner/process-group.js";
import { isDead } from "./dead.js";
import { legTitle, RUN_PATHS } from "./native/paths.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/processes/", import.meta.url));
const NODE = process.execPath;
const MiB = 1024 * 1024;
const scratch = mkdtempSync(path.join(tmpdir(), "runner-test-"));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function fixture(name: string, ...args: string[]): string[] {
  return [NODE, path.join(FIXTURES, name), ...args];
}

async function expectDeadSoon(pid: number): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!isDead(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(isDead(pid)).toBe(true);
}

// Every test runs on both paths: runProcess on this event loop, and the native spawner.
for (const leg of RUN_PATHS) describe.skipIf(leg.skip !== undefined)(legTitle("runProcess", leg), () => {
  const runProcess = leg.run;
  const run = (argv: readonly string[], extra: Partial<RunProcessOptions> = {}): Promise<ProcessResult> =>
    runProcess({ argv, timeoutMs: 10_000, stdoutCap: MiB, stderrCap: MiB, ...extra });

  it("echoes stdin to stdout", async () => {
    const result = await run(fixture("echo.mjs"), { stdin: Buffer.from("hello\nworld") });
    expect(result.stdout.toString()).toBe("hello\nworld");
    expect(result).toMatchObject({
      exitCode: 0, signal: null, timedOut: false, killedByKit: false,
      stdoutCapped: false, stderrCapped: false, stdoutBytes: 11, stderrBytes: 0,
    });
    expect(result.stdinError).toBeUndefined();
    expect(result.spawnError).toBeUndefined();
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it("closes stdin immediately when no input is given", async () => {
    const result = await run(fixture("echo.mjs"));
    expect(result.exitCode).toBe(0);
    expect(result.stdout.length).toBe(0);
  });

  it.each([0, 3, 255])("reports exit code %i", async (code) => {
    const result = await run(fixture("exit-code.mjs", String(code)));
    expect(result).toMatchObject({ exitCode: code, signal: null, killedByKit: false });
  });

  it.each(["SIGUSR2", "SIGKILL"])("reports death by %s", async (signal) => {
    const result = await run(fixture("self-signal.mjs", signal));
    expect(result).toMatchObject({ exitCode: null, signal, timedOut: false, killedByKit: false });
  });

  it("kills a child as soon as stdout exceeds its cap and keeps exactly cap bytes", async () => {
    const result = await run(fixture("flood-stdout.mjs"), { stdoutCap: 1000 });
    expect(result.stdoutCapped).toBe(true);
    expect(result.killedByKit).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.stdout.length).toBe(1000);
    expect(result.stdout.equals(Buffer.alloc(1000, 0x61))).toBe(true);
    expect(result.stdoutBytes).toBeGreaterThan(1000);
    expect(result.signal).toBe("SIGTERM");
    expect(result.durationMs).toBeLessThan(5000);
  });

  it("keeps draining stdout past the cap when killOnStdoutCap is false", async () => {
    const input = randomBytes(100 * 1024);
    const result = await run(fixture("echo.mjs"), { stdin: input, stdoutCap: 10, killOnStdoutCap: false });
    expect(result).toMatchObject({ exitCode: 0, killedByKit: false, stdoutCapped: true, stdoutBytes: input.length });
    expect(result.stdout.equals(input.subarray(0, 10))).toBe(true);
  });

  it("caps huge stderr but keeps draining it so the child completes", async () => {
    const result = await run(fixture("flood-stderr.mjs", "8"), { stderrCap: 1024 });
    expect(result).toMatchObject({
      exitCode: 0, signal: null, killedByKit: false, stderrCapped: true, stderrBytes: 8 * MiB,
    });
    expect(result.stderr.length).toBe(1024);
    expect(result.stdout.toString()).toBe("done\n");
  });

  it("times out a hanging child and terminates it", async () => {
    const timeoutMs = 300;
    const result = await run(fixture("hang.mjs"), { timeoutMs });
    expect(result).toMatchObject({ timedOut: true, killedByKit: true, exitCode: null, signal: "SIGTERM" });
    // Node timers may fire up to ~1 ms early relative to performance.now().
    expect(result.durationMs).toBeGreaterThanOrEqual(timeoutMs - 2);
    expect(result.durationMs).toBeLessThan(timeoutMs + 5000);
  });

  it("SIGKILLs a child that traps SIGTERM after the grace period", async () => {
    // Long enough for the child's Node to be up and trapping SIGTERM on a loaded box.
    const timeoutMs = 3000;
    const killGraceMs = 400;
    const result = await run(fixture("trap-term.mjs"), { timeoutMs, killGraceMs });
    expect(result).toMatchObject({ timedOut: true, killedByKit: true, exitCode: null, signal: "SIGKILL" });
    expect(result.stdout.toString()).toContain("got SIGTERM");
    expect(result.durationMs).toBeGreaterThanOrEqual(timeoutMs + killGraceMs - 2);
    expect(result.durationMs).toBeLessThan(timeoutMs + killGraceMs + 5000);
  });

  it.each(["detached-stdio", "hold-stdout"])("reaps a grandchild left behind (%s)", async (mode) => {
    const started = Date.now();
    const result = await run(fixture("grandchild.mjs", mode), { timeoutMs: 5000 });
    expect(result.exitCode).toBe(0);
    expect(result.timedOut).toBe(false);
    expect(Date.now() - started).toBeLessThan(4000);
    const grandchild = Number(result.stdout.toString().trim());
    expect(Number.isInteger(grandchild) && grandchild > 0).toBe(true);
    await expectDeadSoon(grandchild);
  });

  it("ends a process outside the group that holds the pipes open, and reports it", async () => {
    const started = Date.now();
    const result = await run(fixture("escape-holder.mjs"), { timeoutMs: 5000 });
    const escaped = Number(result.stdout.toString().trim());
    try {
      expect(result.exitCode).toBe(0);
      expect(result.timedOut).toBe(false);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(result.leftovers?.scan).toBe("proc");
      expect(result.leftovers?.found).toEqual([
        expect.objectContaining({ pid: escaped, foundBy: ["marker", "pipe"], ended: "SIGTERM", holds: [expect.objectContaining({ stream: "stdout" }), expect.objectContaining({ stream: "stderr" })] }),
      ]);
      await expectDeadSoon(escaped);
    } finally {
      if (Number.isInteger(escaped) && escaped > 0 && !isDead(escaped)) process.kill(escaped, "SIGKILL");
    }
  });

  it("finds no leftover when nothing escaped the group", async () => {
    const result = await run(fixture("grandchild.mjs", "hold-stdout"), { timeoutMs: 5000 });
    expect(result.leftovers).toEqual({ scan: "proc", found: [] });
  });

  it("survives a child that exits without reading a 3 MiB stdin", async () => {
    const result = await run(fixture("no-read-exit.mjs"), { stdin: randomBytes(3 * MiB) });
    expect(result).toMatchObject({ exitCode: 3, signal: null, killedByKit: false });
    expect(result.stdout.toString()).toBe("bye\n");
    expect([undefined, "EPIPE", "ECONNRESET", "ERR_STREAM_PREMATURE_CLOSE"]).toContain(result.stdinError);
  });

  it("does not deadlock writing 3 MiB of stdin while the child echoes it", async () => {
    const input = randomBytes(3 * MiB);
    const result = await run(fixture("echo.mjs"), { stdin: input, stdoutCap: 4 * MiB });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.equals(input)).toBe(true);
    expect(result.stdinError).toBeUndefined();
  });

  it("feeds a slow reader completely", async () => {
    const result = await run(fixture("slow-read.mjs"), { stdin: randomBytes(MiB) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toBe(`${MiB}\n`);
    expect(result.stdinError).toBeUndefined();
  });

  it("reports a missing executable as ENOENT", async () => {
    const result = await run([path.join(scratch, "does-not-exist")]);
    expect(result.spawnError?.code).toBe("ENOENT");
    expect(result).toMatchObject({ exitCode: null, signal: null, timedOut: false, killedByKit: false });
    expect(result.stdout.length).toBe(0);
  });

  it("reports a missing cwd as ENOENT", async () => {
    const result = await run(fixture("echo.mjs"), { cwd: path.join(scratch, "no-such-dir") });
    expect(result.spawnError?.code).toBe("ENOENT");
    expect(result.spawnError?.message).toContain("cwd");
  });

  it("reports a bare name missing from PATH as ENOENT", async () => {
    const result = await run(["no-such-command-for-runner-test"], { env: { PATH: scratch } });
    expect(result.spawnError?.code).toBe("ENOENT");
  });

  it("reports a non-executable file as EACCES", async () => {
    const file = path.join(scratch, "not-executable.sh");
    writeFileSync(file, "#!/bin/sh\necho hi\n", { mode: 0o644 });
    const result = await run([file]);
    expect(result.spawnError?.code).toBe("EACCES");
    expect(result.exitCode).toBeNull();
  });

  it("refuses an executable that is neither a binary nor a #! script (no /bin/sh fallback)", async () => {
    const marker = path.join(scratch, "marker");
    const file = path.join(scratch, "plain-text");
    writeFileSync(file, `touch '${marker}'\n`, { mode: 0o755 });
    const result = await run([file]);
    expect(result.spawnError?.code).toBe("ENOEXEC");
    expect(existsSync(marker)).toBe(false);
  });

  it("passes exactly the given environment, plus the kit's launch marker", async () => {
    const env = { FOO: "bar", EMPTY: "", SPACED: "a b $HOME" };
    const result = await run(fixture("print-env.mjs"), { env });
    const { AWP_CONFORMANCE_LAUNCH: marker, ...rest } = JSON.parse(result.stdout.toString()) as Record<string, string>;
    expect(rest).toEqual(env);
    expect(marker).toMatch(new RegExp(`^${process.pid}-[0-9a-f]{16}$`));
    const again = await run(fixture("print-env.mjs"), { env });
    expect((JSON.parse(again.stdout.toString()) as Record<string, string>).AWP_CONFORMANCE_LAUNCH).not.toBe(marker);
  });

  // The spawner, like the launcher processes, takes the kit's environment once, when it starts.
  it.skipIf(leg.name === "native")("defaults to a copy of process.env", async () => {
    process.env.RUNNER_TEST_MARKER = "present";
    try {
      const result = await run(fixture("print-env.mjs"));
      expect(JSON.parse(result.stdout.toString())).toMatchObject({ RUNNER_TEST_MARKER: "present" });
    } finally {
      delete process.env.RUNNER_TEST_MARKER;
    }
  });

  it("passes arguments verbatim, without a shell", async () => {
    const args = ["a b", '"quoted"', "'single'", "$(touch /tmp/x)", "`id`", "*", "$HOME", "a;b|c&d", "", "ünï\ncode"];
    const result = await run(fixture("print-argv.mjs", ...args));
    expect(JSON.parse(result.stdout.toString())).toEqual(args);
  });

  it("looks a bare executable name up in the child's PATH and honours cwd", async () => {
    const argv = [path.basename(NODE), "-e", "process.stdout.write(process.cwd())"];
    const result = await run(argv, { env: { PATH: path.dirname(NODE) }, cwd: scratch });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toBe(scratch);
  });

  it("rejects only for invalid options", async () => {
    await expect(runProcess({ argv: [], timeoutMs: 1000, stdoutCap: 1, stderrCap: 1 })).rejects.toThrow(TypeError);
    await expect(run(fixture("echo.mjs"), { timeoutMs: -1 })).rejects.toThrow(RangeError);
    await expect(run(fixture("echo.mjs"), { stdoutCap: 1.5 })).rejects.toThrow(RangeError);
    await expect(run([NODE, "a\0b"])).rejects.toThrow(TypeError);
  });

  it("leaves no registered process group behind", () => {
    expect(liveGroupIds()).toEqual([]);
  });
});
