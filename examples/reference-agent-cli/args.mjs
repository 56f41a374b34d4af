// args.mjs: the command line, exactly as the AWP Desktop builds it.
//
// The Desktop never uses a shell. It runs
//
//   <executable> [...prefix args]
//                [--output-format stream-json --input-format stream-json --print --verbose]
//                --model <model> [--resume <session id>] [--mcp-config <path>]
//
// The bracketed compatibility flags are only added in `stream-json` mode; this
// CLI writes the same (Claude-Code compatible) events in both modes, so it
// simply consumes them. `--mcp-config` points at a file of MCP endpoints; this
// reference supports no MCP, so it consumes the flag AND its value and never
// opens the file. Neither may ever be mistaken for prompt text.
//
// Any other argument is refused: a CLI that guesses what an unknown flag means
// hides configuration mistakes from the operator.

import { StartupError } from "./codes.mjs";

/** Flags that take a value, mapped to where the value is kept (null: consumed and ignored). */
const VALUE_FLAGS = new Map([
  ["--model", "model"],
  ["--resume", "resume"],
  ["--mcp-config", null],
  ["--input-format", null],
  ["--output-format", null],
]);

/** Flags without a value. Both are Claude Code compatibility switches. */
const BOOLEAN_FLAGS = new Set(["--print", "--verbose"]);

/** The Desktop's rule for an opaque native session id. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9._:-]{1,256}$/;

// C0 controls, DEL and C1 controls.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Parses argv (without node and the script path).
 * Returns { model, resume } where resume is a session id or null.
 * Throws StartupError on anything the Desktop would not have sent.
 */
export function parseArgs(argv) {
  const values = { model: null, resume: null };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (BOOLEAN_FLAGS.has(arg)) continue;
    if (!VALUE_FLAGS.has(arg)) {
      // Deliberately vague: the argument itself could be private.
      throw new StartupError("invalid_arguments", `unknown argument at position ${i + 1}`);
    }
    if (i + 1 >= argv.length) {
      throw new StartupError("invalid_arguments", `${arg} needs a value`);
    }
    const value = argv[i + 1];
    i += 1;
    const key = VALUE_FLAGS.get(arg);
    if (key === null) continue; // consumed and ignored, value included
    if (values[key] !== null) {
      throw new StartupError("invalid_arguments", `${arg} given twice`);
    }
    values[key] = value;
  }

  if (values.model === null) {
    throw new StartupError("invalid_arguments", "--model is required");
  }
  // Same rule as the Desktop: trimmed, 1..256 characters, no control characters.
  const model = values.model.trim();
  if (model.length < 1 || model.length > 256 || CONTROL_CHARS.test(model)) {
    throw new StartupError("invalid_model", "the model must be 1..256 characters without control characters");
  }
  if (values.resume !== null && !SESSION_ID_PATTERN.test(values.resume)) {
    throw new StartupError("invalid_resume_session_id", "--resume must match ^[A-Za-z0-9._:-]{1,256}$");
  }
  return { model, resume: values.resume };
}
