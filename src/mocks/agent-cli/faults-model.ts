/**
 * The agent-cli faults on input lines, resume, what reaches the model or comes back from it,
 * and the fuzz-only size bugs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countParam, textParam } from "../run.js";
import { faultExit, line } from "../process.js";
import { dropResultOfTurns, editRequest, fakeStream, fixed, isErrorResult, isResult, isSuccess, lastUser, mapText, rewrite, textOf, turnSelected, turnTag, userMessage, withoutBlocks, type AgentFault } from "./state.js";

const utf8 = (text: string): number => Buffer.byteLength(text, "utf8");

export const MODEL_FAULTS: Readonly<Record<string, AgentFault>> = {
  // ---- input
  "exit-on-malformed": fixed({
    input: (text) => {
      if (text.trim() === "") return text;
      try {
        JSON.parse(text);
      } catch {
        process.stderr.write("awp-conformance-mock: input line is not JSON, giving up\n");
        faultExit(1);
      }
      return text;
    },
  }),
  "drop-text": (p) => {
    const turn = textParam(p, "turn");
    return {
      fetch: editRequest((body, state) => {
        const user = lastUser(body.messages);
        if (turnSelected(turn, { tag: turnTag(textOf(user?.content)), index: state.pending[0]?.index ?? 0 }, state.kitTags)) mapText(user, () => "(empty)");
      }),
    };
  },
  "drop-image": fixed({ input: withoutBlocks("image") }),
  "drop-document": fixed({ input: withoutBlocks("document") }),
  "drop-unsupported": fixed({ input: withoutBlocks("awp_conformance_probe") }),
  "mcp-path-as-prompt": fixed({
    fetch: editRequest((body, state) => {
      const user = lastUser(body.messages);
      const path = state.mcpConfig;
      if (user === undefined || path === undefined) return;
      if (Array.isArray(user.content)) user.content = [...user.content, { type: "text", text: path }];
      else user.content = `${typeof user.content === "string" ? user.content : ""} ${path}`;
    }),
  }),

  // ---- resume
  // A resumed process fails its turns without showing an answer (the streamed text is dropped).
  "error-after-resume": fixed({
    output: rewrite(
      (o, state) => state.resumed && (isResult(o) || String(o.type).startsWith("content_block_")),
      (o) => (isResult(o) ? line({ type: "result", subtype: "error", is_error: true, session_id: o.session_id, result: "unknown_session" }) : ""),
    ),
  }),
  "new-id-on-resume": fixed({ output: rewrite((o, state) => state.resumed && typeof o.session_id === "string", (o) => line({ ...o, session_id: `new-${String(o.session_id)}` })) }),
  "forget-history": fixed({
    startup: (state) => {
      if (!state.resumed) return;
      const dir = mkdtempSync(join(tmpdir(), "awp-conformance-mock-state-"));
      process.env.AWP_REFERENCE_STATE_DIR = dir;
      process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    },
  }),

  // ---- fidelity and secrets
  // Holds each delta back until the next line; the one a block ends with is dropped.
  "truncate-stream": () => {
    let held = "";
    return {
      output: (text, object) => {
        const out = held;
        held = "";
        if (object?.type === "content_block_delta") {
          held = `${text}\n`;
          return out;
        }
        return `${text}\n`;
      },
    };
  },
  "truncate-result": fixed({ output: rewrite((o) => isSuccess(o) && typeof o.result === "string", (o) => line({ ...o, result: String(o.result).slice(0, 10) })) }),
  "leak-key": fixed({ startup: () => void process.stderr.write(`awp-conformance-mock: using API key ${process.env.AWP_REFERENCE_API_KEY ?? ""}\n`) }),

  // ---- model failures
  "success-on-http-error": fixed({
    fetch: async (url, init, next) => {
      const response = await next(url, init);
      if (response.status < 500) return response;
      await response.body?.cancel().catch(() => undefined);
      return fakeStream("recovered");
    },
  }),
  "success-on-timeout": fixed({
    output: rewrite(
      (o) => isErrorResult(o) && o.result === "provider_timeout",
      (o) => line({ type: "result", subtype: "success", is_error: false, session_id: o.session_id, result: "", usage: { input_tokens: 0, output_tokens: 0 } }),
    ),
  }),
  // Slow but conforming: gives up on a silent model only after `ms`.
  "slow-stall-give-up": (p) => ({
    startup: () => {
      process.env.AWP_REFERENCE_TIMEOUT_MS = String(countParam(p, "ms"));
    },
  }),
  // Slow but conforming: every user turn starts `ms` late, so its model request comes late too.
  // The whole process waits (a thread sleep), as a CLI busy with its own start-up would.
  "slow-turn-start": (p) => ({
    input: (text) => {
      if (userMessage(text) !== undefined) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, countParam(p, "ms"));
      return text;
    },
  }),
  // One unanswered turn: it streams, then no result.
  "silent-on-turn": (p) => {
    const turn = textParam(p, "turn");
    return dropResultOfTurns((text, _content, state) => turnSelected(turn, { tag: turnTag(text), index: state.userLines }, state.kitTags));
  },

  // ---- fuzz-only: the fixed scenarios never send such text
  "drop-terminal-on-line-separator": () => dropResultOfTurns((text) => text.includes("\u2028")),
  "drop-terminal-over-64k": (p) => dropResultOfTurns((text) => utf8(text) > countParam(p, "bytes")),
  "silent-over-12-blocks": (p) => dropResultOfTurns((_text, content) => Array.isArray(content) && content.length > countParam(p, "blocks")),
  "exit-on-text-over-100k": (p) => ({
    input: (text) => {
      const message = userMessage(text);
      if (message !== undefined && utf8(textOf(message.content)) > countParam(p, "bytes")) faultExit(1);
      return text;
    },
  }),
};
