// agent-cli-fake-consistency.mjs: faults of agent-cli-fake.mjs that make what the CLI tells
// the host disagree with what its model did (suites/agent-cli/consistency.yaml). Each breaks
// exactly one clause; test/integration/agent-cli-faults.ts lists which, with the scenario
// that shows it. Hooks as in agent-cli-fake-faults.mjs.

const line = (object) => `${JSON.stringify(object)}\n`;
const isResult = (object) => object?.type === "result";

/** The usage an OpenAI-compatible SSE body reported (its usage chunk), in the contract's names. */
function usageOf(body) {
  let usage;
  for (const event of body.split("\n\n")) {
    const data = event.startsWith("data: ") ? event.slice(6) : "";
    if (!data.includes('"usage"')) continue;
    try {
      const chunk = JSON.parse(data);
      if (chunk?.usage) usage = { input_tokens: chunk.usage.prompt_tokens ?? 0, output_tokens: chunk.usage.completion_tokens ?? 0 };
    } catch {
      // Not a JSON chunk: not the usage one.
    }
  }
  return usage;
}

export const CONSISTENCY_FAULTS = {
  // Counts only the turn's last model round: a turn with a tool round reports too little.
  "last-round-usage": {
    fetch: async (url, init, state) => {
      const response = await state.fetch(url, init);
      if (!response.ok || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
      const body = await response.text();
      state.lastUsage = usageOf(body) ?? state.lastUsage;
      return new Response(body, { status: response.status, headers: response.headers });
    },
    output: (text, object, state) => {
      if (!isResult(object) || object.usage === undefined || state.lastUsage === undefined) return `${text}\n`;
      const usage = state.lastUsage;
      state.lastUsage = undefined;
      return line({ ...object, usage });
    },
  },
  // Shows each tool call under an id of its own instead of the model's.
  "invented-tool-id": {
    output: (text, object, state) => {
      const content = object?.type === "assistant" ? object.message?.content : undefined;
      if (!Array.isArray(content) || !content.some((b) => b?.type === "tool_use")) return `${text}\n`;
      const renamed = content.map((b) => (b?.type === "tool_use" ? { ...b, id: `toolu_local_${(state.toolIds = (state.toolIds ?? 0) + 1)}` } : b));
      return line({ ...object, message: { ...object.message, content: renamed } });
    },
  },
  // After a block's first delta, opens a second text block while the first is still open and
  // streams the rest there; both are stopped at the end, so every index still pairs up.
  "overlapping-blocks": {
    output: (text, object, state) => {
      if (object?.type === "content_block_delta" && object.index === 0) {
        if (state.overlapping) return line({ ...object, index: 1 });
        state.overlapping = true;
        return `${text}\n${line({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } })}`;
      }
      if (object?.type === "content_block_stop" && object.index === 0 && state.overlapping) {
        state.overlapping = false;
        return `${line({ type: "content_block_stop", index: 1 })}${text}\n`;
      }
      return `${text}\n`;
    },
  },
  // Streams the second basic turn's whole answer, then ends it with an error result.
  "error-after-stream": {
    output: (text, object, state, owed) =>
      isResult(object) && object.subtype === "success" && owed?.tag === "basic-2"
        ? line({ type: "result", subtype: "error", is_error: true, session_id: object.session_id, result: "history_write_failed" })
        : `${text}\n`,
  },
};
