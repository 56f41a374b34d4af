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
//   decode.mjs: read stdin (at most 1 MiB + 1 byte) -> strict-json.mjs
//   -> request.mjs -> digest.mjs (invoke only);  then policy.mjs -> stdout

import { decodeRequest, MAX_MESSAGE_BYTES, readStdin } from "./decode.mjs";
import { respond } from "./policy.mjs";
import { RequestError } from "./request.mjs";
import { JsonSyntaxError } from "./strict-json.mjs";

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
