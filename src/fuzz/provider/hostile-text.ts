import fc from "fast-check";
import { wireJson } from "../../core/json/index.js";
import type { JsonObject } from "../../core/provider/types.js";
import type { ProviderCase } from "../types.js";
import { concatBytes, encoder, hostileFromBytes, hostileFromValue, isObject, objectAt, rebased, updateAt } from "./case.js";

/** Hostile cases built from text or bytes: duplicate keys, trailing documents, malformed JSON, bad digests. */

type Bases = fc.Arbitrary<ProviderCase>;

/** Compact text of `object` with `member` added first or last in the object at `path`. */
export function withMember(object: JsonObject, path: readonly string[], member: string, last: boolean): string {
  if (path.length === 0) {
    const wire = wireJson(object);
    return last ? `${wire.slice(0, -1)},${member}}` : `{${member},${wire.slice(1)}`;
  }
  const [head, ...rest] = path as [string, ...string[]];
  const members = Object.entries(object).map(([key, value]) =>
    `${JSON.stringify(key)}:${key === head && isObject(value) ? withMember(value, rest, member, last) : wireJson(value)}`,
  );
  return `{${members.join(",")}}`;
}

/** A key spelled with one character as a \u escape ("request\u005fid"). */
function escapedKey(key: string, at: number): string {
  const chars = [...key];
  const index = at % chars.length;
  const code = (chars[index] as string).codePointAt(0) as number;
  chars[index] = `\\u${code.toString(16).padStart(4, "0")}`;
  return `"${chars.join("")}"`;
}

const DUPLICATE_PLACES: readonly (readonly string[])[] = [[], ["event"], ["event", "tool"], ["event", "agent"]];

export function duplicateKeysArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  return fc
    .record({ base: bases, place: fc.nat({ max: DUPLICATE_PLACES.length - 1 }), key: fc.nat(), escaped: fc.boolean(), at: fc.nat(), last: fc.boolean() })
    .map(({ base, place, key, escaped, at, last }) => {
      const request = rebased(base);
      const path = DUPLICATE_PLACES[place] as readonly string[];
      const target = objectAt(request, path);
      const keys = Object.keys(target);
      const name = keys[key % keys.length] as string;
      const spelled = escaped ? escapedKey(name, at) : JSON.stringify(name);
      const text = withMember(request, path, `${spelled}:${wireJson(target[name] ?? null)}`, last);
      const where = path.length === 0 ? "top-level" : path.join(".");
      const label = `${where} key ${JSON.stringify(name)} repeated ${last ? "last" : "first"}${escaped ? ` as ${spelled}` : ""}`;
      return hostileFromBytes("duplicate-keys", label, base, request, encoder.encode(text));
    });
}

export function trailingDocumentArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  return fc
    .record({ base: bases, separator: fc.constantFrom("\n", "", " ", "\r\n"), second: fc.constantFrom("{}", "copy", "null", "[]", "0") })
    .map(({ base, separator, second }) => {
      const request = rebased(base);
      const wire = wireJson(request);
      const label = `a second document ${second === "copy" ? "(a copy of the request)" : second} after the request, separated by ${JSON.stringify(separator)}`;
      return hostileFromBytes("trailing-document", label, base, request, encoder.encode(`${wire}${separator}${second === "copy" ? wire : second}`));
    });
}

const INVALID_UTF8: readonly { bytes: number[]; name: string }[] = [
  { bytes: [0xff], name: "byte FF" },
  { bytes: [0xfe], name: "byte FE" },
  { bytes: [0x80], name: "a lone continuation byte 80" },
  { bytes: [0xc0, 0xaf], name: "an overlong encoding C0 AF" },
  { bytes: [0xed, 0xa0, 0x80], name: "an encoded surrogate ED A0 80" },
  { bytes: [0xf4, 0x90, 0x80, 0x80], name: "a code point above U+10FFFF" },
  { bytes: [0xe2, 0x82], name: "a truncated sequence E2 82" },
];
const MARK = "AWPFUZZMARK";
const NOTE_KEY = "awp_fuzz_note";

/** The wire text of `request` split where raw text goes into a string: start of request_id or a native note. */
function splitInString(request: JsonObject, inNative: boolean): [string, string] {
  if (!inNative) {
    const wire = wireJson(request);
    const at = wire.indexOf('"request_id":"') + '"request_id":"'.length;
    return [wire.slice(0, at), wire.slice(at)];
  }
  const marked = wireJson(updateAt(request, ["event", "native"], (native) => ({ ...native, [NOTE_KEY]: MARK })));
  const at = marked.indexOf(`"${NOTE_KEY}":"${MARK}"`) + NOTE_KEY.length + 4;
  return [marked.slice(0, at), marked.slice(at + MARK.length)];
}

