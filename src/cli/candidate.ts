import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { KitError } from "../core/errors.js";

/** Resolves the candidate executable to an absolute path and checks it can be started. */
export function resolveCandidate(path: string, cwd = process.cwd()): string {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  let isFile: boolean;
  try {
    isFile = statSync(absolute).isFile();
  } catch {
    throw new KitError("candidate_not_found", `candidate ${path} does not exist (looked at ${absolute})`);
  }
  if (!isFile) throw new KitError("candidate_not_found", `candidate ${path} is not a regular file`);
  try {
    accessSync(absolute, constants.X_OK);
  } catch {
    throw new KitError("candidate_not_found", `candidate ${path} is not executable (chmod +x ${path})`);
  }
  return absolute;
}
