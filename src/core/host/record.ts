/**
 * The launch record the mock writes (`mock ... --record FILE`): JSON Lines, one event per line,
 * each line checked against schemas/launch-record.schema.json. Reading never throws on what the
 * file holds: a malformed line, a line too long, events of a process whose launch line is
 * missing, or the writer's record-full marker become issues, and the judge then calls the
 * record incomplete. Events are grouped into processes by pid (a provider host starts one
 * process per call; a pid seen again after a new launch line is a new process).
 */
import { INPUT_LIMITS } from "../inputs/limits.js";
import { parseJson } from "../json/index.js";
import { describeSchemaErrors, kitSchema } from "../schema.js";

export type HostProtocol = "agent-cli" | "provider";
export type StreamKind = "pipe" | "file" | "tty" | "socket" | "null" | "other";

interface Common {
  v: 1;
  protocol: HostProtocol;
  pid: number;
  /** Epoch milliseconds, comparable across processes. */
  at: number;
  /** 1-based line of the record file (set by the reader). */
  line: number;
}

export interface StreamInfo {
  isTTY: boolean;
  kind: StreamKind;
}

export interface LaunchEvent extends Common {
  event: "launch";
  /** The script path as the exec gave it, then every argument. */
  argv: string[];
  /** The arguments a real CLI would have seen (the mock's own options removed). */
  mockArgs: string[];
  execPath: string;
  cwd: string;
  /** Every variable; values of secret-looking names are "[redacted]". */
  env: Record<string, string>;
  stdin: StreamInfo;
  stdout: StreamInfo;
  parent: { pid: number; comm: string | null; exe: string | null };
  pgid: number | null;
  sid: number | null;
  faults: string[];
  mcpConfig?: { path: string; exists: boolean; json: boolean } | null;
}

export interface StdinLineEvent extends Common {
  event: "stdin-line";
  index: number;
  bytes: number;
  sha256: string;
  text: string;
  truncated: boolean;
  json: { type: string | null } | null;
}

export interface StdinEndEvent extends Common {
  event: "stdin-end";
  partial: number;
}

/** The provider mock got the first bytes of its stdin (written once, before the end). */
export interface StdinDataEvent extends Common {
  event: "stdin-data";
  bytes: number;
}

export interface RequestEvent extends Common {
  event: "request";
  bytes: number;
  documents: number;
  method: string | null;
  id: string | null;
  deadline?: unknown;
  json: boolean;
  capped?: boolean;
  /** The invocation's operation (records of older mocks lack it). */
  operation?: string | null;
  /** What tells the invocation's event apart: its name, tool.call_id and a hash of the event object with sorted keys. */
  toolEvent?: { name: string | null; callId: string | null; sha256: string } | null;
}

/** The provider mock answered (just before it wrote stdout), or refused the request. */
export interface AnswerEvent extends Common {
  event: "answer";
  status: string | null;
  effects: string[];
  exitCode: number | null;
  /** The faults that made this answer a failed call. */
  failures: string[];
  rejected?: boolean;
}

export interface SignalEvent extends Common {
  event: "signal";
  name: string;
  action: "exit" | "ignored";
}

export interface AliveEvent extends Common {
  event: "alive";
}

export interface ExitEvent extends Common {
  event: "exit";
  code: number;
  reason: string;
}

/** The agent-cli mock's fault `name` fired now (in the turn of the stdin line of index `input`). */
export interface FaultEvent extends Common {
  event: "fault";
  name: string;
  input: number | null;
  /** huge-line: the length of the unbroken run. */
  bytes?: number;
}

/** The long write of fault `name` was handed to the pipe whole (the host had read all but the pipe's buffer of it). */
export interface FaultFlushedEvent extends Common {
  event: "fault-flushed";
  name: string;
  input: number | null;
}

/** A session id the agent-cli mock gave the host on stdout (each id once per process). */
export interface SessionEvent extends Common {
  event: "session";
  id: string;
}

/** The terminal event the host got for the stdin line of index `input` (a result, or message_stop). */
export interface ResultEvent extends Common {
  event: "result";
  input: number;
  error: boolean;
}

/** stdin ended because the host (the mock's parent at launch) was exiting or gone. */
export interface HostGoneEvent extends Common {
  event: "host-gone";
  parent: number;
}

