import { parseJson, type JsonIssue, type JsonValue, type ParseResult } from "../json/index.js";
import { MAX_DEPTH, MAX_MESSAGE_BYTES, type JsonObject, type ProviderExchange } from "./types.js";

/** What the kit could make of one stdout capture. */
export interface ResponseReading {
  /** The response document, if one was found (possibly after leading text). */
  document?: JsonValue;
  /** The document when it is an object. */
  object?: JsonObject;
  /** Byte offset where the document starts. */
  start: number;
  /** Why no document was found (empty stdout, syntax error...). */
  failure?: JsonIssue;
  /** Non-JSON text before the document. */
  leadingText?: { offset: number; text: string };
  /** Non-JSON text after the document. */
  trailingText?: { offset: number; text: string };
  /** A further JSON document after the first one. */
  trailingDocument?: { offset: number; text: string };
  /** Reader issues inside the document and in the whole capture (UTF-8). */
  issues: JsonIssue[];
}

const cache = new WeakMap<Uint8Array, ResponseReading>();

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);
}

function decode(bytes: Uint8Array, from: number, max = 200): string {
  return Buffer.from(bytes.subarray(from, from + max)).toString("utf8");
}

/** Offsets at which a line starting with `{` (after blanks) begins. */
function objectLineStarts(bytes: Uint8Array): number[] {
  const starts: number[] = [];
  let lineStart = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      let j = lineStart;
      while (j < i && (bytes[j] === 0x20 || bytes[j] === 0x09 || bytes[j] === 0x0d)) j++;
      if (j < i && bytes[j] === 0x7b) starts.push(j);
      lineStart = i + 1;
    }
  }
  return starts;
}

function classifyRest(bytes: Uint8Array, from: number, reading: ResponseReading): void {
  const rest = bytes.subarray(from);
  const parsed = parseJson(rest, { maxBytes: Number.MAX_SAFE_INTEGER });
  if (parsed.value !== undefined) reading.trailingDocument = { offset: from, text: decode(bytes, from) };
  else reading.trailingText = { offset: from, text: decode(bytes, from) };
}

function parseFrom(bytes: Uint8Array, start: number): ParseResult {
  return parseJson(bytes.subarray(start), { maxBytes: MAX_MESSAGE_BYTES, maxDepth: MAX_DEPTH });
}

function readAt(bytes: Uint8Array, start: number, reading: ResponseReading, parsed = parseFrom(bytes, start)): boolean {
  if (parsed.value === undefined) {
    if (start === 0) reading.failure = parsed.issues.find((i) => i.kind === "syntax" || i.kind === "empty");
    return false;
  }
  reading.document = parsed.value;
  if (isObject(parsed.value)) reading.object = parsed.value;
  reading.start = start;
  for (const issue of parsed.issues) {
    if (issue.kind === "trailing-data") classifyRest(bytes, start + issue.offset, reading);
    else if (issue.kind !== "size" && issue.kind !== "invalid-utf8") reading.issues.push({ ...issue, offset: issue.offset + start });
  }
  return true;
}

/** Finds the response document in stdout, tolerating (and recording) leading diagnostics. */
export function readResponse(stdout: Uint8Array): ResponseReading {
  const known = cache.get(stdout);
  if (known !== undefined) return known;
  const reading: ResponseReading = { start: 0, issues: [] };
  const whole = parseFrom(stdout, 0);
  reading.issues.push(...whole.issues.filter((issue) => issue.kind === "invalid-utf8"));
  if (!readAt(stdout, 0, reading, whole)) {
    for (const start of objectLineStarts(stdout)) {
      if (start === 0) continue;
      if (readAt(stdout, start, reading)) {
        reading.leadingText = { offset: 0, text: decode(stdout, 0, Math.min(start, 200)) };
        delete reading.failure;
        break;
      }
    }
  }
  cache.set(stdout, reading);
  return reading;
}

/** An exchange whose stdout the Host would read: the process exited 0 on its own, within the cap. */
export function isAnswered(exchange: ProviderExchange): boolean {
  const o = exchange.outcome;
  return o.exitCode === 0 && !o.timedOut && !o.stdoutCapped && o.spawnError === undefined;
}

/** The response object of an answered exchange, if stdout holds one. */
export function responseObject(exchange: ProviderExchange): JsonObject | undefined {
  return isAnswered(exchange) ? readResponse(exchange.stdout).object : undefined;
}

/**
 * Whether a resend of the same request (bound in another digest dialect) got further than the
 * first send: an ok answer where the first had none, or any response object where the first
 * ended without one (a nonzero exit, as upstream refuses a binding mismatch).
 */
export function gotFurther(retry: ProviderExchange, first: ProviderExchange): boolean {
  const answer = responseObject(retry);
  const before = responseObject(first);
  if (answer === undefined) return false;
  return (answer.status === "ok" && before?.status !== "ok") || before === undefined;
}

/**
 * Whether a resend bound in another dialect was refused for its binding: it ended without a
 * response object (as upstream refuses a binding mismatch) where the first send got one (a
 * policy error, say). Refused the same way as the first, it is an ordinary answer.
 */
export function refusedForBinding(retry: ProviderExchange, first: ProviderExchange): boolean {
  return responseObject(retry) === undefined && responseObject(first) !== undefined;
}

export function statusOf(exchange: ProviderExchange): string | undefined {
  const status = responseObject(exchange)?.status;
  return typeof status === "string" ? status : undefined;
}
