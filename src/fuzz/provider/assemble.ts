/**
 * A valid invocation around its tool.input and tool.result: size-planned values are built in
 * the bytes the rest of the request leaves (the result at most half of them, the input the
 * rest), and the request is bound with their texts spliced in (splice.ts). A filled request
 * gets a padding string in event.native that makes it exactly `fill` bytes.
 */
import { wireJson, type JsonValue } from "../../core/json/index.js";
import type { JsonObject } from "../../core/provider/types.js";
import { buildSized, padding, sizedLabel, type Built } from "./sized.js";
import { DIGEST_PLACEHOLDER, spliceRequest } from "./splice.js";
import type { ToolValue } from "./values.js";

const utf8 = (text: string): number => Buffer.byteLength(text, "utf8");

/** What goes into the request: tool.input, tool.result, and the padding of a filled request (in event.native). */
export interface ToolParts {
  input: JsonValue;
  result: JsonValue;
  padding?: JsonValue;
}

export interface AssembledRequest {
  value: JsonObject;
  /** The request as its schema sees it: each size-planned value a string in its place (see spliceRequest). */
  shell: JsonObject;
  /** Its wire bytes. */
  bytes: Uint8Array;
  /** Labels of the two values and of the padding (undefined when nothing about them is special). */
  labels: (string | undefined)[];
}

/** A fixed value, or a size-planned one (built: its value may not be built yet, see lazy.ts). */
type Placed = { label: string | undefined; fixed: JsonValue; built?: Built };

function place(where: string, tool: ToolValue, max: number): Placed {
  if (tool.kind === "fixed") return { label: tool.value.label, fixed: tool.value.value };
  const built = buildSized(tool.plan, max);
  return { label: sizedLabel(where, tool.plan, built), fixed: null, built };
}

const bytesOf = (placed: Placed | undefined): number => (placed === undefined ? 4 : (placed.built?.bytes ?? utf8(wireJson(placed.fixed))));

/**
 * `envelope(parts)` is the unbound request around the parts; tool.before requests pass no
 * result (it stays null). `fill` (at most `maxBytes`) makes the request exactly that size.
 */
export function assembleToolRequest(envelope: (parts: ToolParts) => JsonObject, input: ToolValue, result: ToolValue | undefined, maxBytes: number, fill?: number): AssembledRequest {
  const filled = fill !== undefined && fill <= maxBytes;
  const limit = filled ? fill : maxBytes;
  // The request with both values null (and an empty padding): each value replaces a 4-byte "null".
  // Only sizes need it: a request of fixed values that is not filled is not measured.
  const measured = filled || input.kind !== "fixed" || (result !== undefined && result.kind !== "fixed");
  const base = measured ? utf8(wireJson({ ...envelope({ input: null, result: null, ...(filled ? { padding: "" } : {}) }), input_digest: DIGEST_PLACEHOLDER })) : 0;
  const room = limit - base;
  const placedResult = result === undefined ? undefined : place("tool.result", result, Math.floor(room / 2) + 4);
  const placedInput = place("tool.input", input, input.kind === "fixed" ? 0 : room + 8 - bytesOf(placedResult));
  const parts: Record<string, Built> = {};
  if (placedInput.built !== undefined) parts.input = placedInput.built;
  if (placedResult?.built !== undefined) parts.result = placedResult.built;
  const labels = [placedInput.label, placedResult?.label];
  if (filled) {
    const left = limit - (base - 8 + bytesOf(placedInput) + bytesOf(placedResult));
    if (left >= 0) {
      parts.padding = padding(left);
      labels.push(`a request of exactly ${fill} bytes (event.native padded)`);
    }
  }
  const fixed: ToolParts = { input: placedInput.fixed, result: placedResult?.fixed ?? null };
  const spliced = spliceRequest((values) => envelope({ ...fixed, ...values }), parts);
  return { value: spliced.value, shell: spliced.shell, bytes: spliced.bytes, labels };
}
