/**
 * The agent-cli faults that make what the CLI tells the host disagree with what its model did
 * (suites/agent-cli/consistency.yaml): each breaks exactly one clause.
 */
import { textParam } from "../run.js";
import { at, isObj, line, list, type Obj } from "../process.js";
import { isResult, turnSelected, type AgentFault } from "./state.js";

interface Usage {
  input_tokens: number;
  output_tokens: number;
}

const tokens = (value: unknown): number => (typeof value === "number" ? value : 0);

/** The usage an OpenAI-compatible SSE body reported (its usage chunk), in the contract's names. */
function usageOf(body: string): Usage | undefined {
  let usage: Usage | undefined;
  for (const event of body.split("\n\n")) {
    const data = event.startsWith("data: ") ? event.slice(6) : "";
    if (!data.includes('"usage"')) continue;
    try {
      const chunk: unknown = JSON.parse(data);
      const reported = at(chunk, "usage");
      if (isObj(reported)) usage = { input_tokens: tokens(reported.prompt_tokens), output_tokens: tokens(reported.completion_tokens) };
    } catch {
      // Not a JSON chunk: not the usage one.
    }
  }
  return usage;
}

export const CONSISTENCY_FAULTS: Readonly<Record<string, AgentFault>> = {
  // Counts only the turn's last model round: a turn with a tool round reports too little.
  "last-round-usage": () => {
    let lastUsage: Usage | undefined;
    return {
      fetch: async (url, init, next) => {
        const response = await next(url, init);
        if (!response.ok || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
        const body = await response.text();
        lastUsage = usageOf(body) ?? lastUsage;
        return new Response(body, { status: response.status, headers: response.headers });
      },
      output: (text, object) => {
        if (object === undefined || !isResult(object) || object.usage === undefined || lastUsage === undefined) return `${text}\n`;
        const usage = lastUsage;
        lastUsage = undefined;
        return line({ ...object, usage });
      },
    };
  },
  // Shows each tool call under an id of its own instead of the model's.
  "invented-tool-id": () => {
    let ids = 0;
    return {
      output: (text, object) => {
        const content = object?.type === "assistant" ? list(at(object, "message", "content")) : [];
        if (object === undefined || !content.some((b) => isObj(b) && b.type === "tool_use")) return `${text}\n`;
        const renamed = content.map((b) => (isObj(b) && b.type === "tool_use" ? { ...b, id: `toolu_local_${(ids += 1)}` } : b));
        return line({ ...object, message: { ...(object.message as Obj), content: renamed } });
      },
    };
  },
  // After a block's first delta, opens a second text block while the first is still open and
  // streams the rest there; both are stopped at the end, so every index still pairs up.
  "overlapping-blocks": () => {
    let overlapping = false;
    return {
      output: (text, object) => {
        if (object?.type === "content_block_delta" && object.index === 0) {
          if (overlapping) return line({ ...object, index: 1 });
          overlapping = true;
          return `${text}\n${line({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } })}`;
        }
        if (object?.type === "content_block_stop" && object.index === 0 && overlapping) {
          overlapping = false;
          return `${line({ type: "content_block_stop", index: 1 })}${text}\n`;
        }
        return `${text}\n`;
      },
    };
  },
  // Streams the selected turn's whole answer, then ends it with an error result.
  "error-after-stream": (p) => {
    const turn = textParam(p, "turn");
    return {
      output: (text, object, state, owed) =>
        object !== undefined && isResult(object) && object.subtype === "success" && turnSelected(turn, owed, state.kitTags)
          ? line({ type: "result", subtype: "error", is_error: true, session_id: object.session_id, result: "history_write_failed" })
          : `${text}\n`,
    };
  },
};
