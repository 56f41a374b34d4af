/**
 * What execve would run for a candidate's argv[0], found once per launch target and then
 * trusted while the file stays the same (same inode, size, mode and times: one stat per
 * launch). Refuses files that are neither native executables nor #! scripts: libuv runs the
 * target with execvp, which would hand such a file to /bin/sh.
 */
import { accessSync, constants as fsConstants, closeSync, openSync, readSync, statSync, type Stats } from "node:fs";
import path from "node:path";

export interface SpawnFailure { code: string; message: string }

export type Resolution = { ok: true; path: string } | { ok: false; error: SpawnFailure };

const NOT_FOUND = { ENOENT: "not found in PATH", EACCES: "found in PATH but not executable" };

/** Resolutions by argv[0], cwd and (for bare names) PATH, with the stat they were made from. */
const resolved = new Map<string, { path: string; stamp: string }>();
const RESOLVED_KEPT = 64;

/** Drop every known resolution (a launch failed: look again). */
export function forgetResolutions(): void {
  resolved.clear();
}

const stampOf = (stats: Stats): string => `${stats.dev}:${stats.ino}:${stats.size}:${stats.mode}:${stats.mtimeMs}:${stats.ctimeMs}`;

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/** Find what execve would run; refuse non-binary, non-#! files. A known target costs one stat. */
export function resolveExecutable(file: string, env: Record<string, string>, cwd: string): Resolution {
  const key = `${file}\0${cwd}\0${file.includes("/") ? "" : (env.PATH ?? "")}`;
  const known = resolved.get(key);
  if (known !== undefined) {
    const stats = statOrNull(known.path);
    if (stats !== null && stampOf(stats) === known.stamp) return { ok: true, path: known.path };
    resolved.delete(key);
  }
  const result = resolveFresh(file, env, cwd);
  if (result.ok) {
    const stats = statOrNull(result.path);
    if (stats !== null) {
      if (resolved.size >= RESOLVED_KEPT) resolved.clear();
      resolved.set(key, { path: result.path, stamp: stampOf(stats) });
    }
  }
  return result;
}

function resolveFresh(file: string, env: Record<string, string>, cwd: string): Resolution {
  if (!statOrNull(cwd)?.isDirectory()) {
    return { ok: false, error: { code: "ENOENT", message: `cwd ${cwd}: no such directory` } };
  }
  let target = file.includes("/") ? path.resolve(cwd, file) : undefined;
  let code: keyof typeof NOT_FOUND = "ENOENT";
  for (const dir of target === undefined ? (env.PATH ?? "/bin:/usr/bin").split(":") : []) {
    const candidate = path.resolve(cwd, dir, file);
    if (!statOrNull(candidate)?.isFile()) continue;
    if (executable(candidate)) {
      target = candidate;
      break;
    }
    code = "EACCES";
  }
  if (target === undefined) return { ok: false, error: { code, message: `${file}: ${NOT_FOUND[code]}` } };
  const header = readHeader(target);
  if (header && !isRunnableHeader(header)) {
    return { ok: false, error: { code: "ENOEXEC", message: `${file}: not a native executable or #! script` } };
  }
  return { ok: true, path: target };
}

function executable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** First bytes of a regular file, or null if it cannot be read (spawn will report why). */
function readHeader(file: string): Buffer | null {
  try {
    if (!statSync(file).isFile()) return null;
    const fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    try {
      const buffer = Buffer.alloc(4);
      const bytesRead = readSync(fd, buffer, 0, 4, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

const BINARY_MAGICS = ["7f454c46", "feedface", "feedfacf", "cefaedfe", "cffaedfe", "cafebabe"];

function isRunnableHeader(header: Buffer): boolean {
  if (header.length >= 2 && header[0] === 0x23 && header[1] === 0x21) return true; // "#!"
  return header.length === 4 && BINARY_MAGICS.includes(header.toString("hex"));
}
