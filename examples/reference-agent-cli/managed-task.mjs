// managed-task.mjs: the awp_run_managed_task tool of the managed-task bridge.
//
// Offered to the model only when the bridge is on (bridge-config.mjs). One
// call submits ONE command task to the control plane (controlplane.mjs) and
// waits for it:
//
//   {"argv": ["program", "arg", ...], "timeout_seconds": 60}
//
// argv is handed to the control plane as an array, exactly as the model wrote
// it. This CLI never runs anything itself, never joins argv into a command
// line and never involves a shell; the worker's executable allow-list is the
// final authority on what runs.
//
// The call's result, sent back to the model as the `tool` message content:
//
//   {"task_id":"…","status":"success","exit_code":0,"stdout":"…","stderr":"…"}
//
// with stdout and stderr each cut to MAX_OUTPUT_BYTES of UTF-8 (on a character
// boundary; `stdout_truncated` / `stderr_truncated` are then true). A wait
// that runs out gives status "timeout" (the task may still run). A bad
// argument or a control-plane failure gives {"error":"<code>"}.

import { createHash } from "node:crypto";
import { StoppedError, ToolError } from "./codes.mjs";
import { submitTask, waitForTask } from "./controlplane.mjs";

export const MANAGED_TOOL_NAME = "awp_run_managed_task";
const MAX_ARGS = 32;
const MAX_ARG_CHARS = 8192;
const MAX_ARGV_BYTES = 64 * 1024;
const PROGRAM = /^[A-Za-z0-9._-]{1,128}$/;
const MIN_TIMEOUT_S = 1;
const MAX_TIMEOUT_S = 300;
const DEFAULT_TIMEOUT_S = 60;
const MAX_OUTPUT_BYTES = 64 * 1024;
const KEY_PREFIX = "awp-reference-agent:";

/** The tool as the OpenAI chat completions request offers it. */
export const MANAGED_TOOL_DEFINITION = {
  type: "function",
  function: {
    name: MANAGED_TOOL_NAME,
    description:
      "Submit one command task to the AWP control plane and wait for its result. argv[0] is the program " +
      "name (letters, digits, '.', '_', '-'); no shell is involved. Returns task_id, status, exit_code, stdout, stderr.",
    parameters: {
      type: "object",
      properties: {
        argv: {
          type: "array",
          minItems: 1,
          maxItems: MAX_ARGS,
          items: { type: "string", minLength: 1, maxLength: MAX_ARG_CHARS },
          description: `program and arguments, at most ${MAX_ARGV_BYTES} bytes in all`,
        },
        timeout_seconds: { type: "number", minimum: MIN_TIMEOUT_S, maximum: MAX_TIMEOUT_S, default: DEFAULT_TIMEOUT_S, description: "how long to wait for the result" },
      },
      required: ["argv"],
      additionalProperties: false,
    },
  },
};

/**
 * The call's arguments (a JSON text) checked against the schema above.
 * Returns { argv, timeout_seconds }; throws ToolError:
 *   invalid_tool_arguments   not a JSON object, or a property other than argv/timeout_seconds
 *   invalid_argv             argv missing, not 1..32 strings of 1..8192 characters, or with NUL
 *   invalid_argv_program     argv[0] does not match ^[A-Za-z0-9._-]{1,128}$
 *   argv_too_large           argv over 64 KiB of UTF-8 in all
 *   invalid_timeout_seconds  not a number from 1 to 300
 */
