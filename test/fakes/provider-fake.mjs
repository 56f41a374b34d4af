#!/usr/bin/env node
// provider-fake.mjs --fault NAME: the reference provider with exactly one fault.
//
// Each fault breaks one clause of suites/provider/ (test/integration/provider-fakes
// lists which). Everything else is the reference's behaviour, imported from
// examples/reference-provider, so a fault shows up alone.

import { decodeRequest, MAX_MESSAGE_BYTES, readStdin } from "../../examples/reference-provider/decode.mjs";
import { requestDigest } from "../../examples/reference-provider/digest.mjs";
import { respond } from "../../examples/reference-provider/policy.mjs";
import { RequestError } from "../../examples/reference-provider/request.mjs";
import { JsonSyntaxError } from "../../examples/reference-provider/strict-json.mjs";
import { outputFaults, processFault } from "./provider-fake-faults.mjs";
import { leaveDaemon } from "./leftover-daemon.mjs";

const fault = process.argv.includes("--fault") ? process.argv[process.argv.indexOf("--fault") + 1] : undefined;

// Robustness faults: the rejection the reference would make, and how the fake parses instead.
const firstDocument = (text) => JSON.parse(text.slice(0, text.lastIndexOf("\n")));
const LENIENT = {
  "accept-duplicate-keys": [/duplicate key/, JSON.parse],
  "accept-malformed-json": [/byte order mark|not valid UTF-8/, (text) => JSON.parse(text.replace(/^\uFEFF/, ""))],
  "accept-out-of-bounds": [/1\.\.1024 characters|budget_ms must be|session_id: 1\.\.512/, JSON.parse],
  "accept-trailing-document": [/trailing data/, firstDocument],
  "accept-oversized": [/exceeds 1 MiB/, JSON.parse],
  "accept-deep": [/nesting deeper/, JSON.parse],
  "accept-big-integers": [/outside i64/, JSON.parse],
  "accept-unknown-fields": [/unknown field/, JSON.parse],
  "accept-any-api-version": [/api_version must/, JSON.parse],
  "accept-unknown-method": [/method must be/, (text) => ({ ...JSON.parse(text), method: "describe" })],
  // A missing or non-object config read as the empty policy.
  "accept-bad-config": [/config must be an object|lacks "config"/, (text) => ({ ...JSON.parse(text), config: { blocked_tools: [] } })],
  "accept-malformed-config-revision": [/config_revision must be/, JSON.parse],
  "accept-bad-request-id": [/request_id must be/, JSON.parse],
  "accept-bad-allowed-effects": [/allowed_effects must|unknown effect/, JSON.parse],
  // Any other event name taken for tool.before.
  "accept-bad-event-name": [/event\.name must be/, (text) => { const r = JSON.parse(text); return { ...r, event: { ...r.event, name: "tool.before" } }; }],
  "accept-malformed-digest": [/input_digest must be/, JSON.parse],
  "accept-mismatched-digest": [/does not match the request/, JSON.parse],
  "accept-result-before-tool": [/must have result: null/, JSON.parse],
};

function decode(bytes) {
  try {
    const request = decodeRequest(bytes);
    // A Provider built on serde_json 1.0.147+ only: it verifies the digest in the zmij dialect alone.
    if (fault === "zmij-only" && request.method === "invoke" && requestDigest(request, "zmij") !== request.input_digest) {
      throw new RequestError("invocation binding mismatch (zmij dialect only)");
    }
    return request;
  } catch (error) {
    if (!(error instanceof RequestError || error instanceof JsonSyntaxError)) throw error;
    const lenient = LENIENT[fault];
    if (lenient !== undefined && lenient[0].test(error.message)) return lenient[1](bytes.toString("utf8"));
    processFault(fault, "rejected", error.message);
    throw error;
  }
}

async function main() {
  leaveDaemon(fault);
  const limit = fault === "accept-oversized" ? 4 * MAX_MESSAGE_BYTES : MAX_MESSAGE_BYTES + 1;
  let request;
  let bytes;
  try {
    bytes = await readStdin(limit);
    request = decode(bytes);
  } catch (error) {
    process.stderr.write(`provider-fake: rejected request: ${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  const { text, exitCode, after } = outputFaults(fault, request, respond, bytes);
  process.stdout.write(text);
  if (exitCode !== undefined) process.exitCode = exitCode;
  if (after !== undefined) await after();
}

main().catch((error) => {
  process.stderr.write(`provider-fake: internal error: ${error?.stack ?? error}\n`);
  process.exitCode = 1;
});
