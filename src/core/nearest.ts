/** "Did you mean": the names nearest to a mistyped one, by edit distance. Pure. */

/** Levenshtein distance: the fewest one-character insertions, deletions and substitutions from a to b. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length] as number;
}

/** The `count` names nearest to `name`. */
export function nearest(name: string, names: readonly string[], count = 3): string[] {
  return [...names].sort((x, y) => editDistance(name, x) - editDistance(name, y) || x.localeCompare(y)).slice(0, count);
}

/**
 * The one name close enough to `name` to be what was meant, or undefined when none is: at
 * most 2 edits away, or a `share`-th of the longer name's length (a third by default; long
 * paths that share their start need a smaller share, or every typo finds a sibling).
 */
export function closest(name: string, names: readonly string[], share = 3): string | undefined {
  const best = nearest(name, names, 1)[0];
  if (best === undefined) return undefined;
  const allowed = Math.max(2, Math.floor(Math.max(name.length, best.length) / share));
  return editDistance(name, best) <= allowed ? best : undefined;
}

/** " (did you mean X?)", or "" when no name is close. */
export function didYouMean(name: string, names: readonly string[], show: (n: string) => string = (n) => n): string {
  const best = closest(name, names);
  return best === undefined ? "" : ` (did you mean ${show(best)}?)`;
}
