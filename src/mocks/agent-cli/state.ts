/**
 * The agent-cli mock's view of its session: the launch flags, which input lines the
 * reference still owes a result (it answers every non-blank line except a shutdown line with
 * exactly one), the turn each result belongs to, how faults pick a turn; and the building
 * blocks of the faults (one module with the state, so a mock starts with few files).
 */
import type { FaultParams } from "../catalogue/types.js";
import { isObj, parseObject, type MockContext, type Obj } from "../process.js";
import type { AgentHooks } from "./main.js";

/** Flags the Desktop puts after the operator's prefix arguments. */
const DESKTOP_FLAGS = new Set(["--output-format", "--input-format", "--print", "--verbose", "--model", "--resume", "--mcp-config"]);
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
const TURN_TAG = /\[\[awp-fixture\b[^\]]*?\sturn=([^\s\]]+)/g;
/** The kit's model fixture directive: input that carries one comes from the kit. */
export const KIT_DIRECTIVE = "[[awp-fixture";

export type Fetch = typeof globalThis.fetch;

/** An input line the reference will answer with exactly one result. */
export interface Owed {
  kind: "user" | "other";
  /** The kit's turn tag of a user line, if any. */
  tag: string | undefined;
  /** For a user line: its number among the process's user lines (1-based); 0 otherwise. */
  index: number;
  /** Lines of the answer written so far. */
  lines: number;
  /** The launch record's index of the stdin line (null: the unterminated last line). */
  line: number | null;
}

/** What the launch record hears from the faults (no-ops when recording is off). */
export interface FaultNotes {
  /** The fault `name` fired now, in the turn of `owed` (if any); `fields` say how. */
  fired(name: string, owed: Owed | undefined, fields?: Readonly<Record<string, unknown>>): void;
  /** Notes `fault-flushed` once the stdout write being made now (the fault's) has been handed to the pipe whole. */
  whenFlushed(name: string, owed: Owed | undefined): void;
}

export interface State {
  resumed: boolean;
  mcpConfig: string | undefined;
  model: string | undefined;
  /** Lines handed to the reference that it has not answered yet (oldest first). */
  pending: Owed[];
  inputEnded: boolean;
  /** Callbacks run once nothing is pending; each returns text to write. */
  idle: (() => string)[];
  /** The real process.stdout.write and globalThis.fetch. */
  rawWrite: (text: string, callback?: () => void) => boolean;
  fetch: Fetch;
  /** User lines seen so far (the number of the latest). */
  userLines: number;
  /** Some input carried the kit's directive. */
  kitTags: boolean;
  /** A turn is in flight: a line was accepted and its result is not written yet. */
  readonly inFlight: boolean;
  /** Writes what `fn` returns now if nothing is pending, else after the last result. */
  whenIdle(fn: () => string): void;
  /** Tells the launch record when a fault fires (src/mocks/agent-cli/observe.ts). */
  notes: FaultNotes;
}

const SILENT_NOTES: FaultNotes = { fired: () => undefined, whenFlushed: () => undefined };

/** Splits argv (without node and the script) into the operator's prefix and the Desktop's flags. */
export function splitArgv(argv: readonly string[]): { prefix: string[]; desktop: string[] } {
  const at = argv.findIndex((arg) => DESKTOP_FLAGS.has(arg));
  return at === -1 ? { prefix: [...argv], desktop: [] } : { prefix: argv.slice(0, at), desktop: argv.slice(at) };
}

/** The value after `flag` in a list of arguments, if any. */
export function valueOf(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at === -1 || at + 1 >= args.length ? undefined : args[at + 1];
}

/** The Desktop flags with a --model the reference would refuse replaced by `fake-model`. */
export function saneModel(desktop: readonly string[]): string[] {
  const at = desktop.indexOf("--model");
  const model = at === -1 ? undefined : desktop[at + 1]?.trim();
  if (model === undefined || (model.length >= 1 && model.length <= 256 && !CONTROL_CHARS.test(model))) return [...desktop];
  return [...desktop.slice(0, at + 1), "fake-model", ...desktop.slice(at + 2)];
}

/** The user message of an input line ({"type":"user","message":{...}}), or undefined. */
export function userMessage(text: string): Obj | undefined {
  const value = parseObject(text);
  return value?.type === "user" && isObj(value.message) ? value.message : undefined;
}

/** Text of a message content (a string, or text blocks / OpenAI text parts joined with "\n"). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((block) => (isObj(block) && block.type === "text" && typeof block.text === "string" ? [block.text] : [])).join("\n");
}

/** The turn tag of the kit's `[[awp-fixture ... turn=TAG ...]]` directive in a text. */
export function turnTag(text: string): string | undefined {
  const matches = [...text.matchAll(TURN_TAG)];
  const raw = matches[matches.length - 1]?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * Whether a turn selector picks this turn: a number N is the Nth user line; a kit tag
 * (basic-2) is the turn the kit tagged so, or, in a session whose input never carried the
 * kit's directive (any other host's), the tag's number (basic-2: the 2nd user line).
 */
export function turnSelected(selector: string, turn: { tag: string | undefined; index: number } | undefined, kitTags: boolean): boolean {
  if (turn === undefined) return false;
  if (/^\d+$/.test(selector)) return turn.index === Number(selector);
  if (kitTags) return turn.tag === selector;
  const n = /-(\d+)$/.exec(selector)?.[1];
  return n !== undefined && turn.index === Number(n);
}

