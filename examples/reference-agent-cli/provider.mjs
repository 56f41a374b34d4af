// provider.mjs: one streamed request to an OpenAI-compatible chat endpoint.
//
//   POST <base>/chat/completions
//   content-type: application/json
//   authorization: Bearer <AWP_REFERENCE_API_KEY>        (only when set)
//   {"model":M,"messages":[...],"tools":[...],"stream":true,"stream_options":{"include_usage":true}}
//
// The answer is an SSE stream (see sse.mjs) of `chat.completion.chunk`
// objects. Each chunk's choices[0].delta may carry
//   - content:    a piece of answer text, handed to onText() at once, so the
//                 Desktop can render the answer while it is being written;
//   - tool_calls: FRAGMENTS of tool calls, [{index, id?, function:{name?,
//                 arguments?}}]; the pieces with one index are concatenated
//                 into one call, whose arguments are then a JSON text.
// With include_usage, a last chunk carries usage {prompt_tokens,
// completion_tokens}. The stream ends with `data: [DONE]`.
//
// Failures become stable codes (TurnError):
//   provider_http_<status>     the server answered with a non-2xx status
//   provider_timeout           no bytes for AWP_REFERENCE_TIMEOUT_MS
//   provider_request_failed    connection refused, reset, DNS, TLS, ...
//   provider_response_invalid  not SSE, bad UTF-8, a chunk that is not JSON
//   provider_stream_error      the server sent an {"error":...} chunk
//   provider_stream_truncated  the stream ended before [DONE]/finish_reason
// The process being stopped (SIGTERM, shutdown line) gives StoppedError.

import { randomUUID } from "node:crypto";
import { StoppedError, TurnError } from "./codes.mjs";
import { createSseParser } from "./sse.mjs";

const MAX_TOOL_CALLS = 64;

/**
 * Runs one model round. Returns { text, toolCalls: [{id, name, arguments}],
 * usage: {input_tokens, output_tokens} }.
 */
export async function streamChat({ config, model, messages, tools, stopSignal, onText, diag }) {
  if (stopSignal.aborted) throw new StoppedError();
  const controller = new AbortController();
  const stop = () => controller.abort();
  stopSignal.addEventListener("abort", stop, { once: true });

  // The idle timer: armed before the request, re-armed on the response
  // headers and on every body chunk. It only fires when the server has been
  // completely silent for timeoutMs, however long the whole answer takes.
  let timedOut = false;
  let timer;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, config.timeoutMs);
  };

  const headers = { "content-type": "application/json", accept: "text/event-stream" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const offered = tools !== undefined && tools.length > 0 ? { tools } : {};
  const body = JSON.stringify({ model, messages, ...offered, stream: true, stream_options: { include_usage: true } });

  try {
    arm();
    const response = await fetch(config.chatUrl, { method: "POST", headers, body, signal: controller.signal });
    arm();
    if (!response.ok) {
      diag(`model server answered HTTP ${response.status}`);
      throw new TurnError(`provider_http_${response.status}`);
    }
    const type = response.headers.get("content-type");
    if (type && !type.toLowerCase().includes("text/event-stream")) {
      throw new TurnError("provider_response_invalid", `expected text/event-stream, got ${type}`);
    }
    return await readStream(response.body, arm, onText);
  } catch (error) {
    if (stopSignal.aborted) throw new StoppedError();
    if (timedOut || isClientTimeout(error)) {
      diag(`no bytes from the model server for ${config.timeoutMs} ms`);
      throw new TurnError("provider_timeout");
    }
    if (error instanceof TurnError) throw error;
    // fetch() puts the real reason (ECONNREFUSED, ENOTFOUND, ...) in `cause`.
    // Neither carries the request headers, so the API key cannot leak here.
    diag(`model request failed: ${error.cause?.code ?? error.cause?.message ?? error.message}`);
    throw new TurnError("provider_request_failed");
  } finally {
    clearTimeout(timer);
    stopSignal.removeEventListener("abort", stop);
    controller.abort(); // release the connection if we stopped reading early
  }
}

