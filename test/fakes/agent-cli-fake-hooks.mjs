// agent-cli-fake-hooks.mjs: the seams through which agent-cli-fake.mjs bends the reference
// agent CLI without copying any of its logic.
//
//   argv     prefix arguments (before the first Desktop flag) are taken away; a --model the
//            reference would refuse is replaced, so odd launch configurations still run.
//   stdin    process.stdin becomes a PassThrough fed from the real stdin, one line at a time,
//            so a fault can drop, alter or watch input lines (and the end of input).
//   stdout   process.stdout.write buffers complete lines and lets a fault rewrite, drop or
//            add lines; callbacks are passed through (the reference flushes with write("", cb)).
//   fetch    globalThis.fetch is wrapped: a fault can alter request bodies, replace responses
//            or fire requests of its own.
//   SIGTERM  listeners installed with process.on are wrapped, so a fault can ignore the
//            signal in some states.
//
// The state the faults need is tracked here: which lines the reference still owes a result
// (it answers every non-blank line except a shutdown line with exactly one), the turn tag of
// the line being answered, and the launch flags (--resume, --mcp-config, --model).

import { PassThrough } from "node:stream";

/** Flags the Desktop puts after the operator's prefix arguments. */
const DESKTOP_FLAGS = new Set(["--output-format", "--input-format", "--print", "--verbose", "--model", "--resume", "--mcp-config"]);
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
const TURN_TAG = /\[\[awp-fixture\b[^\]]*?\sturn=([^\s\]]+)/g;

/** Splits argv (without node and the script) into the operator's prefix and the Desktop's flags. */
export function splitArgv(argv) {
  const at = argv.findIndex((arg) => DESKTOP_FLAGS.has(arg));
  return at === -1 ? { prefix: argv, desktop: [] } : { prefix: argv.slice(0, at), desktop: argv.slice(at) };
}

/** The value after `flag` in a list of arguments, if any. */
export function valueOf(args, flag) {
  const at = args.indexOf(flag);
  return at === -1 || at + 1 >= args.length ? undefined : args[at + 1];
}

/** The Desktop flags with a --model the reference would refuse replaced by `fake-model`. */
export function saneModel(desktop) {
  const at = desktop.indexOf("--model");
  if (at === -1 || at + 1 >= desktop.length) return desktop;
  const model = desktop[at + 1].trim();
  if (model.length >= 1 && model.length <= 256 && !CONTROL_CHARS.test(model)) return desktop;
  return [...desktop.slice(0, at + 1), "fake-model", ...desktop.slice(at + 2)];
}

export function parseObject(text) {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The user message of an input line ({"type":"user","message":{...}}), or undefined. */
export function userMessage(line) {
  const value = parseObject(line);
  return value?.type === "user" && value.message !== null && typeof value.message === "object" && !Array.isArray(value.message) ? value.message : undefined;
}

/** Text of a message content (a string, or text blocks / OpenAI text parts joined with "\n"). */
export function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block) => block !== null && typeof block === "object" && block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n");
}

/** The turn tag of the kit's `[[awp-fixture ... turn=TAG ...]]` directive in a text. */
export function turnTag(text) {
  const matches = [...text.matchAll(TURN_TAG)];
  const raw = matches[matches.length - 1]?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * What the reference will owe for an input line: nothing for a blank or shutdown line,
 * otherwise exactly one result (a turn, or an error result for a bad line).
 */
function owedFor(line) {
  if (line.trim() === "") return undefined;
  const value = parseObject(line);
  if (value?.type === "shutdown") return undefined;
  const message = userMessage(line);
  return { kind: message === undefined ? "other" : "user", tag: message === undefined ? undefined : turnTag(textOf(message.content)), lines: 0 };
}

/** The state shared by the hooks and the faults. */
export function createState(desktop) {
  const resumeId = valueOf(desktop, "--resume");
  return {
    resumeId,
    resumed: resumeId !== undefined,
    mcpConfig: valueOf(desktop, "--mcp-config"),
    model: valueOf(desktop, "--model"),
    /** Lines handed to the reference that it has not answered yet (oldest first). */
    pending: [],
    inputEnded: false,
    /** Callbacks run once nothing is pending; each returns text to write. */
    idle: [],
    /** The real process.stdout.write and globalThis.fetch (set by installHooks). */
    rawWrite: undefined,
    fetch: undefined,
    /** A turn is in flight: a line was accepted and its result is not written yet. */
    get inFlight() {
      return this.pending.length > 0;
    },
    /** Runs `fn` (which returns text to write) now if nothing is pending, else after the last result. */
    whenIdle(fn) {
      if (this.inFlight) this.idle.push(fn);
      else this.rawWrite(fn());
    },
  };
}

function hookStdin(fault, state) {
  const real = process.stdin;
  const fed = new PassThrough();
  Object.defineProperty(process, "stdin", { value: fed, configurable: true, enumerable: true, writable: true });
  real.setEncoding("utf8");
  let buffer = "";
  const forward = (line) => {
    const kept = fault.input === undefined ? line : fault.input(line, state);
    if (kept === undefined || kept === null) return;
    const owed = owedFor(kept.endsWith("\r") ? kept.slice(0, -1) : kept);
    if (owed !== undefined) state.pending.push(owed);
    fed.write(`${kept}\n`);
  };
  real.on("data", (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      forward(line);
    }
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    if (buffer !== "") forward(buffer);
    buffer = "";
    state.inputEnded = true;
    if (fault.inputEnd?.(state) === "keep-open") {
      // Nothing else keeps the event loop alive once the real stdin is gone.
      setInterval(() => {}, 1 << 30);
      return;
    }
    fed.end();
  };
  real.on("end", end);
  real.on("error", end);
}

function hookStdout(fault, state) {
  const stdout = process.stdout;
  const raw = stdout.write.bind(stdout);
  state.rawWrite = raw;
  let buffer = "";

  const processLine = (line) => {
    const object = parseObject(line);
    const owed = state.pending[0];
    let text = fault.output === undefined ? `${line}\n` : fault.output(line, object, state, owed);
    if (owed !== undefined) {
      owed.lines += 1;
      if (object?.type === "result") {
        state.pending.shift();
        if (!state.inFlight) for (const fn of state.idle.splice(0)) text += fn();
      }
    }
    return text;
  };

  stdout.write = function write(chunk, encoding, callback) {
    if (typeof encoding === "function") {
      callback = encoding;
      encoding = undefined;
    }
    buffer += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(encoding ?? "utf8");
    let text = "";
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      text += processLine(line);
    }
    if (callback !== undefined) return raw(text, callback);
    return text === "" ? true : raw(text);
  };
}

function hookFetch(fault, state) {
  const original = globalThis.fetch;
  state.fetch = original;
  if (fault.fetch !== undefined) globalThis.fetch = (url, init) => fault.fetch(url, init, state);
}

function hookSignals(fault, state) {
  const on = process.on;
  process.on = function (event, listener) {
    if (event !== "SIGTERM" || fault.ignoreSigterm === undefined) return on.call(this, event, listener);
    return on.call(this, event, function (...args) {
      if (fault.ignoreSigterm(state)) {
        process.stderr.write(`agent-cli-fake: ignoring SIGTERM (${state.inFlight ? "mid-turn" : "idle"})\n`);
        return undefined;
      }
      return listener.apply(this, args);
    });
  };
}

/** Installs every hook; the reference is imported afterwards. */
export function installHooks(fault, state) {
  hookStdout(fault, state);
  hookStdin(fault, state);
  hookFetch(fault, state);
  hookSignals(fault, state);
}
