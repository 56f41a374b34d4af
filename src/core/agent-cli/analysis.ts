import { carriedTags, directivesIn } from "./directives.js";
import { contentPairing } from "./pairing.js";
import type { ModelCall, SendEvent, StdoutEvent, Transcript, TranscriptEvent } from "./types.js";

export type JsonRecord = { [key: string]: unknown };

export function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** One stdout line, parsed the way the Desktop parses it (trimmed; blank lines skipped). */
export interface OutLine {
  event: StdoutEvent;
  /** Position of the event in the transcript. */
  at: number;
  /** The parsed value when the trimmed line is JSON. */
  json?: unknown;
  object?: JsonRecord;
  blank: boolean;
}

export type InputKind = "user" | "shutdown" | "malformed";

/** One line the host wrote, and what it got back. */
export interface Input {
  event: SendEvent;
  at: number;
  kind: InputKind;
  message?: JsonRecord;
  /** Output attributed to this input (from when it became the one being answered). */
  output: OutLine[];
  terminals: OutLine[];
  /** A malformed line the CLI never answered before the host wrote the next line. */
  ignored: boolean;
  /**
   * Its terminal event came while an older line was still unanswered: the kit paired it by
   * content (the output carries the reply the kit's model gave this line's turn tag).
   */
  pairedByContent?: true;
}

/** Everything one launched process did. */
export interface ProcessView {
  process: number;
  launchAt: number;
  argv: string[];
  inputs: Input[];
  lines: OutLine[];
  /** Output that answers no input: before the first line, or after every input was answered. */
  unattributed: OutLine[];
  exit?: Extract<TranscriptEvent, { kind: "exit" }> & { at: number };
  events: { event: TranscriptEvent; at: number }[];
}

export function isTerminal(object: JsonRecord | undefined): boolean {
  return object !== undefined && (object.type === "result" || object.type === "message_stop");
}

/**
 * The turn ended without an error: a result with is_error false, or a raw stream's
 * message_stop. The contract lets raw streams finish with message_stop instead of the
 * success result; it carries no error, and the Desktop marks the turn done without one
 * (an error needs the failure form, a result with is_error true). So every clause counts a
 * message_stop-ended turn as a completed turn, the same as a success result.
 */
export function endedWithoutError(terminal: OutLine | undefined): boolean {
  const o = terminal?.object;
  return o !== undefined && ((o.type === "result" && o.is_error === false) || o.type === "message_stop");
}

function classify(line: string): { kind: InputKind; message?: JsonRecord } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: "malformed" };
  }
  if (!isRecord(value)) return { kind: "malformed" };
  if (value.type === "shutdown") return { kind: "shutdown" };
  if (value.type === "user" && isRecord(value.message)) {
    const content = value.message.content;
    if (typeof content === "string" || Array.isArray(content)) return { kind: "user", message: value.message };
  }
  return { kind: "malformed" };
}

function parseLine(event: StdoutEvent, at: number): OutLine {
  const trimmed = event.line.trim();
  if (trimmed === "") return { event, at, blank: true };
  try {
    const json: unknown = JSON.parse(trimmed);
    return isRecord(json) ? { event, at, json, object: json, blank: false } : { event, at, json, blank: false };
  } catch {
    return { event, at, blank: false };
  }
}

/** The malformed line has had no answer a host would read: no JSON object (a non-JSON stdout line is skipped, not rendered). */
const unanswered = (input: Input): boolean => input.kind === "malformed" && input.terminals.length === 0 && !input.output.some((l) => l.object !== undefined);

/**
 * Splits a transcript by process and attributes output to inputs: the input being answered
 * is the oldest one without its terminal event, and a terminal event that carries the kit's
 * reply to a younger pending line goes to that line (see answeredBy); a malformed line that
 * is still unanswered when a later line was written counts as ignored (the kit waits before
 * writing on).
 */
