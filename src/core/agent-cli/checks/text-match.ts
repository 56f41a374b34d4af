/**
 * Does the model's text reach the user intact? Every piece the model returned must appear
 * in the shown text whole, unaltered, in order and once; the CLI may add text of its own
 * around and between the pieces (a fallback note, a tool summary).
 */
import { show } from "./helpers.js";

export interface TextMismatch {
  /** 0-based index of the model piece that is not shown intact. */
  piece: number;
  message: string;
}

/** Characters of a piece used to find where the CLI started showing it. */
const ANCHOR = 32;
const EXCERPT = 40;
/** Occurrences of a prefix compared in full, at most (bounds the work on repetitive text). */
const MAX_TRIES = 1000;

function occurrences(text: string, piece: string): number {
  let count = 0;
  for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + piece.length)) count++;
  return count;
}

function commonPrefix(a: string, from: number, b: string): number {
  let i = 0;
  while (from + i < a.length && i < b.length && a[from + i] === b[i]) i++;
  return i;
}

function label(index: number, count: number): string {
  return count === 1 ? "the model's reply" : `model reply ${index + 1} of ${count}`;
}

/** Where the CLI most likely started showing a piece: the occurrence of its longest findable prefix that matches longest. */
function bestStart(text: string, from: number, piece: string): { at: number; same: number } | undefined {
  for (let k = Math.min(ANCHOR, piece.length); k >= 1; k = Math.floor(k / 2)) {
    const prefix = piece.slice(0, k);
    let best: { at: number; same: number } | undefined;
    for (let at = text.indexOf(prefix, from), tries = 0; at >= 0 && tries < MAX_TRIES; at = text.indexOf(prefix, at + 1), tries++) {
      const same = commonPrefix(text, at, piece);
      if (best === undefined || same > best.same) best = { at, same };
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

/** Explains where a piece that is not shown whole from `from` on goes wrong. */
function difference(text: string, from: number, piece: string, name: string): string {
  const start = bestStart(text, from, piece);
  if (start === undefined || (start.same < Math.min(ANCHOR, piece.length) && text.indexOf(piece, 0) >= 0)) {
    const anywhere = text.indexOf(piece);
    return anywhere >= 0
      ? `${name} appears only before text that comes earlier in the model's order (reordered): it is at character ${anywhere}`
      : `the start of ${name} (${show(piece.slice(0, EXCERPT))}) never appears`;
  }
  const seen = text.slice(start.at + start.same, start.at + start.same + EXCERPT);
  return `${name} is shown from character ${start.at} but only its first ${start.same} of ${piece.length} characters match; then ${seen === "" ? "the text ends" : show(seen)} instead of ${show(piece.slice(start.same, start.same + EXCERPT))}`;
}

/** A piece counts as shown, even if damaged, when at least this much of its start is (or all of a shorter piece). */
const SHOWN_PREFIX = 16;

function partlyShown(text: string, from: number, piece: string): boolean {
  const start = bestStart(text, from, piece);
  return start !== undefined && start.same >= Math.min(SHOWN_PREFIX, piece.length);
}

/**
 * Checks that the model's `pieces` reach `text` intact: every piece the CLI shows at all is
 * shown whole, in the model's order, and no piece more often than the model sent it. A CLI
 * may discard a whole reply (a retry, an internal request, a prefetch it threw away), but
 * not all of them. Returns the first problem, or undefined.
 */
export function findPiecesInOrder(text: string, pieces: readonly string[]): TextMismatch | undefined {
  const wanted = pieces.filter((p) => p !== "");
  const matched: { piece: string; at: number }[] = [];
  let cursor = 0;
  for (const [index, piece] of wanted.entries()) {
    const name = label(index, wanted.length);
    const at = text.indexOf(piece, cursor);
    if (at >= 0) {
      matched.push({ piece, at });
      cursor = at + piece.length;
      continue;
    }
    if (partlyShown(text, cursor, piece)) return { piece: index, message: difference(text, cursor, piece, name) };
    const earlier = text.indexOf(piece);
    // The same text the model already sent once (a repeated request) is not a second piece to show.
    const repeat = matched.some((m) => m.piece === piece && m.at === earlier);
    if (earlier >= 0 && !repeat) return { piece: index, message: `${name} appears only before text that comes earlier in the model's order (reordered): it is at character ${earlier}` };
  }
  if (matched.length === 0 && wanted.length > 0) {
    const last = wanted.length - 1;
    return { piece: last, message: difference(text, 0, wanted[last] as string, label(last, wanted.length)) };
  }
  for (const [index, piece] of wanted.entries()) {
    const sent = wanted.filter((p) => p === piece).length;
    const shown = occurrences(text, piece);
    if (shown > sent) return { piece: index, message: `${label(index, wanted.length)} is shown ${shown} times, the model sent it ${sent === 1 ? "once" : `${sent} times`} (duplicated)` };
  }
  return undefined;
}
