// output.mjs: the two output channels.
//
// stdout is PROTOCOL ONLY. The Desktop reads it as JSON Lines: every event is
// one compact JSON object followed by "\n". A stray console.log() there would
// be a malformed line at best, so everything human-readable goes to stderr.
//
// JSON.stringify() never emits a raw newline (newlines inside strings become
// "\n" escapes), so one call always produces exactly one line.

export function createOutput({ secrets = [] } = {}) {
  let closed = false;

  // The reader of stdout went away (the Desktop closed the pipe or died).
  // Nobody can receive anything any more: stop quietly instead of crashing
  // with an unhandled EPIPE.
  process.stdout.on("error", (error) => {
    closed = true;
    if (error.code !== "EPIPE") diag(`cannot write stdout: ${error.code ?? error.message}`);
    process.exit(0);
  });
  // Diagnostics are best effort; a closed stderr must not kill the process.
  process.stderr.on("error", () => {});

  /** Writes one protocol event. After close() it silently drops events. */
  function emit(event) {
    if (closed) return;
    process.stdout.write(`${JSON.stringify(event)}\n`);
  }

  /** Writes one diagnostic line to stderr, with every secret masked. */
  function diag(message) {
    let text = String(message);
    for (const secret of secrets) {
      if (secret) text = text.split(secret).join("[redacted]");
    }
    process.stderr.write(`awp-reference-agent-cli: ${text}\n`);
  }

  /**
   * Stops protocol output for good. Used when the process is told to stop in
   * the middle of a turn: the contract wants no partial result then.
   */
  function close() {
    closed = true;
  }

  return { emit, diag, close };
}

/**
 * Exits with `code` once stdout has handed its buffered events to the OS.
 * Writes to a pipe can be asynchronous, and process.exit() would drop what is
 * still queued; the callback of a write runs after everything before it.
 */
export function exitAfterFlush(code) {
  // Never hang on a reader that stopped reading.
  setTimeout(() => process.exit(code), 1000).unref();
  if (process.stdout.writableLength === 0) process.exit(code);
  process.stdout.write("", () => process.exit(code));
}
