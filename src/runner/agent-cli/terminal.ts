import type { StdoutLine } from "./session.js";

/** A result, or a raw message_stop: what ends a turn for the Desktop. */
export function isTerminalLine(line: StdoutLine): boolean {
  const json = line.json as { type?: unknown } | undefined;
  return json !== null && typeof json === "object" && !Array.isArray(json) && (json.type === "result" || json.type === "message_stop");
}
