import { positionAt, scanInvalidUtf8 } from "../json/utf8.js";
import { inputError } from "./read.js";
import { formatBytes, INPUT_LIMITS, type InputKind } from "./limits.js";

const BOM = [0xef, 0xbb, 0xbf];

export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
}

/** The bytes without a leading UTF-8 byte order mark (editors on Windows add one; it is harmless). */
export function withoutBom(bytes: Uint8Array): Uint8Array {
  return hasBom(bytes) ? bytes.subarray(3) : bytes;
}

export function lineAt(bytes: Uint8Array, offset: number): number {
  return positionAt(bytes, offset).line;
}

/** Refuses what is not text: a NUL byte or a byte sequence that is not UTF-8, with its line. */
export function checkText(bytes: Uint8Array, file: string): void {
  const nul = bytes.indexOf(0);
  let bad = -1;
  scanInvalidUtf8(bytes, 0, nul === -1 ? bytes.length : nul, (offset) => {
    if (bad === -1) bad = offset;
  });
  if (bad !== -1) throw inputError(file, `invalid UTF-8 at byte ${bad}: binary data, not text (line ${lineAt(bytes, bad)})`);
  if (nul !== -1) throw inputError(file, `a NUL byte at byte ${nul}: binary data, not text (line ${lineAt(bytes, nul)})`);
}

/**
 * Splits text into lines at LF (a CR before it stays part of the line: JSON and the list
 * format both read it as white space), without the empty piece after a final LF, within
 * the kind's line count and line length limits. The lines are views into `bytes`.
 */
export function splitLines(bytes: Uint8Array, file: string, kind: InputKind): Uint8Array[] {
  const limit = INPUT_LIMITS[kind];
  const lines: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    const lf = bytes.indexOf(0x0a, start);
    const end = lf === -1 ? bytes.length : lf;
    if (lines.length >= limit.maxLines) throw inputError(file, `more than ${limit.maxLines} lines, the ${limit.what} limit`);
    if (end - start > limit.maxLineBytes) throw inputError(file, `a line of ${end - start} bytes, longer than the ${limit.what} limit of ${formatBytes(limit.maxLineBytes)} (line ${lines.length + 1})`);
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return lines;
}