/** What the reference will owe for an input line (`line`: its index in the launch record): nothing for a blank or shutdown line, otherwise one result. */
export function owedFor(text: string, index: number, line: number | null = null): Owed | undefined {
  if (text.trim() === "") return undefined;
  const value = parseObject(text);
  if (value?.type === "shutdown") return undefined;
  const message = userMessage(text);
  if (message === undefined) return { kind: "other", tag: undefined, index: 0, lines: 0, line };
  return { kind: "user", tag: turnTag(textOf(message.content)), index, lines: 0, line };
}

export function createState(desktop: readonly string[]): State {
  const rawWrite = process.stdout.write.bind(process.stdout) as State["rawWrite"];
  return {
    resumed: valueOf(desktop, "--resume") !== undefined,
    mcpConfig: valueOf(desktop, "--mcp-config"),
    model: valueOf(desktop, "--model"),
    pending: [],
    inputEnded: false,
    idle: [],
    rawWrite,
    fetch: globalThis.fetch,
    userLines: 0,
    kitTags: false,
    get inFlight(): boolean {
      return this.pending.length > 0;
    },
    whenIdle(fn: () => string): void {
      if (this.inFlight) this.idle.push(fn);
      else this.rawWrite(fn());
    },
    notes: SILENT_NOTES,
  };
}

// ---- building blocks of the faults

export type AgentFault = (params: FaultParams, ctx: MockContext) => AgentHooks;

export const isResult = (o: Obj | undefined): boolean => o?.type === "result";
export const isSuccess = (o: Obj | undefined): boolean => isResult(o) && o?.subtype === "success";
export const isErrorResult = (o: Obj | undefined): boolean => isResult(o) && o?.subtype !== "success" && o?.is_error === true;

/** An output hook that rewrites matching event objects (and keeps every other line as it is). */
export function rewrite(matches: (o: Obj, state: State, owed: Owed | undefined) => boolean, change: (o: Obj, state: State, owed: Owed | undefined) => string): NonNullable<AgentHooks["output"]> {
  return (text, object, state, owed) => (object !== undefined && matches(object, state, owed) ? change(object, state, owed) : `${text}\n`);
}

/** An output hook that drops matching event objects. */
export function drop(matches: (o: Obj, state: State) => boolean): NonNullable<AgentHooks["output"]> {
  return rewrite(matches, () => "");
}

/** The same hooks whatever the parameters. */
export const fixed = (hooks: AgentHooks): AgentFault => () => hooks;

/** An input hook that removes content blocks of one type from user lines. */
export function withoutBlocks(type: string): NonNullable<AgentHooks["input"]> {
  return (text) => {
    const value = parseObject(text);
    const message = userMessage(text);
    const content = message?.content;
    if (value === undefined || message === undefined || !Array.isArray(content)) return text;
    const kept = content.filter((block) => !(isObj(block) && block.type === type));
    return kept.length === content.length ? text : JSON.stringify({ ...value, message: { ...message, content: kept } });
  };
}

/** The JSON body of a request, when it is one. */
export function jsonBody(init: RequestInit | undefined): Obj | undefined {
  return typeof init?.body === "string" ? parseObject(init.body) : undefined;
}

/** A fetch hook that edits the JSON request body the reference sends its model (OpenAI messages). */
export function editRequest(edit: (body: Obj & { messages: unknown[] }, state: State) => void): NonNullable<AgentHooks["fetch"]> {
  return (url, init, next, state) => {
    const body = jsonBody(init);
    if (body === undefined || !Array.isArray(body.messages)) return next(url, init);
    edit(body as Obj & { messages: unknown[] }, state);
    return next(url, { ...init, body: JSON.stringify(body) });
  };
}

/** The last user message of an OpenAI messages array. */
export function lastUser(messages: readonly unknown[]): Obj | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (isObj(message) && message.role === "user") return message;
  }
  return undefined;
}

/** Applies `change` to every text part of a user message (string content counts as one). */
export function mapText(message: Obj | undefined, change: (text: string) => string): void {
  if (message === undefined) return;
  if (typeof message.content === "string") message.content = change(message.content);
  else if (Array.isArray(message.content)) {
    message.content = message.content.map((part: unknown) => (isObj(part) && part.type === "text" && typeof part.text === "string" ? { ...part, text: change(part.text) } : part));
  }
}

/**
 * A fault that never writes the result of a user turn matching `matches(text, content)`
 * (its text blocks joined, and the content array); every other line, and the turns after
 * it, are left as they are.
 */
export function dropResultOfTurns(matches: (text: string, content: unknown, state: State) => boolean): AgentHooks {
  const drops: boolean[] = [];
  return {
    input: (text, state) => {
      const message = userMessage(text);
      // One entry per user line, in order: the reference answers them one after the other.
      if (message !== undefined) drops.push(matches(textOf(message.content), message.content, state));
      return text;
    },
    output: (text, object, _state, owed) => (isResult(object) && owed?.kind === "user" && drops.shift() === true ? "" : `${text}\n`),
  };
}

/** A successful streamed chat completion saying `text`, as an OpenAI-compatible server sends it. */
export function fakeStream(text: string): Response {
  const chunk = (delta: Obj, finish: string | null = null): string => `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const body = `${chunk({ role: "assistant", content: "" })}${chunk({ content: text })}${chunk({}, "stop")}data: [DONE]\n\n`;
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