export function viewProcesses(transcript: Transcript): ProcessView[] {
  const views = new Map<number, ProcessView>();
  const pending = new Map<number, Input[]>();
  const answeredBy = contentPairing(transcript, (input) => turnTagOf(input.message), answerText);
  const view = (process: number, at: number): ProcessView => {
    let v = views.get(process);
    if (v === undefined) {
      v = { process, launchAt: at, argv: [], inputs: [], lines: [], unattributed: [], events: [] };
      views.set(process, v);
      pending.set(process, []);
    }
    return v;
  };
  transcript.events.forEach((event, at) => {
    const v = view(event.process, at);
    v.events.push({ event, at });
    const queue = pending.get(event.process) as Input[];
    if (event.kind === "launch") {
      v.argv = event.argv;
      v.launchAt = at;
    } else if (event.kind === "exit") {
      v.exit = { ...event, at };
    } else if (event.kind === "send") {
      const { kind, message } = classify(event.line);
      const input: Input = { event, at, kind, output: [], terminals: [], ignored: false, ...(message ? { message } : {}) };
      v.inputs.push(input);
      if (kind !== "shutdown") queue.push(input);
    } else if (event.kind === "stdout") {
      const line = parseLine(event, at);
      v.lines.push(line);
      if (line.blank) return;
      while (queue.length > 1 && unanswered(queue[0] as Input)) {
        (queue.shift() as Input).ignored = true;
      }
      const current = queue[0];
      if (current === undefined) {
        v.unattributed.push(line);
        return;
      }
      current.output.push(line);
      if (!isTerminal(line.object)) return;
      const index = answeredBy(event.process, queue, current.output);
      const owner = queue[index] as Input;
      if (owner !== current) {
        owner.output.push(...current.output);
        current.output = [];
        owner.pairedByContent = true;
      }
      owner.terminals.push(line);
      queue.splice(index, 1);
    }
  });
  return [...views.values()].sort((a, b) => a.process - b.process);
}

/** User turns of a process, in order. */
export function userTurns(view: ProcessView): Input[] {
  return view.inputs.filter((input) => input.kind === "user");
}

/** Text of the blocks of a user message (string content counts as one text block). */
export function userText(message: JsonRecord | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is JsonRecord => isRecord(block) && block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("\n");
}

/** Text a turn streamed: raw text deltas if there are any, else the text blocks of assistant messages. */
export function streamedText(output: readonly OutLine[]): string {
  const objects = output.map((line) => line.object).filter((o): o is JsonRecord => o !== undefined);
  const deltas = objects.filter((o) => o.type === "content_block_delta" && isRecord(o.delta) && o.delta.type === "text_delta");
  if (deltas.length > 0) return deltas.map((o) => String((o.delta as JsonRecord).text ?? "")).join("");
  return objects
    .filter((o) => o.type === "assistant" && isRecord(o.message) && Array.isArray(o.message.content))
    .flatMap((o) => ((o.message as JsonRecord).content as unknown[]).filter((b): b is JsonRecord => isRecord(b) && b.type === "text"))
    .map((block) => String(block.text ?? ""))
    .join("");
}

/** What the Desktop shows of a turn's text: streamed text, then the text of each string result. */
function answerText(output: readonly OutLine[]): string {
  return streamedText(output) + output.map((l) => (l.object?.type === "result" && typeof l.object.result === "string" ? `\n${l.object.result}` : "")).join("");
}

/** Model calls recorded in the transcript, in order. */
export function modelCalls(transcript: Transcript): { call: ModelCall; at: number; t: number; process: number }[] {
  return transcript.events.flatMap((event, at) => (event.kind === "model" ? [{ call: event.call, at, t: event.t, process: event.process }] : []));
}

/** The host ended the process itself (shutdown line, signal, stop): exits after that are not the CLI's doing. */
export function hostEndedAt(view: ProcessView): number | undefined {
  const first = view.events.find(({ event }) =>
    (event.kind === "action" && event.action !== "close-stdin") || (event.kind === "send" && classify(event.line).kind === "shutdown"),
  );
  return first?.at;
}

/** A stretch of output judged as one turn: a user turn live, or the lines up to a terminal event in a stdout capture. */
export interface Segment {
  process: number;
  input?: Input;
  output: OutLine[];
  terminal?: OutLine;
  /** Transcript time the turn started and ended (terminal, or the next line / exit). */
  from: number;
  to: number;
}

