import { createHash } from "node:crypto";
import { KitError } from "../../core/errors.js";
import { canonicalJson, parseJson, wireJson } from "../../core/json/index.js";
import type { JsonObject } from "../../core/provider/types.js";
import { concatBytes, encoder, withTool } from "./case.js";

const MARK = "AWPFUZZPADDINGMARK";
const PAD = 0x78; // "x"

function splitAtMark(text: string): [string, string] {
  const quoted = `"${MARK}"`;
  const at = text.indexOf(quoted);
  if (at < 0 || text.indexOf(quoted, at + 1) >= 0) throw new KitError("kit_bug", "padding mark not found exactly once");
  return [text.slice(0, at + 1), text.slice(at + quoted.length - 1)];
}

/**
 * The request with tool.input replaced by {"padding": "xxx…"} so that its wire form is exactly
 * `size` bytes, bound with the input_digest computeInputDigest would give. The multi-megabyte
 * padding is never parsed: the digest hashes the canonical text of the request with a short
 * mark, the mark's bytes swapped for the padding (canonical and wire forms of "xxx…" are the same).
 */
export function paddedRequest(request: JsonObject, size: number): { value: JsonObject; bytes: Uint8Array } {
  const { input_digest: _previous, ...unbound } = request;
  const marked = withTool(unbound, (tool) => ({ ...tool, input: { padding: MARK } }));
  const parsed = parseJson(wireJson(marked), { numbers: "lossless" });
  if (!parsed.ok || parsed.value === undefined) throw new KitError("kit_bug", "a fuzz base request did not parse back");
  const [canonBefore, canonAfter] = splitAtMark(canonicalJson(parsed.value));
  const placeholder = `sha256:${"0".repeat(64)}`;
  const [wireBefore, wireAfter] = splitAtMark(wireJson({ ...marked, input_digest: placeholder }));
  const fixed = encoder.encode(wireBefore).length + encoder.encode(wireAfter).length;
  const length = size - fixed;
  if (length < 0) throw new KitError("kit_bug", `cannot pad a request of ${fixed} bytes to ${size} bytes`);
  const padding = Buffer.alloc(length, PAD);
  const digest = `sha256:${createHash("sha256").update(canonBefore, "utf8").update(padding).update(canonAfter, "utf8").digest("hex")}`;
  const at = wireAfter.lastIndexOf(placeholder);
  const tail = `${wireAfter.slice(0, at)}${digest}${wireAfter.slice(at + placeholder.length)}`;
  const bytes = concatBytes(encoder.encode(wireBefore), padding, encoder.encode(tail));
  const value: JsonObject = { ...withTool(unbound, (tool) => ({ ...tool, input: { padding: "x".repeat(length) } })), input_digest: digest };
  return { value, bytes };
}
