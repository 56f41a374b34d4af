/**
 * What only the native path has: its framing, many calls at once in one process that never waits
 * on one child, its bounded memory, its end when the kit lets it go (or disappears), the build
 * into the cache, and the choice between the paths (--spawner).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { KitError } from "../../../src/core/errors.js";
import { binaryPath, buildSpawner, findCompiler, sourceBytes } from "../../../src/runner/native/build.js";
import { MAX_IN_FLIGHT, NativeSpawner } from "../../../src/runner/native/client.js";
import { CALL_KIND, FrameReader, decodeResult, encodeCall } from "../../../src/runner/native/frames.js";
import { chooseSpawner, closeSpawner, nativeCall } from "../../../src/runner/native/select.js";
import { isDead, taggedProcesses } from "../dead.js";
import { NATIVE_SKIP } from "./paths.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/processes/", import.meta.url));
const NODE = process.execPath;
const MiB = 1024 * 1024;
const TAG = "awp-test-leftover";

const tagged = (): number[] => taggedProcesses(TAG);

const scratch = mkdtempSync(path.join(tmpdir(), "native-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the framing", () => {
  it("cuts frames out of chunks split anywhere, and reads a result as the spawner writes it", () => {
    const body = Buffer.alloc(200);
    let at = 0;
    const u32 = (v: number): void => {
      at = body.writeUInt32LE(v, at);
    };
    for (const v of [0, 0xffff_ffff, 15, 1 | 8 | 16 | 32, 32]) u32(v);
    at = body.writeDoubleLE(12.5, at);
    for (const v of [5n, 0n, 11n, 12n, 13n]) at = body.writeBigUInt64LE(v, at);
    u32(0);
    u32(1);
    u32(4242);
    body[at++] = 3;
    body[at++] = 2;
    body[at++] = 0;
    u32(5);
    at += body.write("sleep", at);
    u32(4);
    at += body.write("a\0b\0", at);
    u32(5);
    at += body.write("hello", at);
    u32(0);
    const head = Buffer.alloc(16);
    head.writeUInt32LE(CALL_KIND, 0);
    head.writeUInt32LE(7, 4);
    head.writeBigUInt64LE(BigInt(at), 8);
    const stream = Buffer.concat([head, body.subarray(0, at), head, body.subarray(0, at)]);
    const seen: { kind: number; id: number; body: Buffer }[] = [];
    const reader = new FrameReader((kind, id, b) => seen.push({ kind, id, body: Buffer.from(b) }));
    for (let i = 0; i < stream.length; i += 7) reader.push(stream.subarray(i, i + 7));
    expect(seen.map((f) => [f.kind, f.id])).toEqual([[CALL_KIND, 7], [CALL_KIND, 7]]);
    const result = decodeResult(7, (seen[0] as { body: Buffer }).body);
    expect(result).toMatchObject({ exitCode: null, signal: 15, timedOut: true, killedByKit: true, procScan: true, stdinFinished: true, stdinErrno: 32, durationMs: 12.5, stdoutBytes: 5, inodes: [11, 12, 13] });
    expect(result.leftovers).toEqual([{ pid: 4242, foundBy: 3, holds: 2, ended: 0, comm: "sleep", cmdline: Buffer.from("a\0b\0") }]);
    expect(result.stdout.toString()).toBe("hello");
  });

  it("sends the request's bytes as they are, after a header that counts them", () => {
    const stdin = Buffer.from("x".repeat(1000));
    const parts = encodeCall({ id: 3, timeoutMs: 1, killGraceMs: 2, stdoutCap: 3, stderrCap: 4, killOnStdoutCap: true, replaceEnv: false, path: "/bin/true", cwd: "/", marker: "1-ab", argv: ["true"], env: ["A=1"], stdin });
    expect(parts[1]?.buffer).toBe(stdin.buffer);
    const head = parts[0] as Buffer;
    expect(Number(head.readBigUInt64LE(8))).toBe(head.length - 16 + stdin.length);
    expect(Number(head.readBigUInt64LE(head.length - 8))).toBe(stdin.length);
  });
});

describe.skipIf(NATIVE_SKIP !== undefined)(`the spawner process${NATIVE_SKIP !== undefined ? ` (skipped: ${NATIVE_SKIP})` : ""}`, () => {
  const built = buildSpawner();
  const binary = built.ok ? built.path : "";
  const spawners: NativeSpawner[] = [];
  const start = (): NativeSpawner => {
    const spawner = NativeSpawner.start(binary);
    spawners.push(spawner);
    return spawner;
  };
  afterEach(() => {
    for (const spawner of spawners.splice(0)) spawner.close();
  });

  it("runs many calls at once and never waits on one child", async () => {
    const spawner = start();
    const began = performance.now();
    const slow = spawner.run({ argv: [NODE, path.join(FIXTURES, "hang.mjs")], timeoutMs: 4000, killGraceMs: 100, stdoutCap: 100, stderrCap: 100 });
    const quick = await Promise.all(Array.from({ length: 16 }, (_, n) => spawner.run({ argv: ["/bin/sh", "-c", `echo ${n}`], timeoutMs: 4000, stdoutCap: 100, stderrCap: 100 })));
    const quickMs = performance.now() - began;
    expect(quick.map((r) => r.stdout.toString())).toEqual(Array.from({ length: 16 }, (_, n) => `${n}\n`));
    expect(quickMs).toBeLessThan(3500);
    expect(await slow).toMatchObject({ timedOut: true, killedByKit: true, signal: "SIGTERM" });
  });

  it("holds back calls past the 256 it runs at once, and answers every one", async () => {
    const spawner = start();
    const count = 256 + 40;
    expect(MAX_IN_FLIGHT).toBe(256);
    // Each stays long enough that, sent all at once, more than 256 would be running together.
    const results = await Promise.all(Array.from({ length: count }, (_, n) => spawner.run({ argv: ["/bin/sh", "-c", `sleep 0.3; echo ${n}`], timeoutMs: 60_000, stdoutCap: 100, stderrCap: 100 })));
    expect(results.map((r) => r.stdout.toString())).toEqual(Array.from({ length: count }, (_, n) => `${n}\n`));
  });

  it("keeps to a call's deadline while the kit does not read its results", async () => {
    // The spawner by hand: a call whose 1 MiB answer fills the pipe back, then one that hangs past its 300 ms.
    const child = spawn(binary, [String(process.pid)], { stdio: ["pipe", "pipe", "inherit"] });
    const call = (id: number, argv: string[], timeoutMs: number): Buffer[] =>
      encodeCall({ id, timeoutMs, killGraceMs: 100, stdoutCap: 2 * MiB, stderrCap: 100, killOnStdoutCap: true, replaceEnv: false, path: argv[0] as string, cwd: "/", marker: `${process.pid}-00000000deadbeef`, argv, env: [], stdin: new Uint8Array(0) });
    for (const part of call(1, [NODE, "-e", `process.stdout.write("x".repeat(${MiB}))`], 10_000)) child.stdin.write(part);
    for (const part of call(2, [NODE, path.join(FIXTURES, "hang.mjs")], 300)) child.stdin.write(part);
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const results = new Map<number, ReturnType<typeof decodeResult>>();
    const reader = new FrameReader((_kind, id, body) => results.set(id, decodeResult(id, body)));
    child.stdout.on("data", (chunk: Buffer) => reader.push(chunk));
    child.stdout.resume();
    for (const end = Date.now() + 10_000; results.size < 2 && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
    child.stdin.end();
    expect(results.get(1)?.stdout.length).toBe(MiB);
    expect(results.get(2)).toMatchObject({ timedOut: true, killedByKit: true });
    expect(results.get(2)?.durationMs).toBeLessThan(1500);
  });

  it("keeps a 200 MiB line to its cap, ends the writer, and stays small itself", async () => {
    const spawner = start();
    const writer = `process.stdout.write(Buffer.alloc(${200 * MiB}, 0x61))`;
    const result = await spawner.call([NODE, "-e", writer], new Uint8Array(0), { timeoutMs: 20_000, killGraceMs: 500 });
    expect(result.outcome).toMatchObject({ stdoutCapped: true, killedByKit: true, timedOut: false });
    expect(result.stdout.length).toBe(MiB + 1);
    const peakKiB = Number(/VmHWM:\s*(\d+)/.exec(readFileSync(`/proc/${String(spawner.pid)}/status`, "utf8"))?.[1]);
    expect(peakKiB).toBeLessThan(16 * 1024);
  });

  it("ends every process it started, and what escaped them, when the kit lets it go", async () => {
    const spawner = start();
    const hanging = spawner.run({ argv: [NODE, path.join(FIXTURES, "leave-daemon.mjs"), "close-all", "hang"], timeoutMs: 30_000, stdoutCap: 4096, stderrCap: 4096 });
    hanging.catch(() => undefined);
    const pid = spawner.pid as number;
    let daemons: number[] = [];
    for (let tries = 0; daemons.length === 0 && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      daemons = tagged();
    }
    // The candidate (the spawner's child, still running) and the daemon it left in a session of its own.
    const leaders = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").map(Number);
    expect(daemons).toHaveLength(1);
    expect(leaders).toHaveLength(1);
    daemons.push(...leaders);
    spawner.close();
    await expect(hanging).rejects.toThrow(/native spawner ended/);
    const deadline = Date.now() + 2000;
    while (!daemons.every(isDead) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(daemons.every(isDead)).toBe(true);
  });

  it("is built once into a cache named by kit version, platform and source hash", () => {
    const target = binaryPath(sourceBytes());
    expect(binary).toBe(target);
    expect(path.basename(path.dirname(target))).toMatch(new RegExp(`-${process.platform}-${process.arch}-[0-9a-f]{16}$`));
    const before = statSync(target).mtimeMs;
    // A cached binary needs no compiler.
    expect(buildSpawner({ ...process.env, PATH: scratch })).toEqual({ ok: true, path: target });
    expect(statSync(target).mtimeMs).toBe(before);
  });
});

describe("building without a compiler, and choosing the path", () => {
  afterEach(() => {
    closeSpawner();
    vi.restoreAllMocks();
  });

  it("says there is no cc when none is on PATH and none was built before, and notes it for the next run", () => {
    const cache = mkdtempSync(path.join(scratch, "cache-"));
    const env = { ...process.env, PATH: scratch, XDG_CACHE_HOME: cache };
    expect(buildSpawner(env)).toEqual({ ok: false, reason: "no C compiler (cc) on PATH to build it" });
    expect(buildSpawner(env)).toEqual({ ok: false, reason: "no C compiler (cc) on PATH to build it", noted: true });
    const target = binaryPath(sourceBytes(), env);
    expect(existsSync(target)).toBe(false);
    // A compiler that appears is tried.
    if (NATIVE_SKIP === undefined && findCompiler() !== undefined) expect(buildSpawner({ ...env, PATH: process.env.PATH ?? "" })).toEqual({ ok: true, path: target });
  });

  it.skipIf(NATIVE_SKIP !== undefined || findCompiler() === undefined)("keeps one build per kit version: a new one removes those of other sources, not other versions'", () => {
    const cache = mkdtempSync(path.join(scratch, "cache-"));
    const env = { ...process.env, XDG_CACHE_HOME: cache };
    const target = binaryPath(sourceBytes(), env);
    const root = path.dirname(path.dirname(target));
    const mine = path.basename(path.dirname(target));
    const stale = path.join(root, mine.replace(/[0-9a-f]{16}$/, "0123456789abcdef"));
    const otherVersion = path.join(root, `0.0.0-${mine.split("-").slice(1).join("-")}`);
    for (const dir of [stale, otherVersion]) mkdirSync(dir, { recursive: true });
    expect(buildSpawner(env)).toEqual({ ok: true, path: target });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(otherVersion)).toBe(true);
  });

  it("says a failed build once, and tries again when the compiler changes", () => {
    const cache = mkdtempSync(path.join(scratch, "cache-"));
    const bin = mkdtempSync(path.join(scratch, "bin-"));
    writeFileSync(path.join(bin, "cc"), "#!/bin/sh\necho 'cc: broken here' >&2\nexit 1\n", { mode: 0o755 });
    const env = { ...process.env, PATH: bin, XDG_CACHE_HOME: cache };
    const first = buildSpawner(env);
    expect(first).toEqual({ ok: false, reason: `${path.join(bin, "cc")} failed (exit 1): cc: broken here` });
    expect(buildSpawner(env)).toEqual({ ...first, noted: true });
    utimesSync(path.join(bin, "cc"), new Date(), new Date(Date.now() + 5000));
    expect(buildSpawner(env)).toEqual(first);
  });

  it("auto falls back to the Node launchers and says so once", () => {
    const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    chooseSpawner("auto", () => ({ ok: false, reason: "no C compiler (cc) on PATH to build it" }));
    expect(nativeCall()).toBeUndefined();
    expect(nativeCall()).toBeUndefined();
    expect(said.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^awp-conformance: the native spawner cannot be used \(no C compiler \(cc\) on PATH to build it\); provider calls go through the Node launchers/)]);
  });

  it("native without a spawner is a usage error that says why", async () => {
    chooseSpawner("native", () => ({ ok: false, reason: "no C compiler (cc) on PATH to build it" }));
    const call = nativeCall();
    expect(call).toBeDefined();
    const error = await (call as NonNullable<typeof call>)(["x"], new Uint8Array(0), { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe("usage");
    expect((error as KitError).message).toMatch(/--spawner native: .*no C compiler/);
  });

  it("off Linux, auto takes the Node launchers without a word, and native says why not", () => {
    const platform = Object.getOwnPropertyDescriptor(process, "platform") as PropertyDescriptor;
    Object.defineProperty(process, "platform", { value: "darwin" });
    try {
      expect(buildSpawner()).toEqual({ ok: false, reason: "the native spawner runs on Linux only (this is darwin)", noted: true });
      const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      chooseSpawner("auto");
      expect(nativeCall()).toBeUndefined();
      expect(said).not.toHaveBeenCalled();
    } finally {
      Object.defineProperty(process, "platform", platform);
    }
  });

  it("node never builds", () => {
    const builder = vi.fn(() => ({ ok: false as const, reason: "x" }));
    chooseSpawner("node", builder);
    expect(nativeCall()).toBeUndefined();
    expect(builder).not.toHaveBeenCalled();
  });
});
