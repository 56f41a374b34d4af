import { KitError } from "../errors.js";
import { describeSchemaErrors, kitSchema } from "../schema.js";
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

/**
 * Reads a recorded transcript. A file whose first line is a header is a kit transcript and
 * every line must match schemas/golden.schema.json; any other file is a plain stdout
 * capture (one line an event, host side unknown).
 */
export function parseTranscript(text: string, name: string, fallbackMode: AgentMode = "stream-json"): Transcript {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let first: unknown;
  try {
    first = JSON.parse(lines[0] ?? "");
  } catch {
    first = undefined;
  }
  const isHeader = first !== null && typeof first === "object" && (first as { kind?: unknown }).kind === "header";
  if (!isHeader) {
    const events: TranscriptEvent[] = lines.map((line, index) => ({ kind: "stdout", t: index, process: 1, line }));
    return { scenario: name, mode: fallbackMode, events, stdoutOnly: true };
  }
  const validate = kitSchema("golden.schema.json");
  const parsed = lines.map((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new KitError("usage", `${name}:${index + 1}: not JSON`);
    }
    if (!validate(value)) throw new KitError("usage", `${name}:${index + 1}: not a transcript line (${describeSchemaErrors(validate.errors)})`);
    return value;
  });
  const header = parsed[0] as TranscriptHeader;
  return { scenario: header.scenario, mode: header.mode, events: parsed.slice(1) as TranscriptEvent[] };
}
