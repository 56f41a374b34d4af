// codes.mjs: the stable, machine-readable error codes this CLI reports.
//
// The Desktop shows `result` of an error event to the user and may match on
// it, so a code is never free text: it always matches CODE_PATTERN. Anything
// that would not match (a bug, an odd HTTP status) collapses to a generic
// code instead of leaking a message onto the protocol channel.

export const CODE_PATTERN = /^[a-z0-9_:-]{1,160}$/;

/** Returns `code` if it is a valid protocol code, else `fallback`. */
export function safeCode(code, fallback = "provider_request_failed") {
  return typeof code === "string" && CODE_PATTERN.test(code) ? code : fallback;
}

/**
 * A problem found before the first input line: bad arguments or environment.
 * The entry point prints it as a `startup_error` result and exits 1.
 */
export class StartupError extends Error {
  constructor(code, detail = code) {
    super(detail);
    this.code = safeCode(code, "startup_failed");
  }
}

/**
 * A problem with one turn (a bad input line, a provider failure). It becomes
 * ONE `{"type":"result","subtype":"error",...}` event, and the process keeps
 * serving the next line.
 */
export class TurnError extends Error {
  constructor(code, detail = code) {
    super(detail);
    this.code = safeCode(code);
  }
}

/**
 * Thrown out of a turn when the process is stopping (SIGTERM, SIGINT or a
 * shutdown line). Nothing is reported for it: the turn simply never ends.
 */
export class StoppedError extends Error {
  constructor() {
    super("stopped");
  }
}

/**
 * A problem with one managed-task tool call (bad arguments, a control-plane
 * failure). It is not a turn failure: the model gets `{"error": CODE}` as the
 * call's result and answers on.
 */
export class ToolError extends Error {
  constructor(code, detail = code) {
    super(detail);
    this.code = safeCode(code, "control_plane_request_failed");
  }
}
