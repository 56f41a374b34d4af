/**
 * Clause id patterns, shared by --clause, --skip and expected-failure files.
 * `*` matches within one path segment, `**` across segments; a pattern without
 * wildcards matches the id itself and every id below it (`provider/transport`).
 */
export function compilePattern(pattern: string): RegExp {
  const trimmed = pattern.trim().replace(/\/+$/, "");
  let source = "";
  for (let i = 0; i < trimmed.length; i++) {
    const char = trimmed[i] as string;
    if (char === "*") {
      if (trimmed[i + 1] === "*") {
        source += ".*";
        i++;
      } else {
        source += "[^/]*";
      }
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
    }
  }
  const hasWildcard = trimmed.includes("*");
  return new RegExp(hasWildcard ? `^${source}$` : `^${source}(?:/.*)?$`);
}

export function matchesAny(id: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((pattern) => pattern.test(id));
}

export interface Selection {
  clause: string[];
  skip: string[];
}

/** A predicate: selected by --clause (all when none given) and not removed by --skip. */
export function makeSelector(selection: Selection): (id: string) => boolean {
  const include = selection.clause.map(compilePattern);
  const exclude = selection.skip.map(compilePattern);
  return (id) => (include.length === 0 || matchesAny(id, include)) && !matchesAny(id, exclude);
}
