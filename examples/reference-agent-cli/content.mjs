// content.mjs: AWP content blocks -> OpenAI chat "content parts".
//
// The Desktop sends Anthropic-style blocks. An OpenAI-compatible server wants
// its own part shapes, so each block is converted:
//
//   {type:"text", text}                      -> {type:"text", text}
//   {type:"image", source:{type:"base64",
//      media_type, data}}                    -> {type:"image_url",
//                                                image_url:{url:"data:<media_type>;base64,<data>"}}
//   {type:"document", source:{type:"base64",
//      media_type, data}}                    -> {type:"text", text:
//                                                "[document omitted: <media_type>, <N> bytes]"}
//
// Chat completions have no portable way to send a PDF, so a document becomes
// that DOCUMENTED TEXT FALLBACK: the model learns that a document was attached
// and how big it was, nothing more. The contract allows this ("reject
// unsupported blocks explicitly or convert them to a documented fallback").
//
// Any other block type (tool_result, a file path, a URL source, ...) rejects
// the WHOLE line with `unsupported_content_block`; the model is not called. A
// block of a known type that lacks its text/data is `invalid_input_message`.
// Nothing here ever opens a file or runs a command named in the input.

import { TurnError } from "./codes.mjs";

// An RFC 6838 media type: type "/" subtype, restricted name characters.
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
// Standard, padded base64 (what the Desktop produces), checked in two parts:
// the body has only alphabet characters, the last two may be "=" padding.
// (A single anchored regex would overflow the regex stack on a 25 MiB image.)
const BASE64_BODY_BAD = /[^A-Za-z0-9+/]/;
const BASE64_TAIL = /^(?:[A-Za-z0-9+/]{2}|[A-Za-z0-9+/]=|==)$/;

/**
 * Converts message.content (a string or an array of blocks) into OpenAI
 * content parts. Throws TurnError with the code to report.
 */
export function toContentParts(content) {
  if (typeof content === "string") content = [{ type: "text", text: content }];
  if (!Array.isArray(content)) throw new TurnError("invalid_input_message", "content must be a string or an array");

  const parts = [];
  for (const block of content) {
    if (block === null || typeof block !== "object" || Array.isArray(block) || typeof block.type !== "string") {
      throw new TurnError("invalid_input_message", "a content block must be an object with a type");
    }
    const part = convertBlock(block);
    if (part) parts.push(part);
  }
  // Nothing left to ask the model: an empty array, or only blank text.
  if (parts.length === 0) throw new TurnError("empty_input_content", "no usable content");
  return parts;
}

function convertBlock(block) {
  switch (block.type) {
    case "text":
      if (typeof block.text !== "string") throw new TurnError("invalid_input_message", "text block without text");
      // Blank text carries nothing; dropping it lets "only blank" count as empty.
      return block.text.trim() === "" ? null : { type: "text", text: block.text };
    case "image": {
      const { mediaType, data } = base64Source(block);
      if (!mediaType.toLowerCase().startsWith("image/")) {
        throw new TurnError("invalid_input_message", "image block with a non-image media type");
      }
      return { type: "image_url", image_url: { url: `data:${mediaType};base64,${data}` } };
    }
    case "document": {
      const { mediaType, data } = base64Source(block);
      return { type: "text", text: `[document omitted: ${mediaType}, ${decodedLength(data)} bytes]` };
    }
    default:
      throw new TurnError("unsupported_content_block", "unsupported content block type");
  }
}

/** Checks an image/document `source` and returns its media type and data. */
function base64Source(block) {
  const source = block.source;
  if (source === null || typeof source !== "object" || Array.isArray(source)) {
    throw new TurnError("invalid_input_message", `${block.type} block without a source`);
  }
  // URL or file sources would make this CLI fetch or open something named by
  // the input. This reference only takes inline bytes.
  if (source.type !== "base64") throw new TurnError("unsupported_content_block", "only base64 sources are supported");
  const mediaType = source.media_type;
  const data = source.data;
  if (typeof mediaType !== "string" || !MEDIA_TYPE.test(mediaType)) {
    throw new TurnError("invalid_input_message", `${block.type} block with a bad media_type`);
  }
  if (typeof data !== "string" || !isBase64(data)) {
    throw new TurnError("invalid_input_message", `${block.type} block with missing or malformed base64 data`);
  }
  return { mediaType, data };
}

function isBase64(data) {
  return data.length > 0 && data.length % 4 === 0 && !BASE64_BODY_BAD.test(data.slice(0, -2)) && BASE64_TAIL.test(data.slice(-2));
}

/** Byte count of decoded base64, computed without decoding it. */
function decodedLength(data) {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}
