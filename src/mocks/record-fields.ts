/**
 * The launch record's fields, computed from what the mock saw (pure, so the unit tests pin
 * them): secret-looking environment values redacted, stdin lines summed up and cut, a
 * provider request summed up. The format is docs/mocks.md "The launch record".
 */
import { createHash } from "node:crypto";
import { SECRET_ENV_NAME } from "../core/agent-cli/launch.js";
import type { JsonValue } from "../core/json/index.js";
import { stableJson } from "../core/json/stable.js";

export const REDACTED = "[redacted]";
/** Characters of a stdin line kept in the record. */
export const TEXT_CHARS = 4096;

/** Every variable, the value of a secret-looking name (the kit's own rule) replaced. */
export function redactEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value !== undefined) out[name] = SECRET_ENV_NAME.test(name) ? REDACTED : value;
  }
  return out;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A `stdin-line` event's fields for one raw line (without its newline). */
export function stdinLineFields(index: number, raw: string): Record<string, unknown> {
  const value = parsed(raw);
  return {
    index,
    bytes: Buffer.byteLength(raw, "utf8"),
    sha256: createHash("sha256").update(raw, "utf8").digest("hex"),
    text: raw.slice(0, TEXT_CHARS),
    truncated: raw.length > TEXT_CHARS,
    json: isPlainObject(value) ? { type: typeof value.type === "string" ? value.type : null } : null,
  };
}

/**
 * Top-level JSON documents in a text, and where the first one ends: a light scan (strings,
 * brackets, bare scalars), so trailing data and a second object count even when the text
 * is not JSON as a whole.
 */
export function scanDocuments(text: string): { count: number; firstEnd: number } {
  let count = 0;
  let firstEnd = -1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let inScalar = false;
  const close = (at: number): void => {
    if (firstEnd === -1) firstEnd = at;
  };
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') {
        inString = false;
        if (depth === 0) close(i + 1);
      }
      continue;
    }
    if (inScalar && !/[^\s{}[\]",:]/.test(ch)) {
      inScalar = false;
      close(i);
    }
    if (ch === '"') {
      if (depth === 0) count += 1;
      inString = true;
    } else if (ch === "{" || ch === "[") {
      if (depth === 0) count += 1;
      depth += 1;
    } else if (ch === "}" || ch === "]") {
      if (depth > 0) depth -= 1;
      if (depth === 0) close(i + 1);
    } else if (depth === 0 && !inScalar && /[^\s,:]/.test(ch)) {
      count += 1;
      inScalar = true;
    }
  }
  if (inScalar || firstEnd === -1) close(text.length);
  return { count, firstEnd };
}

/**
 * What tells an invocation's event apart (`toolEvent`): its name, its native tool call id, and a
 * hash of the whole event object with sorted keys, so the same event sent to several providers
 * (or twice to one) shows as the same hash. Null when the request has no event object.
 */
export function toolEventOf(request: Record<string, unknown> | undefined): { name: string | null; callId: string | null; sha256: string } | null {
  const event = request?.event;
  if (!isPlainObject(event)) return null;
  const tool = isPlainObject(event.tool) ? event.tool : undefined;
  const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
  return { name: str(event.name), callId: str(tool?.call_id), sha256: createHash("sha256").update(stableJson(event as JsonValue), "utf8").digest("hex") };
}

/** A provider `request` event's fields. */
export function requestFields(bytes: Buffer, capped: boolean): Record<string, unknown> {
  const text = bytes.toString("utf8");
  const { count, firstEnd } = scanDocuments(text);
  const whole = parsed(text);
  const first = isPlainObject(whole) ? whole : parsed(text.slice(text.charCodeAt(0) === 0xfeff ? 1 : 0, firstEnd));
  const object = isPlainObject(first) ? first : undefined;
  const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
  return {
    bytes: bytes.length,
    documents: count,
    method: str(object?.method),
    id: str(object?.request_id),
    deadline: object !== undefined && Object.hasOwn(object, "budget_ms") ? { budget_ms: object.budget_ms } : null,
    operation: str(object?.operation),
    toolEvent: toolEventOf(object),
    json: isPlainObject(whole),
    ...(capped ? { capped: true } : {}),
  };
}

/** Bytes after the last newline (an unterminated last line). */
export function partialBytes(bytes: Buffer): number {
  const nl = bytes.lastIndexOf(0x0a);
  return bytes.length - (nl + 1);
}

/** A provider `answer` event's fields: what the mock answered, and which faults made that answer a failure. */
export interface AnswerFields {
  /** The response's status ("ok", "error", or what a fault put there), null when it is not an object with a string status. */
  status: string | null;
  /** The type of each effect of the response. */
  effects: string[];
  /** The exit status a fault set for the answer, or null (the process then ends with 0). */
  exitCode: number | null;
  /** The faults that changed this answer into a failed call (catalogue: host rule marked failure). */
  failures: string[];
  /** The mock refused the request (exit 2, no answer on stdout). */
  rejected?: boolean;
}

/** The fields of an `answer` event from the response object the mock wrote (after its response faults). */
export function answerFields(response: unknown, exitCode: number | undefined, failures: readonly string[]): AnswerFields {
  const object = isPlainObject(response) ? response : undefined;
  const effects = Array.isArray(object?.effects) ? object.effects : [];
  return {
    status: typeof object?.status === "string" ? object.status : null,
    effects: effects.map((e) => (isPlainObject(e) && typeof e.type === "string" ? e.type : "?")),
    exitCode: exitCode ?? null,
    failures: [...failures],
  };
}
