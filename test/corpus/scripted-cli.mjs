#!/usr/bin/env node
// A good agent CLI written unlike the reference, for the kit's truthfulness corpus.
//
// - No model by default: it answers from its own logic ("You said: ..."). Given
//   SCRIPTED_CLI_OPENAI_BASE (+ SCRIPTED_CLI_OPENAI_KEY) it asks an OpenAI-compatible
//   endpoint instead, WITHOUT streaming, and prints the reply as one complete assistant
//   message (no content_block deltas).
// - Attachments it cannot read become a visible note in its own output, naming them
//   ("the image/png attachment was received but cannot be read here"); unknown block
//   types are noted the same way. With a model, the note is also sent as text.
// - Lines that are not user messages get an error result (invalid_input).
// - system/init comes with the first answered turn; history is kept per session id in
//   $HOME/.scripted-cli/ so --resume restores it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { randomUUID } from "node:crypto";

const argv = process.argv.slice(2);
const option = (name) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const model = option("--model") ?? "scripted";
const resumeId = option("--resume");
const base = process.env.SCRIPTED_CLI_OPENAI_BASE;
const key = process.env.SCRIPTED_CLI_OPENAI_KEY ?? "";
const timeoutMs = Number(process.env.SCRIPTED_CLI_TIMEOUT_MS ?? 10000);
const stateDir = join(process.env.HOME ?? ".", ".scripted-cli");

const sessionId = resumeId ?? `scripted-${randomUUID()}`;
let history = [];
if (resumeId !== undefined) {
  try {
    history = JSON.parse(readFileSync(join(stateDir, `${resumeId}.json`), "utf8"));
  } catch {
    history = [];
  }
}

let announced = false;
let stopping = false;
let busy = Promise.resolve();
let current = null;

function print(event) {
  process.stdout.write(`${JSON.stringify({ ...event, session_id: sessionId })}\n`);
}

function announce() {
  if (announced) return;
  announced = true;
  print({ type: "system", subtype: "init", model, tools: [] });
}

function describeBlocks(content) {
  const texts = [];
  const notes = [];
  for (const block of content) {
    if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
    else if (block?.type === "image" || block?.type === "document") {
      const media = block.source?.media_type ?? "unknown";
      notes.push(`the ${media} ${block.type} attachment was received but cannot be read here`);
    } else notes.push(`a block of type ${String(block?.type)} is not supported and was left out`);
  }
  return { text: texts.join("\n"), notes };
}

function askModel(messages) {
  return new Promise((resolve, reject) => {
    const url = new URL(`${base.replace(/\/$/, "")}/chat/completions`);
    const body = JSON.stringify({ model, messages, stream: false });
    const request = http.request(url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "content-length": Buffer.byteLength(body) } }, (response) => {
      const chunks = [];
      response.on("data", (c) => chunks.push(c));
      response.on("end", () => {
        if (response.statusCode !== 200) return reject(new Error(`model_http_${response.statusCode}`));
        try {
          const reply = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          resolve(String(reply.choices?.[0]?.message?.content ?? ""));
        } catch {
          reject(new Error("model_reply_unreadable"));
        }
      });
      response.on("error", () => reject(new Error("model_connection_lost")));
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error("model_timeout")));
    request.on("error", (error) => reject(new Error(/^model_/.test(error.message) ? error.message : "model_unreachable")));
    current = request;
    request.end(body);
  });
}

async function answer(content) {
  announce();
  const { text, notes } = describeBlocks(typeof content === "string" ? [{ type: "text", text: content }] : content);
  const note = notes.length > 0 ? `(${notes.join("; ")})\n` : "";
  let reply;
  if (base === undefined) {
    reply = text === "" ? "Nothing to answer." : `You said: ${text.replace(/\[\[[^\]]*\]\]/g, "").trim()}`;
  } else {
    const prompt = [text, ...notes.map((n) => `[${n}]`)].filter((p) => p !== "").join("\n");
    try {
      reply = await askModel([...history, { role: "user", content: prompt }]);
    } catch (error) {
      if (stopping) return;
      print({ type: "result", subtype: "error", is_error: true, result: error.message });
      return;
    }
    history.push({ role: "user", content: prompt }, { role: "assistant", content: reply });
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, `${sessionId}.json`), JSON.stringify(history));
  }
  if (stopping) return;
  const shown = `${note}${reply}`;
  print({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: shown }] } });
  print({ type: "result", subtype: "success", is_error: false, result: shown, usage: { input_tokens: 0, output_tokens: 0 } });
}

function stop() {
  stopping = true;
  current?.destroy();
  process.exit(0);
}

process.on("SIGTERM", stop);

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  if (value?.type === "shutdown") return stop();
  const content = value?.type === "user" ? value.message?.content : undefined;
  busy = busy.then(() => {
    if (typeof content === "string" || Array.isArray(content)) return answer(content);
    print({ type: "result", subtype: "error", is_error: true, result: "invalid_input" });
  });
});
lines.on("close", () => {
  busy.then(() => process.exit(0));
});
