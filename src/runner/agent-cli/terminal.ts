import type { StdoutLine } from "./session.js";
import type { ModelCall } from "../../core/agent-cli/types.js";

/** A result, or a raw message_stop: what ends a turn for the Desktop. */
export function isTerminalLine(line: StdoutLine): boolean {
  const json = line.json as { type?: unknown } | undefined;
  return json !== null && typeof json === "object" && !Array.isArray(json) && (json.type === "result" || json.type === "message_stop");
}

/**
 * All a process did looks like a refused start: one error result on stdout, nothing else, and
 * no model request since it was launched (`launchedAt` on the fixture's performance.now()
 * clock). The kit would otherwise stop it in the moment between its answer and its own exit,
 * and the record could not tell the refusal from a turn answered with an error.
 */
export function looksLikeRefusal(lines: readonly StdoutLine[], calls: readonly ModelCall[], launchedAt: number): boolean {
  if (lines.length !== 1) return false;
  const json = lines[0]?.json as { type?: unknown; is_error?: unknown } | null | undefined;
  if (json === null || typeof json !== "object" || json.type !== "result" || json.is_error !== true) return false;
  return !calls.some((call) => (call.receivedAt ?? Infinity) >= launchedAt);
}