export type RecordEvent = LaunchEvent | StdinLineEvent | StdinDataEvent | StdinEndEvent | RequestEvent | AnswerEvent | SignalEvent | AliveEvent | ExitEvent | FaultEvent | FaultFlushedEvent | SessionEvent | ResultEvent | HostGoneEvent;

/** One process of the record: its launch line and every later event of its pid, in file order. */
export interface HostProcess {
  pid: number;
  protocol: HostProtocol;
  launch: LaunchEvent;
  events: RecordEvent[];
}

/** Something in the file that keeps the kit from trusting it whole. */
export interface RecordIssue {
  line: number;
  message: string;
}

export interface LaunchRecord {
  processes: HostProcess[];
  issues: RecordIssue[];
  /** Lines read (the last counted one, when the file was cut at the line limit). */
  lines: number;
}

/** What the reader takes from one file (the file itself is read within INPUT_LIMITS.record): beyond these, the record is incomplete. */
const RECORD_LIMITS = INPUT_LIMITS.record;

/** Issues listed one by one; more are counted in one last issue. */
const MAX_LISTED_ISSUES = 20;

function lineIssue(bytes: Uint8Array): string | RecordEvent {
  if (bytes.length > RECORD_LIMITS.maxLineBytes) return `a line of ${bytes.length} bytes, longer than the reader's limit of ${RECORD_LIMITS.maxLineBytes}`;
  // The writer cuts stdin text at 4096 characters, which may split a surrogate pair.
  const parsed = parseJson(bytes, { maxBytes: bytes.length, maxDepth: RECORD_LIMITS.maxDepth });
  const issue = parsed.issues.find((i) => i.kind !== "lone-surrogate");
  if (issue !== undefined) return issue.kind === "empty" ? "a blank line" : `not valid JSON: ${issue.message}`;
  const value = parsed.value;
  const validate = kitSchema("launch-record.schema.json");
  if (!validate(value)) return `not a launch record event (schemas/launch-record.schema.json): ${describeSchemaErrors(validate.errors)}`;
  return value as unknown as RecordEvent;
}

/** Reads a whole record (the bytes of the file); pure, never throws on the content. */
export function parseLaunchRecord(bytes: Uint8Array): LaunchRecord {
  const issues: RecordIssue[] = [];
  const processes: HostProcess[] = [];
  const current = new Map<number, HostProcess>();
  let orphans = 0;
  let line = 0;
  let start = 0;
  const note = (at: number, message: string): void => {
    issues.push({ line: at, message });
  };
  while (start < bytes.length) {
    if (line >= RECORD_LIMITS.maxLines) {
      note(line, `more than ${RECORD_LIMITS.maxLines} lines: the rest of the file was not read`);
      break;
    }
    line++;
    const lf = bytes.indexOf(0x0a, start);
    const end = lf === -1 ? bytes.length : lf;
    const text = bytes.subarray(start, end);
    start = end + 1;
    if (lf === -1) {
      note(line, "an unterminated last line (the writer was stopped mid-line)");
      break;
    }
    const event = lineIssue(text);
    if (typeof event === "string") {
      note(line, event);
      continue;
    }
    if ((event as { event: string }).event === "record-full") {
      note(line, "the writer stopped recording here (record-full): the file reached its size cap");
      break;
    }
    event.line = line;
    if (event.event === "launch") {
      const process: HostProcess = { pid: event.pid, protocol: event.protocol, launch: event, events: [] };
      processes.push(process);
      current.set(event.pid, process);
      continue;
    }
    const owner = current.get(event.pid);
    if (owner === undefined || owner.protocol !== event.protocol) {
      if (orphans++ === 0) note(line, `an event of pid ${event.pid} before any launch line of that pid`);
      continue;
    }
    owner.events.push(event);
  }
  if (orphans > 1) note(line, `${orphans} events in all belong to no launched process`);
  if (issues.length > MAX_LISTED_ISSUES) {
    const more = issues.length - MAX_LISTED_ISSUES;
    issues.length = MAX_LISTED_ISSUES;
    issues.push({ line, message: `${more} more issues` });
  }
  return { processes, issues, lines: line };
}
