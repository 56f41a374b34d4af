/**
 * Clause id patterns, shared by --clause, --skip and expected-failure files.
 * `*` matches within one path segment, `**` across segments; a pattern without
 * wildcards matches the id itself and every id below it (`provider/transport`).
 *
 * Patterns come from files that travel in pull requests, so matching must not depend on
 * a backtracking regex (eight `*` against a 60-character id took minutes): a wildcard
 * pattern is matched by one pass over its tokens, O(pattern length × id length).
 */
import { KitError } from "../errors.js";
import { closest } from "../nearest.js";

/** A compiled pattern; a RegExp has the same shape, so both can be given to matchesAny. */
export interface ClausePattern {
  readonly source: string;
  test(id: string): boolean;
}

/** -1: `*` (within a segment), -2: `**` (across segments), otherwise a char code. */
type Token = number;
const STAR = -1;
const GLOBSTAR = -2;
const SLASH = 0x2f;

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "*") tokens.push(pattern.charCodeAt(i));
    else if (pattern[i + 1] === "*") {
      tokens.push(GLOBSTAR);
      i++;
    } else tokens.push(STAR);
  }
  return tokens;
}

/**
 * The set of id positions (0..n) reached so far, one bit a position in 32-bit words, advanced
 * token by token: a literal shifts and masks, `*` fills forward through runs of non-slash
 * characters (one carry-propagating addition), `**` fills everything from the first reached
 * position. Cost: O(tokens × n / 32).
 */
interface IdBits {
  words: number;
  /** Bit j+1 set where id[j] is not a slash (the positions a `*` can move to). */
  enter: Uint32Array;
  /** Per character code: bit j+1 set where id[j] is that character (the positions a literal can move to). */
  masks: Map<number, Uint32Array>;
}

/** The same few ids are matched against every pattern: their bit tables are kept (a bounded cache). */
const tables = new Map<string, IdBits>();
const TABLE_CACHE = 4096;
const MAX_CACHED_CHARS = 512;

function bitsOf(id: string): IdBits {
  const known = tables.get(id);
  if (known !== undefined) return known;
  const n = id.length;
  const words = (n >>> 5) + 1;
  const enter = new Uint32Array(words);
  const masks = new Map<number, Uint32Array>();
  for (let j = 0; j < n; j++) {
    const code = id.charCodeAt(j);
    const bit = 1 << ((j + 1) & 31);
    const w = (j + 1) >>> 5;
    if (code !== SLASH) enter[w]! |= bit;
    let mask = masks.get(code);
    if (mask === undefined) masks.set(code, (mask = new Uint32Array(words)));
    mask[w]! |= bit;
  }
  const bits = { words, enter, masks };
  // Long texts (policy-test text patterns) are matched once: only ids are worth keeping.
  if (n > MAX_CACHED_CHARS) return bits;
  if (tables.size >= TABLE_CACHE) tables.clear();
  tables.set(id, bits);
  return bits;
}

function matchTokens(tokens: readonly Token[], id: string): boolean {
  const n = id.length;
  const { words, enter, masks } = bitsOf(id);
  let reach = new Uint32Array(words);
  let next = new Uint32Array(words);
  reach[0] = 1;
  for (const token of tokens) {
    let any = 0;
    if (token === GLOBSTAR) {
      const first = reach.findIndex((w) => w !== 0);
      if (first === -1) return false;
      const low = 31 - Math.clz32(reach[first]! & -reach[first]!);
      next.fill(0);
      for (let w = first; w < words; w++) next[w] = 0xffffffff;
      next[first] = (0xffffffff << low) >>> 0;
      const last = n & 31;
      next[words - 1]! &= last === 31 ? 0xffffffff : (1 << (last + 1)) - 1;
      any = 1;
    } else {
      const mask = token === STAR ? enter : masks.get(token);
      if (mask === undefined) return false;
      let shiftCarry = 0;
      let addCarry = 0;
      for (let w = 0; w < words; w++) {
        const v = reach[w]!;
        const moved = (((v << 1) | shiftCarry) & mask[w]!) >>> 0;
        shiftCarry = v >>> 31;
        if (token !== STAR) {
          next[w] = moved;
        } else {
          // Adding the seeds to the run mask carries through the rest of each run.
          const sum = mask[w]! + moved + addCarry;
          addCarry = sum > 0xffffffff ? 1 : 0;
          next[w] = (v | (((sum >>> 0) ^ mask[w]!) & mask[w]!) | moved) >>> 0;
        }
        any |= next[w]!;
      }
    }
    if (any === 0) return false;
    [reach, next] = [next, reach];
  }
  return (reach[n >>> 5]! & (1 << (n & 31))) !== 0;
}

export function compilePattern(pattern: string): ClausePattern {
  const trimmed = pattern.trim().replace(/\/+$/, "");
  if (!trimmed.includes("*")) return { source: trimmed, test: (id) => id === trimmed || id.startsWith(`${trimmed}/`) };
  const tokens = tokenize(trimmed);
  return { source: trimmed, test: (id) => matchTokens(tokens, id) };
}

/**
 * A text pattern (policy-test `text`): `*` matches any run of characters, slashes included;
 * without `*` the text must equal the pattern. Nothing is trimmed. Linear-time like the clause patterns.
 */
export function compileTextPattern(pattern: string): ClausePattern {
  if (!pattern.includes("*")) return { source: pattern, test: (text) => text === pattern };
  const tokens = tokenize(pattern).map((token) => (token === STAR ? GLOBSTAR : token));
  return { source: pattern, test: (text) => matchTokens(tokens, text) };
}

export function matchesAny(id: string, patterns: readonly ClausePattern[]): boolean {
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

/** The --clause and --skip patterns that match none of `ids`, each with its flag ("--clause nosuch"), in the order given. */
export function unmatchedPatterns(selection: Selection, ids: readonly string[]): string[] {
  const matchesNone = (pattern: string): boolean => {
    const compiled = compilePattern(pattern);
    return !ids.some((id) => compiled.test(id));
  };
  return [...selection.clause.filter(matchesNone).map((p) => `--clause ${p}`), ...selection.skip.filter(matchesNone).map((p) => `--skip ${p}`)];
}

/**
 * A usage error (exit 2) when a --clause or --skip pattern matches no clause of `ids`: a typo
 * would otherwise judge nothing (--clause) or judge a clause the user meant to leave out (--skip).
 * `of` names the catalogue ("the provider catalogue"), `listing` the commands that list its ids.
 */
export function checkSelection(selection: Selection, ids: readonly string[], of: string, listing: readonly string[]): void {
  const unmatched = unmatchedPatterns(selection, ids);
  if (unmatched.length === 0) return;
  // A typo gets the nearest clause id, or the nearest area (an id's leading segments).
  const near = [...new Set(ids.flatMap((id) => id.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"))))];
  const hints = unmatched.flatMap((flagged) => {
    const best = closest(flagged.slice(flagged.indexOf(" ") + 1), near, 6);
    return best === undefined ? [] : [unmatched.length === 1 ? best : `${best} for ${flagged}`];
  });
  const hint = hints.length === 0 ? "" : ` (did you mean ${hints.join(", ")}?)`;
  const commands = listing.map((command) => `\`${command}\``);
  const lists = commands.length === 1 ? `${commands[0]} lists` : `${commands.join(" and ")} list`;
  throw new KitError("usage", `${unmatched.join(", ")} ${unmatched.length === 1 ? "matches" : "match"} no clause of ${of}${hint}: ${lists} the clause ids`);
}
