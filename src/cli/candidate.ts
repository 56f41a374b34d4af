import { accessSync, constants, statSync, type Stats } from "node:fs";
import { delimiter, isAbsolute, resolve } from "node:path";
import { KitError } from "../core/errors.js";

/** Where a candidate was found: the absolute file to launch, and whether PATH named it. */
export interface LocatedCandidate {
  file: string;
  /** The PATH entry's file, for a name without a slash. */
  onPath: boolean;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A name without a slash looked up as execvp(3) does: each PATH entry in order (an empty entry
 * is the working folder), the first executable regular file wins. A regular file that is not
 * executable is remembered, so the error can say why nothing was started (execvp's EACCES).
 */
function onPath(name: string, path: string, cwd: string): LocatedCandidate {
  const entries = path.split(delimiter);
  let notExecutable: string | undefined;
  for (const entry of entries) {
    const file = resolve(cwd, entry === "" ? "." : entry, name);
    const stats = statOf(file);
    if (stats === undefined || !stats.isFile()) continue;
    if (executable(file)) return { file, onPath: true };
    notExecutable ??= file;
  }
  if (notExecutable !== undefined) {
    throw new KitError("candidate_not_executable", `candidate ${name} is not executable: PATH names ${notExecutable}, which may not be run (chmod +x ${notExecutable}), and no other PATH entry holds an executable ${name}`);
  }
  const searched = entries.length === 0 || path === "" ? "PATH is empty" : `looked in the ${entries.length} PATH entries and found no executable file ${name}`;
  throw new KitError("candidate_not_found", `candidate ${name} was not found: ${searched}; give its path (./${name} for one in this folder)`);
}

/**
 * The candidate as the kit launches it: a path with a slash resolved against `cwd`, a bare
 * name looked up on PATH. It must be an executable regular file; not found, not a regular
 * file and not executable are three errors with their own codes, each exit 2.
 */
export function locateCandidate(path: string, env: Record<string, string | undefined> = process.env, cwd = process.cwd()): LocatedCandidate {
  if (path === "") throw new KitError("usage", "no candidate given: the candidate argument is empty (an unset variable?)");
  if (!path.includes("/")) return onPath(path, env.PATH ?? "", cwd);
  const file = isAbsolute(path) ? path : resolve(cwd, path);
  const stats = statOf(file);
  if (stats === undefined) throw new KitError("candidate_not_found", `candidate ${path} does not exist (looked at ${file})`);
  if (!stats.isFile()) throw new KitError("candidate_not_regular_file", `candidate ${path} is not a regular file (${stats.isDirectory() ? "a folder" : "a special file"} at ${file})`);
  if (!executable(file)) throw new KitError("candidate_not_executable", `candidate ${path} is not executable (chmod +x ${path})`);
  return { file, onPath: false };
}

/** The line that says a bare name was found on PATH, once per run. */
export function resolvedOnPathNote(name: string, file: string): string {
  return `candidate ${name} resolved on PATH to ${file}; the launch contract wants an absolute path, so that file is what is launched (give ${file} to say so yourself)`;
}

/** Resolves the candidate executable to an absolute path and checks it can be started. */
export function resolveCandidate(path: string, cwd = process.cwd()): string {
  return locateCandidate(path, process.env, cwd).file;
}
