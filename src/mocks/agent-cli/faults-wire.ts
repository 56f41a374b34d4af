/** The agent-cli faults on what goes over stdout: output framing, the session, the turns. */
import { countParam, textParam } from "../run.js";
import { at, faultExit, isObj, line, list } from "../process.js";
import { drop, editRequest, fixed, isErrorResult, isResult, isSuccess, rewrite, textOf, turnSelected, userMessage, type AgentFault, type State } from "./state.js";

/** Prefetches a user text from the model the reference uses, and throws the answer away. */
function prefetch(state: State, text: string): void {
  const base = (process.env.AWP_REFERENCE_API_BASE_URL ?? "").replace(/\/+$/, "");
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (process.env.AWP_REFERENCE_API_KEY) headers.authorization = `Bearer ${process.env.AWP_REFERENCE_API_KEY}`;
  const body = JSON.stringify({ model: state.model, messages: [{ role: "user", content: text }], stream: true });
  state
    .fetch(`${base}/chat/completions`, { method: "POST", headers, body })
    .then((response) => response.arrayBuffer())
    .catch(() => undefined);
}

const systemEvent = (): string => line({ type: "system", subtype: "starting" });

/** A fault that writes `event` before the result of each user turn. */
function beforeEachResult(name: string, event: Record<string, unknown>): AgentFault {
  return fixed({
    output: (text, object, state, owed) => {
      if (!isResult(object) || owed?.kind !== "user") return `${text}\n`;
      state.notes.fired(name, owed);
      return `${line(event)}${text}\n`;
    },
  });
}

/**
 * Every line goes out in `parts` writes, `ms` apart, in order: the fault replaces the raw
 * write under every other hook, so what the host gets is the same bytes, only cut. An exit
 * waits until the last part is out (the reference flushes stdout before it exits).
 */
const splitLines: AgentFault = (p) => {
  const parts = Math.max(1, countParam(p, "parts"));
  const ms = countParam(p, "ms");
  let chain: Promise<void> = Promise.resolve();
  let pending = 0;
  return {
    startup: (state) => {
      const write = state.rawWrite;
      const realExit = process.exit.bind(process);
      process.exit = ((code?: number | string | null) => {
        if (pending === 0) return realExit(code ?? undefined);
        void chain.then(() => realExit(code ?? undefined));
        return undefined as never;
      }) as typeof process.exit;
      state.rawWrite = (text, callback) => {
        if (text !== "") state.notes.fired("split-lines", state.pending[0]);
        const pieces = text.split(/(?<=\n)/).flatMap((one) => {
          const size = Math.max(1, Math.ceil(one.length / parts));
          return Array.from({ length: Math.ceil(one.length / size) }, (_, i) => one.slice(i * size, (i + 1) * size));
        });
        pending += 1;
        for (const piece of pieces) chain = chain.then(() => new Promise<void>((resolve) => void write(piece, () => setTimeout(resolve, ms))));
        chain = chain.then(() => {
          pending -= 1;
          callback?.();
        });
        return true;
      };
    },
  };
};