export function segments(transcript: Transcript, views: readonly ProcessView[]): Segment[] {
  if (transcript.stdoutOnly === true) {
    const result: Segment[] = [];
    for (const view of views) {
      let current: OutLine[] = [];
      for (const line of view.lines) {
        if (line.blank) continue;
        current.push(line);
        if (isTerminal(line.object)) {
          result.push({ process: view.process, output: current, terminal: line, from: current[0]?.event.t ?? 0, to: line.event.t });
          current = [];
        }
      }
      if (current.length > 0) result.push({ process: view.process, output: current, from: current[0]?.event.t ?? 0, to: Infinity });
    }
    return result;
  }
  return views.flatMap((view) =>
    userTurns(view).map((input) => {
      const terminal = input.terminals[0];
      const next = view.inputs.find((other) => other.at > input.at);
      const end = terminal?.event.t ?? next?.event.t ?? view.exit?.t ?? Infinity;
      return { process: view.process, input, output: input.output, ...(terminal ? { terminal } : {}), from: input.event.t, to: end };
    }),
  );
}

/**
 * Model calls that belong to a segment: for a turn the kit tagged, those whose directive
 * carries the tag (queued turns overlap in time), or, when it has none of its own, the
 * request it was merged into (one that carried its line with another's); for an untagged
 * one, those of its process that the fixture received while the segment was open.
 */
export function callsIn(transcript: Transcript, segment: Segment): ModelCall[] {
  const tag = turnTagOf(segment.input?.message);
  const calls = modelCalls(transcript).filter(({ process }) => process === segment.process);
  if (tag === undefined) return calls.filter(({ call, t }) => (call.startT ?? t) >= segment.from && (call.startT ?? t) <= segment.to).map(({ call }) => call);
  // A tagged turn's own requests carry its tag; one without any (a CLI's internal request,
  // such as a memory extraction) is not the conversation's turn.
  const own = calls.filter(({ call }) => call.directive?.turn === tag).map(({ call }) => call);
  if (own.length > 0) return own;
  // Merged: a request that carried this line with another, before this turn ended (a later one
  // that repeats the conversation in its last message is not this turn's).
  return calls.filter(({ call, t }) => carriedTags(call).includes(tag) && (call.startT ?? t) <= segment.to).map(({ call }) => call);
}

/**
 * The model request a tagged line was merged into, and the other lines it carried: a request
 * of its process carried its turn tag beside another line's that had no request of its own
 * and was still unanswered when the request came (a CLI that repeats the conversation in
 * later requests carries only lines already answered). A CLI that joins the lines written
 * while a turn runs into one request answers them with one terminal event.
 */
export function mergedInto(transcript: Transcript, segment: Segment): { call: ModelCall; others: string[] } | undefined {
  const tag = turnTagOf(segment.input?.message);
  if (tag === undefined) return undefined;
  const calls = modelCalls(transcript).filter(({ process }) => process === segment.process);
  const ownRequest = new Set(calls.flatMap(({ call }) => (call.directive?.turn !== undefined ? [call.directive.turn] : [])));
  const inputs = viewProcesses(transcript).find((v) => v.process === segment.process)?.inputs ?? [];
  const openAt = (other: string, at: number): boolean => inputs.some((i) => turnTagOf(i.message) === other && i.event.t <= at && (i.terminals[0]?.event.t ?? Infinity) >= at);
  const found = calls.find(({ call, t }) => {
    const tags = carriedTags(call);
    return tags.length > 1 && tags.includes(tag) && tags.some((other) => other !== tag ? !ownRequest.has(other) && openAt(other, call.startT ?? t) : !ownRequest.has(other));
  });
  return found === undefined ? undefined : { call: found.call, others: carriedTags(found.call).filter((t) => t !== tag) };
}

/** The key=value pairs of the last `[[awp-fixture ...]]` directive in a user message (values decoded). */
export function directiveOf(message: JsonRecord | undefined): Record<string, string> | undefined {
  return directivesIn(userText(message)).at(-1);
}

/** The turn tag of the kit's fixture directive in a user message, if any. */
export function turnTagOf(message: JsonRecord | undefined): string | undefined {
  return directiveOf(message)?.turn;
}
