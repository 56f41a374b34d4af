import { KitError } from "../../core/errors.js";
import { wireJson } from "../../core/json/index.js";
import type { JsonObject } from "../../core/provider/types.js";
import { encoder, withTool } from "./case.js";
import { padding } from "./sized.js";
import { DIGEST_PLACEHOLDER, spliceRequest } from "./splice.js";

/**
 * The request with tool.input replaced by {"padding": "xxx…"} so that its wire form is exactly
 * `size` bytes, bound with the input_digest computeInputDigest would give. The multi-megabyte
 * padding is a size-planned value put in by spliceRequest, so it is never serialized or parsed
 * whole.
 */
export function paddedRequest(request: JsonObject, size: number): { value: JsonObject; bytes: Uint8Array } {
  const { input_digest: _previous, ...unbound } = request;
  const around = (pad: string): JsonObject => withTool(unbound, (tool) => ({ ...tool, input: { padding: pad } }));
  // The bytes around the padding's "x"s, the digest and the padding's quotes included: the request with an empty padding.
  const fixed = encoder.encode(wireJson({ ...around(""), input_digest: DIGEST_PLACEHOLDER })).length;
  const length = size - fixed;
  if (length < 0) throw new KitError("kit_bug", `cannot pad a request of ${fixed} bytes to ${size} bytes`);
  const { value, bytes } = spliceRequest((values) => around(values.padding as string), { padding: padding(length) });
  return { value, bytes };
}
