/** "did you mean" for a mistyped name: the closest known name within a few edits, if any. */

/** Edit distance (insertions, deletions, substitutions, and swaps of two neighbours). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i]!;
      const above = rows[i - 1]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known name closest to `name` (case and - _ ignored), when it is near enough to be a typo. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const plain = (s: string): string => s.toLowerCase().replace(/[-_]/g, "");
  const wanted = plain(name);
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(wanted, plain(candidate));
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  if (best === undefined) return undefined;
  return best.distance <= Math.max(1, Math.min(3, Math.floor(wanted.length / 3))) ? best.name : undefined;
}

/** " (did you mean X?)", or nothing. */
export function didYouMean(name: string, known: readonly string[]): string {
  const closest = closestName(name, known);
  return closest === undefined ? "" : ` (did you mean ${JSON.stringify(closest)}?)`;
}
