/**
 * Big requests reach a launcher through a file in a private directory on /dev/shm (tmpfs: memory,
 * not disk) instead of through the IPC channel: the kit writes the bytes once, the launcher reads
 * them when it gets to the call and deletes the file. Through the channel a megabyte request was
 * copied into the serializer, written while the launcher was busy spawning, read back in 64 KiB
 * pieces and copied out again. Measured against the tiny compiled provider, `fuzz --jobs 2`
 * (requests of 128 KiB and more spooled, about 3% of them and 60% of the bytes): 540 against 510
 * calls/s, ten interleaved pairs, every pair faster; the kit spent 0.09 ms of CPU less per call
 * and the launchers 0.05 less. The candidate still gets its request on a stdin pipe the launcher
 * writes, as before.
 *
 * The directory is the kit process's own (mode 0700, the kit's pid in its name). The kit removes
 * it when its launchers go and when it exits; a launcher whose kit is gone removes it too. A
 * directory left when both were killed at once is removed by the next kit run, once its kit is
 * gone and it has not changed for an hour. Off Linux, or where /dev/shm cannot be written,
 * requests go through the channel.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Requests of at least this many bytes are spooled. */
export const SPOOL_MIN_BYTES = 128 * 1024;
const SHM = "/dev/shm";
const PREFIX = "awp-conformance-spool-";
/** A spool directory's name, with the pid of the kit it is of. */
const SPOOL_NAME = new RegExp(`^${PREFIX}(\\d+)-`);
/** A spool directory of a kit that is gone is removed once it has not changed for this long. */
const STALE_MS = 60 * 60 * 1000;

/** undefined: not made yet; null: no spool in this process (requests go through the channel). */
let dir: string | null | undefined;
let written = 0;
let removedAtExit = false;
/** A write failed: this process's later requests go through the channel (its directory is still removed as ever). */
let failed = false;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the spool directories under `root` of kit processes that are gone, unchanged for an hour. */
export function sweepSpools(root: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(SPOOL_NAME.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    try {
      if (now - statSync(join(root, name)).mtimeMs > STALE_MS) rmSync(join(root, name), { recursive: true, force: true });
    } catch {
      // Not ours to remove, or gone already.
    }
  }
}

/** This process's spool directory, made on first use. */
export function spoolDir(): string | null {
  if (dir !== undefined) return dir;
  dir = null;
  if (process.platform !== "linux") return dir;
  try {
    sweepSpools(SHM, Date.now());
    dir = mkdtempSync(join(SHM, `${PREFIX}${process.pid}-`));
    if (!removedAtExit) process.once("exit", () => removeSpool());
    removedAtExit = true;
  } catch {
    dir = null;
  }
  return dir;
}

/** Writes a big request to the spool: its path, or undefined when it is to go through the channel. */
export function spoolRequest(request: Uint8Array): string | undefined {
  if (request.length < SPOOL_MIN_BYTES || failed) return undefined;
  const at = spoolDir();
  if (at === null) return undefined;
  const path = join(at, String(written++));
  try {
    writeFileSync(path, request, { mode: 0o600, flag: "wx" });
    return path;
  } catch {
    // Full, or the directory is gone: this request, and those after it, go through the channel.
    // The directory stays known, so closeLauncher and the exit still remove it and what launchers have not read yet.
    rmSync(path, { force: true });
    failed = true;
    return undefined;
  }
}

/** In the launcher: a spooled request's bytes; the file is deleted. */
export function takeSpooled(path: string): Buffer {
  try {
    return readFileSync(path);
  } finally {
    rmSync(path, { force: true });
  }
}

/** The directory a spooled request's file is in (a launcher removes it when its kit is gone). */
export const spoolOf = (path: string): string => dirname(path);

/** Removes a spool directory and what is left in it (default: this process's own, which a later big request makes again). */
export function removeSpool(at: string | null | undefined = dir): void {
  if (at === null || at === undefined) return;
  rmSync(at, { recursive: true, force: true });
  if (at === dir) dir = undefined;
}
