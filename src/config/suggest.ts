/** "did you mean" for a mistyped name in a configuration file: core/nearest.ts, with case and - _ ignored (invalid_config_file is invalidConfigFile). */
import { closest } from "../core/nearest.js";

const plain = (s: string): string => s.toLowerCase().replace(/[-_]/g, "");

/** The known name closest to `name`, when it is near enough to be a typo. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const byPlain = new Map(known.map((k) => [plain(k), k]));
  const hit = closest(plain(name), [...byPlain.keys()]);
  return hit === undefined ? undefined : byPlain.get(hit);
}

/** " (did you mean "X"?)", or nothing. */
export function didYouMean(name: string, known: readonly string[]): string {
  const meant = closestName(name, known);
  return meant === undefined ? "" : ` (did you mean ${JSON.stringify(meant)}?)`;
}
