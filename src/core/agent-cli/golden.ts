import { checkNumbers, checkText, INPUT_LIMITS, inputError, parseInputJson, printable, scanJson, splitLines, validateInput, withoutBom } from "../inputs/index.js";
import { parseJson } from "../json/index.js";
import type { AgentMode, Transcript, TranscriptEvent } from "./types.js";

export interface TranscriptHeader {
  kind: "header";
  format: "awp-conformance-transcript";
  version: 1;
  protocol: "agent-cli";
  mode: AgentMode;
  scenario: string;
  recordedAt?: string;
  tool?: string;
  description?: string;
}

/** A transcript as JSON Lines: the header, then one event a line (schemas/golden.schema.json). */
export function transcriptToJsonl(transcript: Transcript, extra: Partial<Pick<TranscriptHeader, "recordedAt" | "tool" | "description">> = {}): string {
  const header: TranscriptHeader = { kind: "header", format: "awp-conformance-transcript", version: 1, protocol: "agent-cli", mode: transcript.mode, scenario: transcript.scenario, ...extra };
  return [header, ...transcript.events].map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/** Every kind of TranscriptEvent (the compiler keeps this list whole: see the type below). */
export const EVENT_KINDS = ["launch", "send", "stdout", "stderr", "action", "exit", "timeout", "model", "note", "leftovers", "controlplane"] as const satisfies readonly TranscriptEvent["kind"][];
type MissingKind = Exclude<TranscriptEvent["kind"], (typeof EVENT_KINDS)[number]>;
/** Fails to compile when a TranscriptEvent kind is missing from EVENT_KINDS. */
const everyKind: MissingKind extends never ? true : never = true;
void everyKind;

/** Numbers a transcript holds are times, counts and codes; model request bodies are the candidate's own data. */
const candidateData = (path: string): boolean => path === "/call/body" || path === "/request/body";

/**
 * Whether the first line announces a kit transcript (an object whose kind is "header"). A
 * line too deep or too large to parse counts when it names the header kind near its start,
 * so that its reader then says what is wrong with it.
 */
function isHeaderLine(line: Uint8Array): boolean {
  const body = withoutBom(line);
  let i = 0;
  while (body[i] === 0x20 || body[i] === 0x09) i++;
  if (body[i] !== 0x7b) return false;
  const { maxDepth, maxValues } = INPUT_LIMITS.transcript;
  const scan = scanJson(body, maxDepth);
  if (scan.deepAt !== -1 || scan.values > maxValues) return /"kind"\s*:\s*"header"/.test(Buffer.from(body.subarray(0, 4096)).toString("latin1"));
  const value = parseJson(body, { maxBytes: body.length, maxDepth }).value;
  return value !== null && typeof value === "object" && !Array.isArray(value) && value.kind === "header";
}

/** One line of a kit transcript: strict JSON, then the schema of its kind (the first offending path named). */
function eventLine(bytes: Uint8Array, name: string, line: number, budget: { values: number }): TranscriptHeader | TranscriptEvent {
  const value = parseInputJson(bytes, name, "transcript", { line, budget, lenient: ["lone-surrogate", "integer-range"] });
  const kind = value !== null && typeof value === "object" && !Array.isArray(value) ? value.kind : undefined;
  const allowed: readonly string[] = line === 1 ? ["header"] : EVENT_KINDS;
  if (typeof kind !== "string" || !allowed.includes(kind)) {
    throw inputError(name, `${line === 1 ? "/kind must be \"header\"" : `/kind must be one of ${EVENT_KINDS.join(", ")}`}, found ${printable(JSON.stringify(kind) ?? "nothing")} (line ${line})`);
  }
  validateInput(value, `golden.schema.json#/$defs/${kind}`, name, { line });
  checkNumbers(value, name, ` (line ${line})`, candidateData);
  return value as unknown as TranscriptHeader | TranscriptEvent;
}

/**
 * Reads a recorded transcript (bytes, or text). A file whose first line is a header is a kit
 * transcript: every line must be strict JSON matching schemas/golden.schema.json. Any other
 * file is a plain stdout capture (one line an event, host side unknown). Either way the file
 * is text within the transcript limits (src/core/inputs/limits.ts); anything else is a usage
 * error "FILE: what is wrong (line N)" (`file` defaults to `name`, the scenario name of a capture).
 */
export function parseTranscript(input: string | Uint8Array, name: string, fallbackMode: AgentMode = "stream-json", file: string = name): Transcript {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  if (bytes.length === 0) throw inputError(file, "the file is empty");
  checkText(bytes, file);
  const lines = splitLines(bytes, file, "transcript");
  const first = lines[0];
  if (first === undefined || !isHeaderLine(first)) {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    const events: TranscriptEvent[] = lines.map((line, index) => ({ kind: "stdout", t: index, process: 1, line: decoder.decode(line) }));
    return { scenario: name, mode: fallbackMode, events, stdoutOnly: true };
  }
  const budget = { values: INPUT_LIMITS.transcript.maxValues };
  const parsed = lines.map((line, index) => eventLine(line, file, index + 1, budget));
  const header = parsed[0] as TranscriptHeader;
  return { scenario: header.scenario, mode: header.mode, events: parsed.slice(1) as TranscriptEvent[] };
}
