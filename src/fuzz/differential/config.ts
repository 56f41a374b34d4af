/**
 * The other provider's configuration (`--against-config-json/-file`): the cases are generated
 * with the candidate's, and each is moved to the other's before it is sent there: config and
 * config_revision replaced, the input_digest bound again. Well-formed requests are rebuilt; in
 * a hostile request the configuration's wire text, the revision and the digests the generator
 * computed are swapped in the bytes, so its defect stays a defect (bytes that do not carry the
 * configuration as the kit writes it go unchanged; sizes move by the difference in length).
 */
import { wireJson } from "../../core/json/index.js";
import { computeInputDigest, configRevision } from "../../core/provider/digest.js";
import { bind } from "../../core/provider/requests.js";
import type { JsonObject } from "../../core/provider/types.js";
import { encoder, rebased } from "../provider/case.js";
import type { ProviderCase } from "../types.js";

/** From the candidate's configuration to the other's. */
export interface ConfigSwap {
  from: { value: JsonObject; revision: string };
  to: { value: JsonObject; revision: string };
}

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("latin1");
const fromLatin1 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "latin1"));
/** UTF-8 text as the latin1 string of its bytes, so it can be found in bytes read as latin1. */
const asLatin1 = (text: string): string => Buffer.from(text, "utf8").toString("latin1");

function swapAll(bytes: Uint8Array, pairs: readonly [string, string][]): Uint8Array {
  let text = latin1(bytes);
  for (const [from, to] of pairs) if (from !== to && from !== "") text = text.split(asLatin1(from)).join(asLatin1(to));
  return fromLatin1(text);
}

/** The request value moved to the other configuration; bound again when it was bound over itself. */
function movedValue(value: JsonObject, swap: ConfigSwap): JsonObject {
  const moved: JsonObject = { ...value, config: swap.to.value };
  if (value.method !== "invoke") return moved;
  moved.config_revision = swap.to.revision;
  return value.input_digest === computeInputDigest(value) ? bind(moved) : moved;
}

/** The case as the other provider gets it (unchanged when the configurations are the same document). */
export function withConfig(c: ProviderCase, swap: ConfigSwap | undefined): ProviderCase {
  if (swap === undefined || c.method === "describe") return c;
  if (c.kind === "valid") {
    if (c.value === undefined) return c;
    const value = movedValue(c.value, swap);
    return { ...c, value, bytes: encoder.encode(wireJson(value)) };
  }
  const base = c.base !== undefined ? withConfig(c.base, swap) : undefined;
  const pairs: [string, string][] = [
    // With their keys, so generated text that happens to hold the same characters stays as it is.
    [`"config":${wireJson(swap.from.value)}`, `"config":${wireJson(swap.to.value)}`],
    [`"config_revision":"${swap.from.revision}"`, `"config_revision":"${swap.to.revision}"`],
  ];
  if (c.base?.value !== undefined && base?.value !== undefined) pairs.push([String(rebased(c.base).input_digest), String(rebased(base).input_digest)]);
  const value = c.value !== undefined ? movedValue(c.value, swap) : undefined;
  if (c.value !== undefined && value !== undefined) pairs.push([String(c.value.input_digest), String(value.input_digest)]);
  return { ...c, bytes: swapAll(c.bytes, pairs), ...(value !== undefined ? { value } : {}), ...(base !== undefined ? { base } : {}) };
}

/** The swap from one configuration to another, or undefined when the other side has none of its own (or the very same document). */
export function swapOf(mine: { value: JsonObject; document: string }, theirs: { value: JsonObject; document: string } | undefined): ConfigSwap | undefined {
  if (theirs === undefined || theirs.document === mine.document) return undefined;
  return { from: { value: mine.value, revision: configRevision(mine.document) }, to: { value: theirs.value, revision: configRevision(theirs.document) } };
}
