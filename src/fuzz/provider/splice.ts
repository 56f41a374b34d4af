/**
 * Binding a request that holds size-planned values without serializing or parsing them whole:
 * the request is written and canonicalized with a short mark in each of their places, and the
 * values' own wire and canonical texts (sized.ts) are put in at the marks. Canonical and wire
 * JSON are compact, so a value's text sits in the request's text exactly as it would on its
 * own. The result is what bind() would give, about ten times faster near 1 MiB.
 */
import { createHash } from "node:crypto";
import { KitError } from "../../core/errors.js";
import { canonicalJson, parseJson, wireJson, type JsonValue } from "../../core/json/index.js";
import type { JsonObject } from "../../core/provider/types.js";
import type { Built } from "./sized.js";

export interface SplicedRequest {
  value: JsonObject;
  wire: string;
  digest: string;
}

/** A mark: a string no generated text contains (no cycle of six or fewer characters spells it). */
const markOf = (i: number): string => `AWPFUZZSIZEDVALUE${i}MARK`;

function replaceOnce(text: string, mark: string, by: string): string {
  const quoted = `"${mark}"`;
  const at = text.indexOf(quoted);
  if (at < 0 || text.indexOf(quoted, at + 1) >= 0) throw new KitError("kit_bug", "a sized fuzz value's mark was not found exactly once");
  return `${text.slice(0, at)}${by}${text.slice(at + quoted.length)}`;
}

/**
 * `make(values)` is the unbound request around the given values; `parts` are the sized values
 * to put in, by name. Returns the request value (with input_digest), its wire text (the digest
 * last) and the digest, in the kit's default dialect.
 */
export function spliceRequest(make: (values: Record<string, JsonValue>) => JsonObject, parts: Record<string, Built>): SplicedRequest {
  const names = Object.keys(parts);
  const marks = Object.fromEntries(names.map((name, i) => [name, markOf(i)]));
  const marked = make(marks);
  let wire = wireJson(marked);
  const parsed = parseJson(wire, { numbers: "lossless", floats: "serde_json" });
  if (parsed.value === undefined) throw new KitError("kit_bug", "a fuzz request did not parse back");
  let canon = canonicalJson(parsed.value);
  for (const name of names) {
    const part = parts[name] as Built;
    wire = replaceOnce(wire, marks[name] as string, part.wire);
    canon = replaceOnce(canon, marks[name] as string, part.canon);
  }
  const digest = `sha256:${createHash("sha256").update(canon, "utf8").digest("hex")}`;
  const value = { ...make(Object.fromEntries(names.map((name) => [name, (parts[name] as Built).value]))), input_digest: digest };
  return { value, wire: `${wire.slice(0, -1)},"input_digest":${JSON.stringify(digest)}}`, digest };
}
