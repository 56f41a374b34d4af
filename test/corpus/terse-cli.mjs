#!/usr/bin/env node
// Another good agent CLI in a style of its own, for the kit's truthfulness corpus:
// Anthropic Messages without streaming, complete `assistant` messages only, NO
// system/init event (it is only recommended), slow on purpose (TERSE_CLI_DELAY_MS before
// every answer), one read-only tool (`list_files`, the names in its working folder).
// Images and PDFs are passed to the model as Anthropic blocks; any other block type
// ends the turn with an error result. Expected verdict: conformant, with the SHOULD
// clause agent-cli/session/init-event failing and nothing else.
import { readdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { randomBytes } from "node:crypto";

const args = process.argv.slice(2);
const valueOf = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const env = process.env;
const endpoint = `${(env.TERSE_CLI_ANTHROPIC_URL ?? "http://127.0.0.1:9").replace(/\/$/, "")}/v1/messages`;
const delay = Number(env.TERSE_CLI_DELAY_MS ?? 400);
const patience = Number(env.TERSE_CLI_TIMEOUT_MS ?? 5000);
const session = valueOf("--resume") ?? `terse.${randomBytes(8).toString("hex")}`;
const tools = [{ name: "list_files", description: "Names of the files in the working folder.", input_schema: { type: "object", properties: {}, additionalProperties: false } }];

const emit = (event) => process.stdout.write(`${JSON.stringify({ ...event, session_id: session })}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fail = (code) => emit({ type: "result", subtype: "error", is_error: true, result: code });
const history = [];
let inFlight;

async function call(messages) {
  inFlight = new AbortController();
  const timer = setTimeout(() => inFlight.abort(), patience);
  try {
    const response = await fetch(endpoint, {
      method: "POST",
      signal: inFlight.signal,
      headers: { "content-type": "application/json", "x-api-key": env.TERSE_CLI_KEY ?? "", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: valueOf("--model"), max_tokens: 1024, messages, tools }),
    });
    if (!response.ok) throw new Error(`upstream_status_${response.status}`);
    return await response.json();
  } catch (error) {
    throw new Error(error.message.startsWith("upstream_") ? error.message : inFlight.signal.aborted ? "upstream_timeout" : "upstream_unreachable");
  } finally {
    clearTimeout(timer);
  }
}

function toAnthropic(block) {
  if (block.type === "text") return { type: "text", text: String(block.text) };
  if (block.type === "image" || block.type === "document") return { type: block.type, source: block.source };
  return undefined;
}

async function turn(content) {
  const blocks = (typeof content === "string" ? [{ type: "text", text: content }] : content).map(toAnthropic);
  if (blocks.includes(undefined)) return fail("unsupported_block_type");
  await sleep(delay);
  const messages = [...history, { role: "user", content: blocks }];
  let shown = "";
  for (let round = 0; round < 3; round++) {
    let reply;
    try {
      reply = await call(messages);
    } catch (error) {
      return fail(error.message);
    }
    const content = Array.isArray(reply.content) ? reply.content : [];
    emit({ type: "assistant", message: { role: "assistant", content } });
    shown += content.filter((b) => b.type === "text").map((b) => b.text).join("");
    messages.push({ role: "assistant", content });
    const uses = content.filter((b) => b.type === "tool_use");
    if (uses.length === 0) break;
    messages.push({ role: "user", content: uses.map((u) => ({ type: "tool_result", tool_use_id: u.id, content: u.name === "list_files" ? readdirSync(".").join("\n") : "unknown tool" })) });
  }
  history.splice(0, history.length, ...messages);
  emit({ type: "result", subtype: "success", is_error: false, result: shown });
}

let queue = Promise.resolve();
const input = createInterface({ input: process.stdin });
input.on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return; // not JSON: ignored, as the Desktop ignores what it cannot parse
  }
  if (message?.type === "shutdown") process.exit(0);
  if (message?.type !== "user" || message.message === undefined) return;
  queue = queue.then(() => turn(message.message.content));
});
input.on("close", () => queue.then(() => process.exit(0)));
process.on("SIGTERM", () => {
  inFlight?.abort();
  process.exit(143);
});
