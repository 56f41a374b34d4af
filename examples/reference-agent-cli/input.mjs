// input.mjs: one stdin line -> what to do with it.
//
// The Desktop writes one UTF-8 JSON line per user send:
//
//   {"type":"user","message":{"role":"user","content":[ ...content blocks... ]}}
//
// and, on Windows where there are no signals, `{"type":"shutdown"}` to ask for
// a graceful exit. Every other line is a mistake that must be answered (with
// exactly one error result) rather than ignored, so the sender's turn ends.
//
// classifyLine() returns one of
//   { kind: "blank" }                     ignore the line
//   { kind: "shutdown" }                  exit 0 at once
//   { kind: "turn", content: [parts] }    run a model turn with these parts
//   { kind: "error", code }               answer with one error result

import { TurnError } from "./codes.mjs";
import { toContentParts } from "./content.mjs";

export function classifyLine(line) {
  if (line.trim() === "") return { kind: "blank" };

  let value;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: "error", code: "invalid_input_json" };
  }
  // Arrays, strings and null are JSON but not messages.
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { kind: "error", code: "invalid_input_message" };
  }
  if (value.type === "shutdown") return { kind: "shutdown" };
  if (value.type !== "user") return { kind: "error", code: "invalid_input_message" };

  const message = value.message;
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    return { kind: "error", code: "invalid_input_message" };
  }
  // The role is implied by "type":"user"; if present it must agree.
  if (message.role !== undefined && message.role !== "user") {
    return { kind: "error", code: "invalid_input_message" };
  }

  try {
    const content = toContentParts(message.content);
    return { kind: "turn", content };
  } catch (error) {
    if (error instanceof TurnError) return { kind: "error", code: error.code };
    throw error;
  }
}
