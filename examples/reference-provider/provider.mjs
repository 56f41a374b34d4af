#!/usr/bin/env node
// provider.mjs: the reference aw-provider/v1alpha1 policy provider.
//
// Transport, as the host runs it: one process per method call. The host
// writes ONE JSON object to our stdin and closes it; we answer with exactly
// ONE JSON object on stdout (a trailing newline is fine) and keep any
// diagnostics on stderr. Exit status:
//   0  a structured answer, status "ok" or "error" (a block is an ok answer);
//   2  the request is not one the host could have sent (too big, bad JSON,
//      bad envelope, effect not admissible, wrong digest): nothing is printed
//      on stdout, a short reason goes to stderr;
//   1  an unexpected internal failure (a bug).
//
// The steps, each in its own module:
//   read stdin (at most 1 MiB + 1 byte)  ->  strict-json.mjs  ->  request.mjs
//   ->  digest.mjs (invoke only)  ->  policy.mjs  ->  stdout

import { canonicalJson, requestDigest } from "./digest.mjs";
import { respond } from "./policy.mjs";
import { RequestError, validateRequest } from "./request.mjs";
import { JsonSyntaxError, parseStrictJson } from "./strict-json.mjs";

const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Reads stdin to EOF, but never keeps more than `limit` bytes. */
async function readStdin(limit) {
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
function decodeRequest(bytes) {
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
    if (requestDigest(request) !== request.input_digest) {
      throw new RequestError("input_digest does not match the request");
    }
  }
  return request;
}

async function main() {
  process.stdout.on("error", (error) => {
    process.stderr.write(`reference-provider: cannot write stdout: ${error.message}\n`);
    process.exitCode = 1;
  });
  let request;
  try {
    request = decodeRequest(await readStdin(MAX_MESSAGE_BYTES + 1));
  } catch (error) {
    if (!(error instanceof RequestError || error instanceof JsonSyntaxError)) throw error;
    process.stderr.write(`reference-provider: rejected request: ${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  const answer = respond(request);
  let response = JSON.stringify(answer);
  // Responses obey the same 1 MiB limit (a redaction can make text longer).
  if (Buffer.byteLength(response, "utf8") > MAX_MESSAGE_BYTES) {
    const { api_version, request_id } = answer;
    response = JSON.stringify({ api_version, request_id, status: "error", error_code: "response_too_large" });
  }
  process.stdout.write(`${response}\n`);
}

main().catch((error) => {
  process.stderr.write(`reference-provider: internal error: ${error?.stack ?? error}\n`);
  process.exitCode = 1;
});
