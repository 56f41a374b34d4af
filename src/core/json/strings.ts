import type { Parser } from "./state.js";
import { decodeRange, fromCodeUnits, utf8SequenceAt } from "./utf8.js";

const EOF_IN_STRING = "unexpected end of input inside a string";

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  const l = b | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/** Value of the 4 hex digits of the `\u` escape whose backslash is at `at`. */
function readHex4(p: Parser, at: number): number {
  const bytes = p.bytes;
  let v = 0;
  for (let k = at + 2; k < at + 6; k++) {
    if (k >= p.len) p.fail(p.len, EOF_IN_STRING);
    const h = hexValue(bytes[k]!);
    if (h < 0) p.fail(at, "invalid \\u escape: expected 4 hexadecimal digits");
    v = (v << 4) | h;
  }
  return v;
}

/** 1 for bytes that can appear raw in a string and need no attention: printable ASCII but '"' and '\\'. */
const PLAIN = new Uint8Array(256);
for (let b = 0x20; b < 0x80; b++) PLAIN[b] = b === 0x22 || b === 0x5c ? 0 : 1;

/** Reads a run of consecutive escapes starting at the backslash `at`; leaves p.pos after the run. */
function readEscapes(p: Parser, at: number): string {
  const bytes = p.bytes;
  const len = p.len;
  const units: number[] = [];
  let i = at;
  while (i < len && bytes[i] === 0x5c) {
    if (i + 1 >= len) p.fail(len, EOF_IN_STRING);
    const c = bytes[i + 1]!;
    switch (c) {
      case 0x22:
      case 0x5c:
      case 0x2f:
        units.push(c);
        break;
      case 0x62:
        units.push(0x08);
        break;
      case 0x66:
        units.push(0x0c);
        break;
      case 0x6e:
        units.push(0x0a);
        break;
      case 0x72:
        units.push(0x0d);
        break;
      case 0x74:
        units.push(0x09);
        break;
      case 0x75: {
        const u = readHex4(p, i);
        units.push(u);
        if (u >= 0xd800 && u <= 0xdbff) {
          if (i + 7 < len && bytes[i + 6] === 0x5c && bytes[i + 7] === 0x75) {
            const low = readHex4(p, i + 6);
            if (low >= 0xdc00 && low <= 0xdfff) {
              units.push(low);
              i += 12;
              continue;
            }
          }
          p.report("lone-surrogate", i, `lone high surrogate \\u${u.toString(16)} (not followed by a \\u low surrogate)`);
        } else if (u >= 0xdc00 && u <= 0xdfff) {
          p.report("lone-surrogate", i, `lone low surrogate \\u${u.toString(16)}`);
        }
        i += 6;
        continue;
      }
      default:
        p.fail(i, "invalid escape sequence");
    }
    i += 2;
  }
  p.pos = i;
  return units.length === 1 ? String.fromCharCode(units[0]!) : fromCodeUnits(units);
}

/**
 * Reads the string whose opening quote is at `quote`; leaves p.pos after the closing quote.
 * Raw runs are sliced and decoded in one go; ill-formed UTF-8 is reported (once per run)
 * and decoded as U+FFFD. Issues are recorded without a path; the caller patches it.
 */
export function readString(p: Parser, quote: number): string {
  const bytes = p.bytes;
  const len = p.len;
  let i = quote + 1;
  let segStart = i;
  let ascii = true;
  let badEnd = -1; // end of the last ill-formed run: a run continues only if the next one starts there
  let out = "";
  for (;;) {
    while (i < len && PLAIN[bytes[i]!] === 1) i++;
    if (i >= len) p.fail(len, EOF_IN_STRING);
    const b = bytes[i]!;
    if (b === 0x22) break;
    if (b === 0x5c) {
      if (i > segStart) out += decodeRange(bytes, segStart, i, ascii);
      out += readEscapes(p, i);
      i = segStart = p.pos;
      ascii = true;
      continue;
    }
    if (b < 0x20) p.fail(i, "control character in string (must be escaped)");
    ascii = false;
    const n = utf8SequenceAt(bytes, i);
    if (n > 0) {
      i += n;
    } else {
      if (i !== badEnd) p.report("invalid-utf8", i, "invalid UTF-8 byte sequence in string");
      i -= n;
      badEnd = i;
    }
  }
  p.pos = i + 1;
  return i > segStart ? out + decodeRange(bytes, segStart, i, ascii) : out;
}
