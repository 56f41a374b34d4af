#!/usr/bin/env node
// A slow but correct provider: the reference's checks and policy, answering each call
// only when half of its budget has gone by since the process started (budget_ms for an
// invocation; 1000 ms for describe and validate_config, which carry none). Start-up
// time counts against the budget, as the Host measures it, so the delay is taken from
// the process's own start rather than added after it. Nothing else differs: a verdict
// other than the reference's is a timing artefact of the kit.

import { setTimeout as sleep } from "node:timers/promises";
import { decodeRequest, MAX_MESSAGE_BYTES, readStdin } from "../../examples/reference-provider/decode.mjs";
import { respond } from "../../examples/reference-provider/policy.mjs";

const SHARE = 0.5;
const DEFAULT_BUDGET_MS = 1000;

let request;
try {
  request = decodeRequest(await readStdin(MAX_MESSAGE_BYTES + 1));
} catch (error) {
  process.stderr.write(`slow-provider: rejected request: ${error.message}\n`);
  process.exit(2);
}
const budget = Number(request.budget_ms?.value ?? DEFAULT_BUDGET_MS);
const elapsed = process.uptime() * 1000;
await sleep(Math.max(0, SHARE * budget - elapsed));
process.stdout.write(`${JSON.stringify(respond(request))}\n`);
