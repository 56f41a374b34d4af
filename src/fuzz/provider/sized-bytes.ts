/**
 * The wire and canonical texts of size-planned values (sized.ts) as UTF-8 written where they
 * are wanted: a text knows its length first and writes its bytes into a buffer the caller
 * allocated, so a value near 1 MiB goes straight into its request's bytes (splice.ts) instead
 * of into a buffer of its own that is copied there and dropped. A value is a cycle of a few
 * member texts, so its bytes are those texts encoded once and repeated natively (Buffer.fill),
 * and an object's entries, which differ only in their index digits, are copied from a template
 * per block of ten with the digits put in. Encoding a whole text instead cost more than
 * building it.
 */
const encoder = new TextEncoder();
const COMMA = 0x2c;

/** Entries of an object are copied this many at a time from a template. */
const BLOCK = 10;

/** UTF-8 text written on demand: `length` bytes, written into `out` from `at`. */
export interface Text {
  readonly length: number;
  write(out: Uint8Array, at: number): void;
}

/** The bytes of a text in a buffer of their own. */
export function bytesOf(text: Text): Uint8Array {
  const out = new Uint8Array(text.length);
  text.write(out, 0);
  return out;
}

const asBuffer = (out: Uint8Array): Buffer => (Buffer.isBuffer(out) ? out : Buffer.from(out.buffer, out.byteOffset, out.byteLength));

/** `open`, the first `n` items of the endless cycle through `texts` (comma-separated when `separated`), and `close`. */
export function cycleText(open: string, close: string, texts: readonly string[], n: number, separated: boolean): Text {
  const units = texts.map((text) => encoder.encode(separated ? `${text},` : text));
  const p = units.length;
  const whole = p === 0 ? 0 : Math.floor(n / p);
  const rest = units.slice(0, n - whole * p);
  const cycleLength = units.reduce((sum, unit) => sum + unit.length, 0);
  const head = encoder.encode(open);
  const tail = encoder.encode(close);
  // Separated, the last item's comma is where the closing text starts.
  const body = whole * cycleLength + rest.reduce((sum, unit) => sum + unit.length, 0) - (separated && n > 0 ? 1 : 0);
  const pattern = whole > 0 ? Buffer.concat(units) : undefined;
  return {
    length: head.length + body + tail.length,
    write(out, start) {
      out.set(head, start);
      let at = start + head.length;
      if (pattern !== undefined) {
        asBuffer(out).fill(pattern, at, at + whole * cycleLength);
        at += whole * cycleLength;
      }
      for (const unit of rest) {
        out.set(unit, at);
        at += unit.length;
      }
      out.set(tail, separated && n > 0 ? at - 1 : at);
    },
  };
}

interface Template {
  bytes: Uint8Array;
  /** Where the index digits before the last go, one place per entry. */
  holes: number[];
}

/**
 * The object `{key 000 ": text0, key 001 ": text1, …}` of `n` entries: `key` is the text of
 * each key up to its index digits (the opening quote included), the index is written in
 * `width` digits, and the values cycle through `texts`.
 */
export function objectText(key: string, texts: readonly string[], n: number, width: number): Text {
  const p = texts.length;
  const entry = (i: number): string => `${key}${String(i).padStart(width, "0")}":${texts[i % p] as string},`;
  if (n === 0) {
    const empty = encoder.encode("{}");
    return { length: empty.length, write: (out, at) => out.set(empty, at) };
  }
  const blocks = width < 2 ? 0 : Math.floor(n / BLOCK);
  const keyBytes = encoder.encode(key);
  const templates: Template[] = Array.from({ length: blocks > 0 ? p : 0 }, (_, start) => {
    const parts: Uint8Array[] = [];
    const holes: number[] = [];
    let length = 0;
    for (let j = 0; j < BLOCK; j++) {
      holes.push(length + keyBytes.length);
      const text = encoder.encode(`${key}${"0".repeat(width - 1)}${j}":${texts[(start + j) % p] as string},`);
      parts.push(text);
      length += text.length;
    }
    return { bytes: Buffer.concat(parts), holes };
  });
  const restStart = blocks * BLOCK;
  const rest = Array.from({ length: n - restStart }, (_, k) => encoder.encode(entry(restStart + k)));
  let total = 1; // the opening brace; the last comma becomes the closing one
  for (let b = 0; b < blocks; b++) total += (templates[(b * BLOCK) % p] as Template).bytes.length;
  for (const bytes of rest) total += bytes.length;
  return {
    length: total,
    write(out, start) {
      out[start] = 0x7b;
      let at = start + 1;
      for (let b = 0; b < blocks; b++) {
        const { bytes, holes } = templates[(b * BLOCK) % p] as Template;
        out.set(bytes, at);
        const digits = String(b).padStart(width - 1, "0");
        for (const hole of holes) for (let k = 0; k < digits.length; k++) out[at + hole + k] = digits.charCodeAt(k);
        at += bytes.length;
      }
      for (const bytes of rest) {
        out.set(bytes, at);
        at += bytes.length;
      }
      if (out[at - 1] !== COMMA) throw new Error("objectText: the entries did not end with a comma");
      out[at - 1] = 0x7d;
    },
  };
}