// Node's fetch has its own 300 s header/body timeouts; treat them alike.
function isClientTimeout(error) {
  const code = error?.cause?.code;
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
}

async function readStream(body, arm, onText) {
  if (!body) throw new TurnError("provider_response_invalid", "empty response body");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const parser = createSseParser();
  const round = { text: "", calls: new Map(), usage: null, finished: false, done: false };
  const reader = body.getReader();
  while (!round.done) {
    const { done, value } = await reader.read();
    arm();
    let text;
    try {
      text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    } catch {
      throw new TurnError("provider_response_invalid", "the stream is not UTF-8");
    }
    for (const data of parser.push(text, done)) {
      if (round.done) break; // nothing after [DONE] counts
      handleChunk(data, round, onText);
    }
    if (done) break;
  }
  if (!round.done && !round.finished) throw new TurnError("provider_stream_truncated");
  return { text: round.text, toolCalls: assembleToolCalls(round.calls), usage: round.usage ?? { input_tokens: 0, output_tokens: 0 } };
}

/** Applies one `data:` payload to the round being read. */
function handleChunk(data, round, onText) {
  if (data === "[DONE]") {
    round.done = true;
    return;
  }
  let chunk;
  try {
    chunk = JSON.parse(data);
  } catch {
    throw new TurnError("provider_response_invalid", "an SSE data line is not JSON");
  }
  if (!isObject(chunk)) throw new TurnError("provider_response_invalid", "a chunk is not an object");
  if (chunk.error !== undefined && chunk.error !== null) throw new TurnError("provider_stream_error");
  if (isObject(chunk.usage)) {
    round.usage = { input_tokens: count(chunk.usage.prompt_tokens), output_tokens: count(chunk.usage.completion_tokens) };
  }
  if (chunk.choices === undefined || chunk.choices === null) return;
  if (!Array.isArray(chunk.choices)) throw new TurnError("provider_response_invalid", "choices is not an array");
  // We asked for one answer (n = 1): only choice 0 matters.
  const choice = chunk.choices.find((c) => isObject(c) && (c.index === 0 || c.index === undefined));
  if (!choice) return;
  if (choice.finish_reason) round.finished = true;
  const delta = isObject(choice.delta) ? choice.delta : {};
  if (typeof delta.content === "string" && delta.content !== "") {
    round.text += delta.content;
    onText(delta.content);
  }
  if (delta.tool_calls === undefined || delta.tool_calls === null) return;
  if (!Array.isArray(delta.tool_calls)) throw new TurnError("provider_response_invalid", "tool_calls is not an array");
  delta.tool_calls.forEach((fragment, position) => addToolCallFragment(round.calls, fragment, position));
}

function addToolCallFragment(calls, fragment, position) {
  if (!isObject(fragment)) throw new TurnError("provider_response_invalid", "a tool call fragment is not an object");
  const index = fragment.index ?? position;
  if (!Number.isInteger(index) || index < 0 || index >= MAX_TOOL_CALLS) {
    throw new TurnError("provider_response_invalid", "bad tool call index");
  }
  if (!calls.has(index)) calls.set(index, { id: "", name: "", arguments: "" });
  const call = calls.get(index);
  if (typeof fragment.id === "string" && fragment.id !== "" && call.id === "") call.id = fragment.id;
  const fn = isObject(fragment.function) ? fragment.function : {};
  if (typeof fn.name === "string") call.name += fn.name;
  if (typeof fn.arguments === "string") call.arguments += fn.arguments;
}

function assembleToolCalls(calls) {
  return [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => {
      if (call.name === "") throw new TurnError("provider_response_invalid", "a tool call without a name");
      // Some servers omit ids; the protocol's tool_use block needs one.
      return { ...call, id: call.id || `call_${randomUUID()}` };
    });
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function count(value) {
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
