import type { JsonPosition } from "./types.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** Strings are converted to UTF-8 (lone surrogates become U+FFFD, as TextEncoder does). */
export function toBytes(input: Uint8Array | string): Uint8Array {
  return typeof input === "string" ? encoder.encode(input) : input;
}

/**
 * Classifies the byte sequence starting at `i` (which must be < bytes.length).
 * Returns the length (1-4) of a well-formed UTF-8 character, or minus the length of the
 * maximal ill-formed subpart (Unicode "maximal subpart" practice, the same unit that
 * TextDecoder replaces with one U+FFFD). Overlongs, UTF-8-encoded surrogates, values above
 * U+10FFFF and truncated sequences are ill-formed.
 */
export function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  if (b0 < 0xc2 || b0 > 0xf4) return -1;
  const len = bytes.length;
  if (i + 1 >= len) return -1;
  const b1 = bytes[i + 1]!;
  if (b0 < 0xe0) return (b1 & 0xc0) === 0x80 ? 2 : -1;
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 === 0xe0) lo = 0xa0;
  else if (b0 === 0xed) hi = 0x9f;
  else if (b0 === 0xf0) lo = 0x90;
  else if (b0 === 0xf4) hi = 0x8f;
  if (b1 < lo || b1 > hi) return -1;
  if (i + 2 >= len || (bytes[i + 2]! & 0xc0) !== 0x80) return -2;
  if (b0 < 0xf0) return 3;
  if (i + 3 >= len || (bytes[i + 3]! & 0xc0) !== 0x80) return -3;
  return 4;
}

/** Calls `report` with the offset of the first byte of each run of ill-formed UTF-8 in [from, to). */
export function scanInvalidUtf8(bytes: Uint8Array, from: number, to: number, report: (offset: number) => void): void {
  let badEnd = -1;
  let i = from;
  while (i < to) {
    if (bytes[i]! < 0x80) {
      i++;
      continue;
    }
    const n = utf8SequenceAt(bytes, i);
    if (n > 0) {
      i += n;
    } else {
      if (i !== badEnd) report(i);
      i -= n;
      badEnd = i;
    }
  }
}

/** Short ASCII strings (keys, enum-like values) repeat a lot: reuse them instead of reallocating. */
const INTERN_MAX = 32;
const INTERN_SLOTS = 4096;
const interned: string[] = new Array<string>(INTERN_SLOTS).fill("");

function internAscii(bytes: Uint8Array, start: number, end: number): string {
  let h = 0;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + bytes[i]!) | 0;
  const slot = (h ^ (h >>> 13)) & (INTERN_SLOTS - 1);
  const cached = interned[slot]!;
  const n = end - start;
  if (cached.length === n) {
    let k = 0;
    while (k < n && cached.charCodeAt(k) === bytes[start + k]) k++;
    if (k === n) return cached;
  }
  let s = "";
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
  interned[slot] = s;
  return s;
}

/** Decodes bytes [start, end) as UTF-8, ill-formed subparts becoming U+FFFD. `ascii` must be exact. */
export function decodeRange(bytes: Uint8Array, start: number, end: number, ascii: boolean): string {
  if (ascii && end - start <= INTERN_MAX) return internAscii(bytes, start, end);
  return decoder.decode(bytes.subarray(start, end));
}

/** Builds a string from UTF-16 code units, in chunks so long escape runs cannot overflow the stack. */
export function fromCodeUnits(units: number[]): string {
  const CHUNK = 4096;
  if (units.length <= CHUNK) return String.fromCharCode(...units);
  let out = "";
  for (let i = 0; i < units.length; i += CHUNK) out += String.fromCharCode(...units.slice(i, i + CHUNK));
  return out;
}

function checkOffset(offset: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`invalid byte offset: ${offset}`);
}

/** Line/column of a byte offset. Offsets past the end are allowed (the end of input is a valid position). */
export function positionAt(input: Uint8Array | string, offset: number): JsonPosition {
  checkOffset(offset);
  const bytes = toBytes(input);
  const stop = Math.min(offset, bytes.length);
  let line = 1;
  let lastLf = -1;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < stop; i = bytes.indexOf(0x0a, i + 1)) {
    line++;
    lastLf = i;
  }
  return { offset, line, column: offset - lastLf };
}

/** Fills in line/column for many offsets in one pass. `sortedOffsets` must be ascending. */
export function positionsAt(bytes: Uint8Array, sortedOffsets: readonly number[]): JsonPosition[] {
  const out: JsonPosition[] = [];
  if (sortedOffsets.length === 0) return out;
  let line = 1;
  let lastLf = -1;
  let next = bytes.indexOf(0x0a);
  for (const offset of sortedOffsets) {
    while (next !== -1 && next < offset) {
      line++;
      lastLf = next;
      next = bytes.indexOf(0x0a, next + 1);
    }
    out.push({ offset, line, column: offset - lastLf });
  }
  return out;
}
