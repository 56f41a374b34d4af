// decode.mjs: from stdin bytes to a checked request, or a rejection.
//
// Everything the host could never have sent is refused here, before the
// policy sees it: too big, not UTF-8, a byte order mark, not strict JSON,
// a bad envelope, an effect the profile does not admit, a wrong digest.

import { canonicalJson, digestMatches } from "./digest.mjs";
import { RequestError, validateRequest } from "./request.mjs";
import { JsonSyntaxError, parseStrictJson } from "./strict-json.mjs";

export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Reads stdin to EOF, but never keeps more than `limit` bytes. */
export async function readStdin(limit) {
  const chunks = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const kept = chunk.subarray(0, limit - total);
    chunks.push(kept);
    total += kept.length;
    if (total >= limit) break; // enough to know the request is too big; stop reading
  }
  return Buffer.concat(chunks, total);
}

/** Turns raw bytes into a checked request, or throws RequestError/JsonSyntaxError. */
export function decodeRequest(bytes) {
  if (bytes.length > MAX_MESSAGE_BYTES) throw new RequestError("request exceeds 1 MiB");
  // TextDecoder would silently drop a byte order mark; the host rejects it.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new RequestError("request starts with a byte order mark");
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new RequestError("request is not valid UTF-8");
  }
  const request = parseStrictJson(text);
  validateRequest(request);
  if (request.method === "invoke") {
    // The host re-encodes an invoke request to hash it, and refuses one whose
    // compact form passes 1 MiB (e.g. thousands of "1e15" become "1000000000000000.0").
    if (Buffer.byteLength(canonicalJson(request), "utf8") > MAX_MESSAGE_BYTES) {
      throw new RequestError("re-encoded request exceeds 1 MiB");
    }
    // Either serde_json float format (see digest.mjs) is a match.
    if (!digestMatches(request)) {
      throw new RequestError("input_digest does not match the request");
    }
  }
  return request;
}