export function parseManagedArgs(text) {
  let args;
  try {
    args = JSON.parse(text);
  } catch {
    throw new ToolError("invalid_tool_arguments");
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) throw new ToolError("invalid_tool_arguments");
  if (Object.keys(args).some((key) => key !== "argv" && key !== "timeout_seconds")) throw new ToolError("invalid_tool_arguments");
  const { argv } = args;
  const timeout = args.timeout_seconds ?? DEFAULT_TIMEOUT_S;
  if (!Array.isArray(argv) || argv.length < 1 || argv.length > MAX_ARGS) throw new ToolError("invalid_argv");
  for (const arg of argv) {
    if (typeof arg !== "string" || arg === "" || arg.includes("\0") || codePoints(arg) > MAX_ARG_CHARS) throw new ToolError("invalid_argv");
  }
  if (!PROGRAM.test(argv[0])) throw new ToolError("invalid_argv_program");
  if (argv.reduce((sum, arg) => sum + Buffer.byteLength(arg, "utf8"), 0) > MAX_ARGV_BYTES) throw new ToolError("argv_too_large");
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout < MIN_TIMEOUT_S || timeout > MAX_TIMEOUT_S) {
    throw new ToolError("invalid_timeout_seconds");
  }
  return { argv, timeout_seconds: timeout };
}

/**
 * Characters as JSON Schema counts them (code points). A string of more than
 * 2 * MAX_ARG_CHARS UTF-16 units is too long whatever it holds: not counted.
 */
function codePoints(text) {
  return text.length > 2 * MAX_ARG_CHARS ? text.length : [...text].length;
}

/**
 * The submission's idempotency key: the same session, turn (its messages at
 * the turn's start), tool-call id and arguments always give the same key, so a
 * repeated submission of one call is safe at the control plane; anything
 * different gives a different key.
 */
export function idempotencyKey(sessionId, turnDigest, callId, args) {
  const material = JSON.stringify([sessionId, turnDigest, callId, { argv: args.argv, timeout_seconds: args.timeout_seconds }]);
  return `${KEY_PREFIX}${createHash("sha256").update(material).digest("hex")}`;
}

/** sha256 hex of the messages a turn starts with (history + the user message). */
export function messagesDigest(messages) {
  return createHash("sha256").update(JSON.stringify(messages)).digest("hex");
}

/**
 * Runs one awp_run_managed_task call; resolves to the `tool` message content.
 * call: {id, arguments}; turn: { sessionId, turnDigest(), bridge, stopSignal, diag }
 */
export async function runManagedTask(call, turn) {
  const started = Date.now();
  const io = { bridge: turn.bridge, stopSignal: turn.stopSignal, diag: turn.diag };
  try {
    const args = parseManagedArgs(call.arguments);
    const key = idempotencyKey(turn.sessionId, turn.turnDigest(), call.id, args);
    const id = await submitTask(io, args.argv, key);
    const { status, output } = await waitForTask(io, id, started + args.timeout_seconds * 1000);
    const out = outputOf(output, turn.bridge.apiKey);
    const stdout = cut(out.stdout);
    const stderr = cut(out.stderr);
    return JSON.stringify({
      task_id: id,
      status,
      exit_code: out.exitCode,
      stdout: stdout.text,
      stderr: stderr.text,
      ...(stdout.cut ? { stdout_truncated: true } : {}),
      ...(stderr.cut ? { stderr_truncated: true } : {}),
    });
  } catch (error) {
    if (error instanceof StoppedError) throw error;
    if (error instanceof ToolError) return JSON.stringify({ error: error.code });
    turn.diag(`internal error in ${MANAGED_TOOL_NAME}: ${error?.stack ?? error}`);
    return JSON.stringify({ error: "internal_error" });
  }
}

/** The task's output fields; anything missing or of the wrong type is null / "". */
function outputOf(output, secret) {
  const o = output !== null && typeof output === "object" && !Array.isArray(output) ? output : {};
  // The key was never given to the task; should a control plane echo it, it
  // still does not travel on to the model.
  const clean = (value) => (typeof value === "string" ? value.split(secret).join("[redacted]") : "");
  return { exitCode: Number.isSafeInteger(o.exit_code) ? o.exit_code : null, stdout: clean(o.stdout), stderr: clean(o.stderr) };
}

/** At most MAX_OUTPUT_BYTES of UTF-8, never splitting a character. */
export function cut(text) {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= MAX_OUTPUT_BYTES) return { text, cut: false };
  let end = MAX_OUTPUT_BYTES;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1; // back off continuation bytes
  return { text: bytes.subarray(0, end).toString("utf8"), cut: true };
}
