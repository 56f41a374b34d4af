#!/usr/bin/env node
// agent-cli-no-stream.mjs: an agent CLI that never calls a model and never streams: it answers
// each user line with one assistant message and a success result (as Claude Code does without
// --include-partial-messages), ignores lines that are not user messages, and never writes an
// error result. Fuzzing it judges no content_block events, no error code and no model text.
import { createInterface } from "node:readline";

const session = `no-stream-${process.pid}`;
const write = (object) => process.stdout.write(`${JSON.stringify(object)}\n`);
let started = false;

createInterface({ input: process.stdin }).on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message?.type === "shutdown") process.exit(0);
  const content = message?.type === "user" ? message.message?.content : undefined;
  if (typeof content !== "string" && !Array.isArray(content)) return;
  if (!started) write({ type: "system", subtype: "init", session_id: session });
  started = true;
  write({ type: "assistant", session_id: session, message: { role: "assistant", content: [{ type: "text", text: "ok" }] } });
  write({ type: "result", subtype: "success", is_error: false, result: "ok", session_id: session, usage: { input_tokens: 1, output_tokens: 1 } });
}).on("close", () => process.exit(0));
