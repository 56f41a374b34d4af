// sse.mjs: a small Server-Sent Events parser for streamed chat completions.
//
// With `stream: true` an OpenAI-compatible server answers with
// `content-type: text/event-stream`, a sequence of events separated by blank
// lines:
//
//   data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}
//
//   data: {"choices":[{"index":0,"delta":{"content":"lo"}}]}
//
//   data: [DONE]
//
// Only `data:` fields matter here. Several data lines in one event are joined
// with "\n"; comment lines (":" keep-alives) and other fields (event, id,
// retry) are skipped. Lines may end in "\n", "\r\n" or "\r", and a network
// chunk can stop anywhere, even between "\r" and "\n" or inside a UTF-8
// character (the caller decodes with a streaming TextDecoder).

import { TurnError } from "./codes.mjs";

// One unbroken line longer than this is not a sane chat completion chunk.
const MAX_LINE_CHARS = 8 * 1024 * 1024;

export function createSseParser() {
  let buffer = "";
  let data = null; // data lines of the event being read, or null

  /** Handles one complete line; returns an event's data when one ends. */
  function line(text) {
    if (text === "") {
      const event = data;
      data = null;
      return event;
    }
    if (text.startsWith(":")) return null;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data = data === null ? value : `${data}\n${value}`;
    return null;
  }

  /**
   * Feeds decoded text. Returns the data strings of the events it completed.
   * With `final` set, a last line or event without its terminator counts too.
   */
  function push(text, final = false) {
    buffer += text;
    const events = [];
    let start = 0;
    for (;;) {
      const lf = buffer.indexOf("\n", start);
      const cr = buffer.indexOf("\r", start);
      let end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      let next = end + 1;
      if (buffer[end] === "\r") {
        // "\r" at the very end may be the first half of "\r\n": wait for more.
        if (end === buffer.length - 1 && !final) break;
        if (buffer[end + 1] === "\n") next += 1;
      }
      const event = line(buffer.slice(start, end));
      if (event !== null) events.push(event);
      start = next;
    }
    buffer = buffer.slice(start);
    if (buffer.length > MAX_LINE_CHARS) throw new TurnError("provider_response_invalid", "SSE line too long");
    if (final) {
      if (buffer !== "") line(buffer);
      buffer = "";
      // Be lenient with servers that do not end their last event with a blank line.
      const event = line("");
      if (event !== null) events.push(event);
    }
    return events;
  }

  return { push };
}