export const WIRE_FAULTS: Readonly<Record<string, AgentFault>> = {
  // ---- output
  "early-output": fixed({ startup: () => void process.stdout.write(systemEvent()) }),
  // An event a while after start-up, before any input: inside a long quiet window only.
  "init-after-startup": (p) => ({ startup: () => void setTimeout(() => process.stdout.write(systemEvent()), countParam(p, "ms")) }),
  // Right after the first event of each turn, so the first turn still opens with system/init.
  "log-on-stdout": fixed({
    output: (text, _o, state, owed) => {
      if (owed?.kind !== "user" || owed.lines !== 0) return `${text}\n`;
      state.notes.fired("log-on-stdout", owed);
      return `${text}\nawp-conformance-mock: starting turn ${owed.tag ?? owed.index}\n`;
    },
  }),
  "partial-last-line": fixed({
    inputEnd: (state) =>
      void state.whenIdle(() => {
        state.notes.fired("partial-last-line", undefined);
        return JSON.stringify({ type: "system", subtype: "bye" });
      }),
  }),
  "huge-line": (p) => {
    const turn = textParam(p, "turn");
    const bytes = countParam(p, "bytes");
    const run = "x".repeat(bytes);
    return {
      output: (text, object, state, owed) => {
        if (!isResult(object) || !turnSelected(turn, owed, state.kitTags)) return `${text}\n`;
        state.notes.fired("huge-line", owed, { bytes });
        state.notes.whenFlushed("huge-line", owed);
        return `${text}\n${run}`;
      },
    };
  },
  "untyped-event": beforeEachResult("untyped-event", { note: "no type" }),
  "unknown-event": beforeEachResult("unknown-event", { type: "awp_conformance_unknown", note: "an event type no host knows" }),
  "split-lines": splitLines,

  // ---- session
  "exit-at-start": (p) => ({
    startup: (state) => {
      state.notes.fired("exit-at-start", undefined);
      faultExit(countParam(p, "code"));
    },
  }),
  // Like a CLI that does not know the compatibility flags: a usage banner, the reason in the
  // middle of it, an exit before any turn is answered.
  "refused-launch": (p) => ({
    startup: (state) => {
      state.notes.fired("refused-launch", undefined);
      process.stderr.write("Usage: awp-conformance-mock [options]\n\nUnknown arguments: print, verbose\n  --model   the model id\n  --help    show help\n");
      faultExit(countParam(p, "code"));
    },
  }),
  "no-init": fixed({ output: drop((o) => o.type === "system" && o.subtype === "init") }),
  "bad-session-id": fixed({ output: rewrite((o) => Object.hasOwn(o, "session_id"), (o) => line({ ...o, session_id: "bad id!" })) }),
  "changing-session-id": fixed({ output: rewrite(isResult, (o) => line({ ...o, session_id: "fake-other-session" })) }),

  // ---- turns
  "double-result": fixed({ output: rewrite(isResult, (o) => `${line(o)}${line(o)}`) }),
  "prefetch-next-turn": fixed({
    input: (text, state) => {
      const message = userMessage(text);
      if (message !== undefined && state.inFlight) prefetch(state, textOf(message.content));
      return text;
    },
  }),
  "exit-mid-turn": (p) => {
    const turn = textParam(p, "turn");
    const after = countParam(p, "after");
    const code = countParam(p, "code");
    let deltas = 0;
    let exiting = false;
    return {
      output: (text, object, state, owed) => {
        if (exiting) return "";
        if (object?.type !== "content_block_delta" || !turnSelected(turn, owed, state.kitTags) || (deltas += 1) < after) return `${text}\n`;
        // Exits once this delta is written; nothing written after it gets out.
        exiting = true;
        state.notes.fired("exit-mid-turn", owed);
        state.rawWrite(`${text}\n`, () => faultExit(code));
        setTimeout(() => faultExit(code), 1000);
        return "";
      },
    };
  },
  "success-with-is-error": fixed({ output: rewrite(isSuccess, (o) => line({ ...o, is_error: true })) }),
  "error-text": fixed({ output: rewrite(isErrorResult, (o) => line({ ...o, result: "Something went wrong!" })) }),
  "error-code-dotted": fixed({ output: rewrite(isErrorResult, (o) => line({ ...o, result: "provider:http.500" })) }),
  // As Claude Code and Qwen Code write failures: the code only in subtype.
  "error-code-in-subtype": fixed({ output: rewrite(isErrorResult, ({ result: _result, ...o }) => line({ ...o, subtype: "error_during_execution" })) }),
  // Not a fault: a raw stream that ends each successful turn with message_stop instead of a result.
  "message-stop-ends-turns": fixed({ output: rewrite(isSuccess, () => line({ type: "message_stop" })) }),
  "negative-usage": fixed({ output: rewrite((o) => isResult(o) && isObj(o.usage), (o) => line({ ...o, usage: { ...(isObj(o.usage) ? o.usage : {}), output_tokens: -1 } })) }),
  "delta-before-start": fixed({ output: drop((o) => o.type === "content_block_start") }),
  // Not a fault: a CLI whose model requests offer no tools (turns/tool-use is then not applicable).
  "offer-no-tools": fixed({
    fetch: editRequest((body) => {
      delete body.tools;
    }),
  }),
  "hide-tool-use": fixed({ output: drop((o) => o.type === "assistant" && list(at(o, "message", "content")).some((b) => isObj(b) && b.type === "tool_use")) }),
};
