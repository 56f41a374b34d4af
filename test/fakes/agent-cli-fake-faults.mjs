// agent-cli-fake-faults.mjs: the faults of agent-cli-fake.mjs, one per name.
//
// Each fault breaks one clause of suites/agent-cli/ (test/integration/agent-cli-faults.ts
// lists which, and the scenario that shows it). A fault is a set of optional hooks
// (see agent-cli-fake-hooks.mjs):
//
//   startup(state)                   before the reference is imported
//   input(line, state)               an input line -> the line the reference sees (null: dropped)
//   inputEnd(state)                  the real stdin ended; "keep-open" keeps the reference's open
//   output(line, object, state, owed) a line the reference wrote -> the text to write instead
//                                    (owed: the input line it answers, with its turn tag)
//   fetch(url, init, state)          a model or control-plane request of the reference (state.fetch is the real one)
//   ignoreSigterm(state)             true: this SIGTERM is ignored

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseObject, textOf, turnTag, userMessage } from "./agent-cli-fake-hooks.mjs";
import { DAEMON_FAULTS, leaveDaemon } from "./leftover-daemon.mjs";
import { MANAGED_FAULTS } from "./agent-cli-fake-managed.mjs";
import { CONSISTENCY_FAULTS } from "./agent-cli-fake-consistency.mjs";

const line = (object) => `${JSON.stringify(object)}\n`;
const isResult = (object) => object?.type === "result";
const isSuccess = (object) => isResult(object) && object.subtype === "success";
const isErrorResult = (object) => isResult(object) && object.subtype !== "success" && object.is_error === true;
const FIVE_MIB = 5 * 1024 * 1024;

/** An output fault that rewrites matching event objects (and keeps every other line as it is). */
function rewrite(matches, change) {
  return (text, object, state, owed) => (object !== undefined && matches(object, state, owed) ? change(object, state, owed) : `${text}\n`);
}

/** An output fault that drops matching event objects. */
function drop(matches) {
  return rewrite(matches, () => "");
}

/** An input fault that removes content blocks of one type from user lines. */
function withoutBlocks(type) {
  return (text) => {
    const value = parseObject(text);
    const content = userMessage(text)?.content;
    if (value === undefined || !Array.isArray(content)) return text;
    const kept = content.filter((block) => block?.type !== type);
    return kept.length === content.length ? text : JSON.stringify({ ...value, message: { ...value.message, content: kept } });
  };
}

/** A fetch fault that edits the JSON request body (the messages the reference sends its model). */
function editRequest(edit) {
  return (url, init, state) => {
    const body = typeof init?.body === "string" ? parseObject(init.body) : undefined;
    if (body === undefined || !Array.isArray(body.messages)) return state.fetch(url, init);
    edit(body, state);
    return state.fetch(url, { ...init, body: JSON.stringify(body) });
  };
}

/** The last user message of an OpenAI messages array. */
function lastUser(messages) {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i]?.role === "user") return messages[i];
  return undefined;
}

/** Applies `change` to every text part of a user message (string content counts as one). */
function mapText(message, change) {
  if (message === undefined) return;
  if (typeof message.content === "string") message.content = change(message.content);
  else if (Array.isArray(message.content)) {
    message.content = message.content.map((part) => (part?.type === "text" && typeof part.text === "string" ? { ...part, text: change(part.text) } : part));
  }
}

