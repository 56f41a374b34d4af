/** Finding the configuration file (no YAML reader loaded: a run without one does not pay for it). */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CONFIG_NAMES } from "./types.js";

/** The configuration file of `dir` or of the nearest folder above it (up to the filesystem root), if any. */
export function findConfig(dir: string = process.cwd()): string | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    for (const name of CONFIG_NAMES) {
      const path = join(current, name);
      if (existsSync(path)) return path;
    }
    if (dirname(current) === current) return undefined;
  }
}
