import { closeSync, constants, mkdirSync, openSync, statSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { dirname, parse, resolve, sep } from "node:path";
import { KitError } from "../core/errors.js";

/** The deepest folder `--out` may name: a bound on the walk below, far past any real path. */
const MAX_DEPTH = 256;

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  ENOTDIR: "a part of the path is not a folder",
  ENAMETOOLONG: "the path is too long",
  ELOOP: "too many levels of symbolic links (a symlink loop?)",
  // What /proc and /sys answer to a new entry: the folder takes no files of ours.
  ENOENT: "the folder refuses new entries (a virtual file system such as /proc or /sys?)",
};

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return (e.code !== undefined ? REASONS[e.code] : undefined) ?? `${e.code ?? "error"}: ${e.message}`;
}

function kind(stats: Stats): string {
  if (stats.isFile()) return "a regular file";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "not a folder";
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

const unwritable = (flag: string, given: string, why: string): KitError => new KitError("usage", `${flag} ${given}: cannot write reports there: ${why}`);

/**
 * mkdir -p, one level at a time and bounded: Node's recursive mkdir loops for ever on a
 * path under /proc (the kernel answers ENOENT to the new entry, and Node retries the parent),
 * at 100% CPU and deaf to SIGTERM, being synchronous. Here each missing level is created
 * once; any error stops the walk with the folder and the reason.
 */
function makeFolders(folder: string, flag: string, given: string): void {
  const missing: string[] = [];
  let at = folder;
  const root = parse(folder).root;
  for (;;) {
    const stats = statOf(at);
    if (stats !== undefined) {
      if (!stats.isDirectory()) throw unwritable(flag, given, `${at} is ${kind(stats)}`);
      break;
    }
    if (at === root || missing.length >= MAX_DEPTH) throw unwritable(flag, given, `${at} cannot be reached`);
    missing.unshift(at);
    at = dirname(at);
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      // Made meanwhile by someone else (a parallel shard): fine if it is a folder now.
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && statOf(level)?.isDirectory() === true) continue;
      throw unwritable(flag, given, `cannot create ${level}: ${reason(error)}`);
    }
  }
}

/**
 * Writes and removes one small file in the folder: the proof a report can land there. The
 * file is new (O_EXCL: never an existing FIFO or device) and opened without waiting.
 */
function probe(folder: string, flag: string, given: string): void {
  const file = `${folder}${folder.endsWith(sep) ? "" : sep}.awp-conformance-probe-${process.pid}`;
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NONBLOCK ?? 0), 0o600);
  } catch (error) {
    throw unwritable(flag, given, `cannot create a file in ${folder}: ${reason(error)}`);
  }
  try {
    writeSync(fd, "probe\n");
  } catch (error) {
    throw unwritable(flag, given, `cannot write a file in ${folder}: ${reason(error)}`);
  } finally {
    closeSync(fd);
    try {
      unlinkSync(file);
    } catch {
      // left behind: a dot-file of a few bytes, named by the kit's pid
    }
  }
}

/**
 * The report folder, created (with its parents) and proven writable before anything runs,
 * so an unwritable --out costs nothing: a usage error naming the folder and the reason.
 * Bounded: a fixed number of system calls, none of which can block.
 */
export function prepareOutDir(given: string, flag = "--out", cwd = process.cwd()): string {
  if (given === "") throw new KitError("usage", `${flag} is empty: give a folder (an unset variable?)`);
  const folder = resolve(cwd, given);
  makeFolders(folder, flag, given);
  probe(folder, flag, given);
  return folder;
}
