import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { KitError, type KitErrorCode } from "../errors.js";
import { formatBytes, INPUT_LIMITS, type InputKind } from "./limits.js";

/** A usage error about one input file: "FILE: what is wrong". */
export function inputError(file: string, what: string, code: KitErrorCode = "usage"): KitError {
  return new KitError(code, `${file}: ${what}`);
}

/** What a path that is not a regular file is ("a directory", "a FIFO (named pipe)"...). */
export function nodeKind(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

const FS_ERRORS: Record<string, string> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ELOOP: "too many levels of symbolic links (a symlink loop?)",
  ENOTDIR: "a part of the path is not a folder",
  ENAMETOOLONG: "the path is too long",
  EISDIR: "is a directory, not a regular file",
};

/** Why a path cannot be read, in words ("no such file"). */
export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return (e.code !== undefined ? FS_ERRORS[e.code] : undefined) ?? `cannot be read (${e.code ?? e.message})`;
}

const CHUNK = 1024 * 1024;

/**
 * Reads a whole input file within its kind's size limit. Only regular files are read (a
 * symlink to one is fine): a directory, FIFO, device or socket is refused before it is
 * opened, and the open itself never waits (O_NONBLOCK), so a FIFO swapped in meanwhile
 * cannot block the kit either. A file that grows while read is cut at the limit and refused.
 */
export function readInputFile(file: string, kind: InputKind, code: KitErrorCode = "usage"): Buffer {
  const limit = INPUT_LIMITS[kind];
  const tooBig = (size: string): KitError => inputError(file, `${size}, larger than the ${limit.what} limit of ${formatBytes(limit.maxBytes)}`, code);
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (error) {
    throw inputError(file, describeFsError(error), code);
  }
  if (!stats.isFile()) throw inputError(file, `is ${nodeKind(stats)}, not a regular file`, code);
  if (stats.size > limit.maxBytes) throw tooBig(`${stats.size} bytes`);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw inputError(file, describeFsError(error), code);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw inputError(file, `is ${nodeKind(opened)}, not a regular file`, code);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, limit.maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
      total += read;
      if (total > limit.maxBytes) throw tooBig(`more than ${formatBytes(limit.maxBytes)}`);
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof KitError) throw error;
    throw inputError(file, describeFsError(error), code);
  } finally {
    closeSync(fd);
  }
}