/** A successful streamed chat completion saying `text`, as an OpenAI-compatible server sends it. */
function fakeStream(text) {
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const body = `${chunk({ role: "assistant", content: "" })}${chunk({ content: text })}${chunk({}, "stop")}data: [DONE]\n\n`;
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

/** POSTs a user text to the model the reference uses, and throws the answer away. */
function prefetch(state, text) {
  const base = (process.env.AWP_REFERENCE_API_BASE_URL ?? "").replace(/\/+$/, "");
  const headers = { "content-type": "application/json", accept: "text/event-stream" };
  if (process.env.AWP_REFERENCE_API_KEY) headers.authorization = `Bearer ${process.env.AWP_REFERENCE_API_KEY}`;
  const body = JSON.stringify({ model: state.model, messages: [{ role: "user", content: text }], stream: true });
  state
    .fetch(`${base}/chat/completions`, { method: "POST", headers, body })
    .then((response) => response.arrayBuffer())
    .catch(() => {});
}

/**
 * A fault that never writes the result of a user turn whose text (its text blocks joined)
 * matches (`matches(text, content)`: the content array too); every other line, and the turns
 * after it, are left as they are.
 */
function dropResultOfTurns(matches) {
  return {
    input: (text, state) => {
      const message = userMessage(text);
      // One entry per user line, in order: the reference answers them one after the other.
      if (message !== undefined) (state.dropResults ??= []).push(matches(textOf(message.content), message.content));
      return text;
    },
    output: (text, object, state, owed) => (isResult(object) && owed?.kind === "user" && state.dropResults?.shift() === true ? "" : `${text}\n`),
  };
}

/** Exits with `code` once `text` is written; nothing written after it gets out. */
function exitAfter(state, text, code) {
  state.exiting = true;
  state.rawWrite(text, () => process.exit(code));
  setTimeout(() => process.exit(code), 1000);
}

export const FAULTS = {
  // ---- output
  "early-output": {
    startup: () => process.stdout.write(line({ type: "system", subtype: "starting" })),
  },
  "init-after-startup": {
    // An event a second after start-up, before any input: inside the long quiet window only.
    startup: () => setTimeout(() => process.stdout.write(line({ type: "system", subtype: "starting" })), 1000),
  },
  "log-on-stdout": {
    // Right after the first event of each turn, so the first turn still opens with system/init.
    output: (text, object, state, owed) => `${text}\n${owed?.kind === "user" && owed.lines === 0 ? `agent-cli-fake: starting turn ${owed.tag ?? "?"}\n` : ""}`,
  },
  "partial-last-line": {
    inputEnd: (state) => state.whenIdle(() => JSON.stringify({ type: "system", subtype: "bye" })),
  },
  "huge-line": {
    output: (text, object, state, owed) => `${text}\n${isResult(object) && owed?.tag === "tools-1" ? "x".repeat(FIVE_MIB) : ""}`,
  },
  "untyped-event": {
    output: (text, object, state, owed) => `${isResult(object) && owed?.kind === "user" ? line({ note: "no type" }) : ""}${text}\n`,
  },

  // ---- session
  "exit-at-start": {
    startup: () => process.exit(0),
  },
  // Like a CLI that does not know the compatibility flags: a usage banner, the reason in
  // the middle of it, exit 1 before any turn is answered.
  "refused-launch": {
    startup: () => {
      process.stderr.write("Usage: agent-cli-fake [options]\n\nUnknown arguments: print, verbose\n  --model   the model id\n  --help    show help\n");
      process.exit(1);
    },
  },
  "no-init": {
    output: drop((o) => o.type === "system" && o.subtype === "init"),
  },
  "bad-session-id": {
    output: rewrite((o) => Object.hasOwn(o, "session_id"), (o) => line({ ...o, session_id: "bad id!" })),
  },
  "changing-session-id": {
    output: rewrite(isResult, (o) => line({ ...o, session_id: "fake-other-session" })),
  },

  // ---- turns
  "double-result": {
    output: rewrite(isResult, (o) => `${line(o)}${line(o)}`),
  },
  "prefetch-next-turn": {
    input: (text, state) => {
      const message = userMessage(text);
      if (message !== undefined && state.inFlight) prefetch(state, textOf(message.content));
      return text;
    },
  },
  "exit-mid-turn": {
    output: (text, object, state, owed) => {
      if (state.exiting) return "";
      if (owed?.tag === "basic-2" && object?.type === "content_block_delta") {
        exitAfter(state, `${text}\n`, 1);
        return "";
      }
      return `${text}\n`;
    },
  },
  "success-with-is-error": {
    output: rewrite(isSuccess, (o) => line({ ...o, is_error: true })),
  },
  "error-text": {
    output: rewrite(isErrorResult, (o) => line({ ...o, result: "Something went wrong!" })),
  },
  // As Claude Code and Qwen Code write failures: the code only in subtype.
  "error-code-in-subtype": {
    output: rewrite(isErrorResult, ({ result: _result, ...o }) => line({ ...o, subtype: "error_during_execution" })),
  },
  "negative-usage": {
    output: rewrite((o) => isResult(o) && o.usage !== undefined, (o) => line({ ...o, usage: { ...o.usage, output_tokens: -1 } })),
  },
  "delta-before-start": {
    output: drop((o) => o.type === "content_block_start"),
  },
  "offer-no-tools": {
    // Not a fault: a CLI whose model requests offer no tools (turns/tool-use is then not applicable).
    fetch: editRequest((body) => {
      delete body.tools;
    }),
  },
  "hide-tool-use": {
    output: drop((o) => o.type === "assistant" && Array.isArray(o.message?.content) && o.message.content.some((b) => b?.type === "tool_use")),
  },

  // ---- input
  "exit-on-malformed": {
    input: (text) => {
      if (text.trim() === "") return text;
      try {
        JSON.parse(text);
      } catch {
        process.stderr.write("agent-cli-fake: input line is not JSON, giving up\n");
        process.exit(1);
      }
      return text;
    },
  },
  "drop-text": {
    fetch: editRequest((body) => {
      const user = lastUser(body.messages);
      if (turnTag(textOf(user?.content)) === "content-1") mapText(user, () => "(empty)");
    }),
  },
  "drop-image": { input: withoutBlocks("image") },
  "drop-document": { input: withoutBlocks("document") },
  "drop-unsupported": { input: withoutBlocks("awp_conformance_probe") },
  "mcp-path-as-prompt": {
    fetch: editRequest((body, state) => {
      const user = lastUser(body.messages);
      if (user === undefined || state.mcpConfig === undefined) return;
      if (Array.isArray(user.content)) user.content = [...user.content, { type: "text", text: state.mcpConfig }];
      else user.content = `${user.content ?? ""} ${state.mcpConfig}`;
    }),
  },

  // ---- resume
  "error-after-resume": {
    // A resumed process fails its turns without showing an answer (the streamed text is dropped).
    output: rewrite(
      (o, state) => state.resumed && (isResult(o) || String(o.type).startsWith("content_block_")),
      (o) => (isResult(o) ? line({ type: "result", subtype: "error", is_error: true, session_id: o.session_id, result: "unknown_session" }) : ""),
    ),
  },
  "new-id-on-resume": {
    output: rewrite((o, state) => state.resumed && typeof o.session_id === "string", (o) => line({ ...o, session_id: `new-${o.session_id}` })),
  },
  "forget-history": {
    startup: (state) => {
      if (!state.resumed) return;
      const dir = mkdtempSync(join(tmpdir(), "agent-cli-fake-state-"));
      process.env.AWP_REFERENCE_STATE_DIR = dir;
      process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    },
  },

  // ---- consistency with the model's side (agent-cli-fake-consistency.mjs)
  ...CONSISTENCY_FAULTS,

  // ---- fidelity and secrets
  "truncate-stream": {
    // Holds each delta back until the next one; the one a block ends with is dropped.
    output: (text, object, state) => {
      const held = state.heldDelta ?? "";
      state.heldDelta = undefined;
      if (object?.type === "content_block_delta") {
        state.heldDelta = `${text}\n`;
        return held;
      }
      return `${text}\n`;
    },
  },
  "truncate-result": {
    output: rewrite((o) => isSuccess(o) && typeof o.result === "string", (o) => line({ ...o, result: o.result.slice(0, 10) })),
  },
  "leak-key": {
    startup: () => process.stderr.write(`agent-cli-fake: using API key ${process.env.AWP_REFERENCE_API_KEY}\n`),
  },

  // ---- failures
  "success-on-http-error": {
    fetch: async (url, init, state) => {
      const response = await state.fetch(url, init);
      if (response.status < 500) return response;
      await response.body?.cancel().catch(() => {});
      return fakeStream("recovered");
    },
  },
  "success-on-timeout": {
    output: rewrite(
      (o) => isErrorResult(o) && o.result === "provider_timeout",
      (o) => line({ type: "result", subtype: "success", is_error: false, session_id: o.session_id, result: "", usage: { input_tokens: 0, output_tokens: 0 } }),
    ),
  },

  // ---- slow but conforming: must PASS failures/model-stall (test/runner/agent-cli/failure-probes.test.ts)
  "slow-stall-give-up": {
    // Gives up on a silent model only after 40 s (AWP_FAKE_STALL_GIVE_UP_MS), longer than
    // --turn-timeout but within --stall-timeout: the contract sets no time for it.
    startup: () => {
      process.env.AWP_REFERENCE_TIMEOUT_MS = process.env.AWP_FAKE_STALL_GIVE_UP_MS ?? "40000";
    },
  },

  // ---- one unanswered turn: the kit stops that scenario there (test/runner/agent-cli/stops.test.ts)
  // Never ends the turn tagged AWP_FAKE_SILENT_TURN (default basic-2): it streams, then no result.
  "silent-on-turn": dropResultOfTurns((text) => text.split(/[\s\]]/).includes(`turn=${process.env.AWP_FAKE_SILENT_TURN ?? "basic-2"}`)),

  // ---- termination
  "ignore-shutdown": {
    input: (text) => (parseObject(text)?.type === "shutdown" ? null : text),
  },
  "ignore-sigterm-idle": {
    ignoreSigterm: (state) => !state.inFlight,
  },
  "ignore-sigterm-mid-turn": {
    ignoreSigterm: (state) => state.inFlight,
  },
  "ignore-eof": {
    inputEnd: () => "keep-open",
  },
  // A grandchild in a new session, left running after the CLI exits (leftover-daemon.mjs).
  ...Object.fromEntries(DAEMON_FAULTS.map((name) => [name, { startup: () => leaveDaemon(name) }])),

  // ---- the managed-task bridge (agent-cli-fake-managed.mjs)
  ...MANAGED_FAULTS,

  // ---- fuzz-only: the fixed scenarios never send such text, only the fuzzer finds these
  "drop-terminal-on-line-separator": dropResultOfTurns((text) => text.includes("\u2028")),
  "drop-terminal-over-64k": dropResultOfTurns((text) => Buffer.byteLength(text, "utf8") > 65536),
  // fuzz-only size bugs (test/fuzz/agent-cli/size-bugs.test.ts)
  "silent-over-12-blocks": dropResultOfTurns((_text, content) => Array.isArray(content) && content.length > 12),
  "exit-on-text-over-100k": {
    input: (text) => {
      const message = userMessage(text);
      if (message !== undefined && Buffer.byteLength(textOf(message.content), "utf8") > 100 * 1024) process.exit(1);
      return text;
    },
  },
};
