import { isRecord } from "../../agent-cli/analysis.js";
import type { Check } from "../../report/judge.js";
import { eventsOf, notApplicable, perProcess, quote, type Problem } from "../helpers.js";
import type { HostProcess, StdinLineEvent } from "../record.js";
import type { HostRun } from "../types.js";

const ID = "host/input";
const NOTHING_SENT = "the host sent the mock no line: let it send at least one user message in the conversation it started";

const excerpt = (line: StdinLineEvent): string => quote(line.text.length > 80 ? `${line.text.slice(0, 80)}…` : line.text);

function jsonLineProblems(process: HostProcess): Problem[] | undefined {
  const lines = eventsOf(process, "stdin-line");
  const end = eventsOf(process, "stdin-end")[0];
  if (lines.length === 0 && (end === undefined || end.partial === 0)) return undefined;
  const problems: Problem[] = lines.flatMap((line): Problem[] => {
    if (line.json !== null) return [];
    const what = line.bytes === 0 || line.text.trim() === "" ? "a blank line" : "not a JSON object";
    return [{ message: `stdin line ${line.index + 1} is ${what}`, expected: "one JSON object per line", seen: excerpt(line), events: [line] }];
  });
  if (end !== undefined && end.partial > 0) problems.push({ message: `stdin closed after an unterminated last line of ${end.partial} bytes`, expected: "every line ended by a newline", events: [end] });
  return problems;
}

function blockProblem(block: unknown, at: number): string | undefined {
  if (!isRecord(block)) return `content block ${at} is not an object`;
  if (block.type === "text") return typeof block.text === "string" ? undefined : `text block ${at} has no string text`;
  if (block.type === "image" || block.type === "document") {
    const source = block.source;
    const ok = isRecord(source) && source.type === "base64" && typeof source.media_type === "string" && typeof source.data === "string";
    return ok ? undefined : `${block.type} block ${at} has no base64 source with string media_type and data`;
  }
  return `content block ${at} has type ${JSON.stringify(block.type ?? null)}, not text, image or document`;
}

/** The recorded text as JSON, or undefined when it does not parse here (the line is then judged by its type only). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What is wrong with a whole user line (parsed from its recorded text), or undefined. */
function userProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "not an object";
  const message = value.message;
  if (!isRecord(message)) return "message is not an object";
  if (message.role !== "user") return `message.role is ${JSON.stringify(message.role ?? null)}, not "user"`;
  const content = message.content;
  if (!Array.isArray(content) || content.length === 0) return "message.content is not a non-empty array of blocks";
  return content.map((block, i) => blockProblem(block, i + 1)).find((p) => p !== undefined);
}

function wholeProblem(line: StdinLineEvent): string | undefined {
  const value = line.truncated ? undefined : parsed(line.text);
  return value === undefined ? undefined : userProblem(value);
}

function shapeProblems(process: HostProcess): Problem[] | undefined {
  const lines = eventsOf(process, "stdin-line").filter((line) => line.json !== null);
  if (lines.length === 0) return undefined;
  return lines.flatMap((line): Problem[] => {
    const type = line.json?.type ?? null;
    if (type === "shutdown") return [];
    const problem = type !== "user" ? `its type is ${JSON.stringify(type)}, not "user"` : wholeProblem(line);
    return problem === undefined ? [] : [{ message: `stdin line ${line.index + 1} is not a user turn: ${problem}`, expected: '{"type":"user","message":{"role":"user","content":[blocks]}}', seen: excerpt(line), events: [line] }];
  });
}

export const inputChecks: Check<HostRun>[] = [
  perProcess(`${ID}/json-lines`, jsonLineProblems, () => notApplicable(NOTHING_SENT)),
  perProcess(`${ID}/user-shape`, shapeProblems, () => notApplicable(NOTHING_SENT)),
];
