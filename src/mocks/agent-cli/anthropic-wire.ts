/**
 * The agent-cli mock speaking Anthropic Messages: the reference (an OpenAI chat completions
 * client) is left as it is, and its model requests are translated on the way out to what a CLI
 * written against the Messages API sends (POST <origin>/v1/messages, x-api-key,
 * anthropic-version, max_tokens, the user's blocks as the Desktop gave them), and the streamed
 * answer back into chat completion chunks. The anthropic-* faults bend the translated request.
 */
import { isObj, type Obj } from "../process.js";

/** The version the requests name (https://docs.anthropic.com/en/api/versioning). */
export const ANTHROPIC_VERSION = "2023-06-01";
const MAX_TOKENS = 1024;

export interface AnthropicRequest {
  url: string;
  headers: Record<string, string>;
  body: Obj & { messages: Obj[] };
}

/** The blocks of user lines the reference accepted, by the text the reference sends for them. */
export type Originals = ReadonlyMap<string, readonly Obj[]>;

/** The reference's text fallback for a document (examples/reference-agent-cli/content.mjs): not the user's text. */
const FALLBACK = /^\[document omitted: /;

/** The key a user line or an OpenAI user message is known by: its own text, joined. */
export function textKey(blocks: readonly unknown[]): string {
  return blocks.flatMap((b) => (isObj(b) && b.type === "text" && typeof b.text === "string" && b.text.trim() !== "" && !FALLBACK.test(b.text) ? [b.text] : [])).join("\n");
}

/** The blocks of a user line the reference passes on (text that is not blank, images, documents). */
export function keptBlocks(content: unknown): Obj[] {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  return blocks.filter((b): b is Obj => isObj(b) && ((b.type === "text" && typeof b.text === "string" && b.text.trim() !== "") || b.type === "image" || b.type === "document"));
}

function fromPart(part: unknown): Obj[] {
  if (!isObj(part)) return [];
  if (part.type === "text" && typeof part.text === "string") return [{ type: "text", text: part.text }];
  const url = isObj(part.image_url) && typeof part.image_url.url === "string" ? part.image_url.url : "";
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return data === null ? [] : [{ type: "image", source: { type: "base64", media_type: data[1], data: data[2] } }];
}

function userBlocks(content: unknown, originals: Originals): Obj[] {
  const parts = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  return originals.get(textKey(parts))?.map((b) => ({ ...b })) ?? parts.flatMap(fromPart);
}

function assistantBlocks(message: Obj): Obj[] {
  const blocks: Obj[] = typeof message.content === "string" && message.content !== "" ? [{ type: "text", text: message.content }] : [];
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    if (!isObj(call) || !isObj(call.function)) continue;
    let input: unknown = {};
    try {
      input = JSON.parse(String(call.function.arguments ?? "{}"));
    } catch {
      // Arguments that are not JSON are sent as none.
    }
    blocks.push({ type: "tool_use", id: String(call.id), name: String(call.function.name), input: isObj(input) ? input : {} });
  }
  return blocks;
}

/** The Messages API messages for chat completion messages (tool results become user tool_result blocks). */
function toMessages(messages: readonly unknown[], originals: Originals): { system: string[]; messages: Obj[] } {
  const system: string[] = [];
  const out: Obj[] = [];
  for (const message of messages) {
    if (!isObj(message)) continue;
    if (message.role === "system" || message.role === "developer") system.push(String(message.content));
    else if (message.role === "user") out.push({ role: "user", content: userBlocks(message.content, originals) });
    else if (message.role === "assistant") {
      const blocks = assistantBlocks(message);
      if (blocks.length > 0) out.push({ role: "assistant", content: blocks });
    } else if (message.role === "tool") {
      const result = { type: "tool_result", tool_use_id: String(message.tool_call_id), content: String(message.content ?? "") };
      const last = out[out.length - 1];
      const joinable = last?.role === "user" && Array.isArray(last.content) && last.content.every((b) => isObj(b) && b.type === "tool_result");
      if (joinable) (last.content as unknown[]).push(result);
      else out.push({ role: "user", content: [result] });
    }
  }
  return { system, messages: out };
}

function plainHeaders(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** The Messages API request a CLI written against it sends for the reference's chat completion request. */
export function toAnthropic(url: string, init: RequestInit | undefined, body: Obj, originals: Originals): AnthropicRequest {
  const given = plainHeaders(init?.headers);
  const key = /^bearer\s+(.+)$/i.exec(given["authorization"] ?? "")?.[1];
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream", "anthropic-version": ANTHROPIC_VERSION, ...(key !== undefined ? { "x-api-key": key } : {}) };
  const { system, messages } = toMessages(Array.isArray(body.messages) ? body.messages : [], originals);
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((t) =>
    isObj(t) && isObj(t.function) ? [{ name: t.function.name, ...(typeof t.function.description === "string" ? { description: t.function.description } : {}), input_schema: t.function.parameters ?? { type: "object" } }] : [],
  );
  return {
    url: url.replace(/\/chat\/completions$/, "/messages"),
    headers,
    body: { model: body.model, max_tokens: MAX_TOKENS, ...(system.length > 0 ? { system: system.join("\n") } : {}), messages, ...(tools.length > 0 ? { tools } : {}), stream: true },
  };
}

interface StreamState {
  input: number;
  output: number;
  /** Anthropic block index -> OpenAI tool call index. */
  tools: Map<number, number>;
}

const chunk = (delta: Obj, finish: string | null = null): string => `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** One SSE event of the Messages stream as chat completion chunks. */
function translate(block: string, state: StreamState): string {
  const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    return "";
  }
  if (!isObj(event)) return "";
  switch (event.type) {
    case "message_start":
      state.input = isObj(event.message) && isObj(event.message.usage) ? Number(event.message.usage.input_tokens ?? 0) : 0;
      return chunk({ role: "assistant", content: "" });
    case "content_block_start": {
      const b = event.content_block;
      if (!isObj(b) || b.type !== "tool_use") return "";
      const index = state.tools.size;
      state.tools.set(Number(event.index), index);
      return chunk({ tool_calls: [{ index, id: b.id, type: "function", function: { name: b.name, arguments: "" } }] });
    }
    case "content_block_delta": {
      const d = event.delta;
      if (isObj(d) && d.type === "text_delta") return chunk({ content: d.text });
      if (isObj(d) && d.type === "input_json_delta") return chunk({ tool_calls: [{ index: state.tools.get(Number(event.index)) ?? 0, function: { arguments: d.partial_json } }] });
      return "";
    }
    case "message_delta": {
      if (isObj(event.usage)) state.output = Number(event.usage.output_tokens ?? 0);
      const reason = isObj(event.delta) ? event.delta.stop_reason : undefined;
      return typeof reason === "string" ? chunk({}, reason === "tool_use" ? "tool_calls" : "stop") : "";
    }
    case "message_stop":
      return `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: state.input, completion_tokens: state.output } })}\n\ndata: [DONE]\n\n`;
    case "error":
      return `data: ${JSON.stringify({ error: event.error })}\n\n`;
    default:
      return "";
  }
}

/** The Messages stream of a response as the chat completions stream the reference reads, piece by piece as it comes. */
export function toChatStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const state: StreamState = { input: 0, output: 0, tools: new Map() };
  let buffer = "";
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
        let out = "";
        for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
          out += translate(buffer.slice(0, end), state);
          buffer = buffer.slice(end + 2);
        }
        if (out !== "") {
          controller.enqueue(encoder.encode(out));
          return;
        }
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