const MALFORMED_VARIANTS = ["cut", "invalid-utf8", "bom", "empty", "whitespace", "lone-surrogate"] as const;

export function malformedJsonArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  return fc
    .record({
      base: bases,
      variant: fc.constantFrom(...MALFORMED_VARIANTS),
      cut: fc.nat(),
      bad: fc.nat({ max: INVALID_UTF8.length - 1 }),
      inNative: fc.boolean(),
      surrogate: fc.constantFrom("\\ud800", "\\udfff", "\\udbff\\u0041"),
    })
    .map(({ base, variant, cut, bad, inNative, surrogate }) => {
      const request = rebased(base);
      const wire = encoder.encode(wireJson(request));
      const place = inNative ? "a string in event.native" : "request_id";
      const make = (label: string, bytes: Uint8Array): ProviderCase => hostileFromBytes("malformed-json", label, base, request, bytes);
      switch (variant) {
        case "cut": {
          const at = 1 + (cut % (wire.length - 1));
          return make(`the request cut off after ${at} of ${wire.length} bytes`, wire.slice(0, at));
        }
        case "invalid-utf8": {
          const { bytes, name } = INVALID_UTF8[bad] as { bytes: number[]; name: string };
          const [before, after] = splitInString(request, inNative);
          return make(`${name} inside ${place}`, concatBytes(encoder.encode(before), new Uint8Array(bytes), encoder.encode(after)));
        }
        case "bom":
          return make("a request starting with a UTF-8 byte order mark", concatBytes(new Uint8Array([0xef, 0xbb, 0xbf]), wire));
        case "empty":
          return make("an empty stdin", new Uint8Array());
        case "whitespace":
          return make("a stdin holding only a newline", encoder.encode("\n"));
        case "lone-surrogate": {
          const [before, after] = splitInString(request, inNative);
          return make(`an escaped lone surrogate ${surrogate} in ${place}`, encoder.encode(`${before}${surrogate}${after}`));
        }
      }
    });
}

const MALFORMED_DIGESTS: readonly { name: string; alter: (hex: string, at: number) => string }[] = [
  { name: "in upper case", alter: (hex) => (hex.toUpperCase() === hex ? `SHA256:${hex}` : `sha256:${hex.toUpperCase()}`) },
  { name: "without the sha256: prefix", alter: (hex) => hex },
  { name: "with 63 hex digits", alter: (hex, at) => `sha256:${hex.slice(0, at % 64)}${hex.slice((at % 64) + 1)}` },
  { name: "with 65 hex digits", alter: (hex, at) => `sha256:${hex.slice(0, at % 64)}0${hex.slice(at % 64)}` },
  { name: "with a non-hex digit", alter: (hex, at) => `sha256:${hex.slice(0, at % 64)}g${hex.slice((at % 64) + 1)}` },
  { name: "with the prefix sha-256:", alter: (hex) => `sha-256:${hex}` },
  { name: "empty", alter: () => "" },
];

export function malformedDigestArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  return fc
    .record({ base: bases, variant: fc.nat({ max: MALFORMED_DIGESTS.length - 1 }), at: fc.nat({ max: 63 }) })
    .map(({ base, variant, at }) => {
      const request = rebased(base);
      const { name, alter } = MALFORMED_DIGESTS[variant] as (typeof MALFORMED_DIGESTS)[number];
      const hex = String(request.input_digest).slice("sha256:".length);
      return hostileFromValue("malformed-digest", `input_digest ${name}`, base, { ...request, input_digest: alter(hex, at) });
    });
}

export function mismatchedDigestArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  return fc.record({ base: bases, at: fc.nat({ max: 63 }), by: fc.integer({ min: 1, max: 15 }) }).map(({ base, at, by }) => {
    const request = rebased(base);
    const hex = String(request.input_digest).slice("sha256:".length);
    const digit = ((parseInt(hex[at] as string, 16) + by) % 16).toString(16);
    const digest = `sha256:${hex.slice(0, at)}${digit}${hex.slice(at + 1)}`;
    return hostileFromValue("mismatched-digest", `input_digest with hex digit ${at + 1} changed to ${digit}`, base, { ...request, input_digest: digest });
  });
}
