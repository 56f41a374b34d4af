/**
 * The launch recorder (`--record FILE`, AWP_CONFORMANCE_MOCK_RECORD): what the host gave the
 * mock, appended to FILE as JSON Lines, one synchronous append per event, so a SIGKILL loses
 * nothing already written and several provider processes of one host can share one file.
 * Loaded only when recording is on. Format: docs/mocks.md, "The launch record".
 */
import { appendFileSync, existsSync, fstatSync, readFileSync, readlinkSync, statSync, type Stats } from "node:fs";
import { basename } from "node:path";
import { isatty } from "node:tty";
import { RECORD_HEARTBEAT_MS } from "../core/host/format.js";
import type { MockProtocol } from "./catalogue/types.js";
import { exitReason, noteExit, onCrash, type SignalName } from "./process.js";
import { answerFields, partialBytes, redactEnv, requestFields, stdinLineFields } from "./record-fields.js";

export const RECORD_CAP_BYTES = 16 * 1024 * 1024;
const ALIVE_MAX = 600;

/** Appends events to one record file, up to a cap (then one record-full line, and nothing more). */
export class RecordWriter {
  private full = false;
  private exited = false;

  constructor(
    private readonly file: string,
    private readonly protocol: MockProtocol,
    private readonly cap: number = RECORD_CAP_BYTES,
  ) {}

  /** Writes one event; throws only when the file cannot be written at all (the caller decides). */
  write(event: string, fields: Record<string, unknown> = {}): void {
    if (this.full) return;
    const text = `${JSON.stringify({ v: 1, protocol: this.protocol, pid: process.pid, at: performance.timeOrigin + performance.now(), event, ...fields })}\n`;
    let size = 0;
    try {
      size = statSync(this.file).size;
    } catch {
      // No file yet.
    }
    if (size + Buffer.byteLength(text, "utf8") > this.cap) {
      this.full = true;
      appendFileSync(this.file, `${JSON.stringify({ v: 1, protocol: this.protocol, pid: process.pid, at: performance.timeOrigin + performance.now(), event: "record-full" })}\n`);
      return;
    }
    appendFileSync(this.file, text);
  }

  /** The one `exit` line of this process (later calls write nothing). */
  exit(code: number, reason: string): void {
    if (this.exited) return;
    this.exited = true;
    this.write("exit", { code, reason });
  }
}

type Kind = "pipe" | "file" | "tty" | "socket" | "null" | "other";

function devNull(stats: Stats): boolean {
  try {
    return stats.rdev === statSync("/dev/null").rdev;
  } catch {
    return false;
  }
}

/** What an inherited stdio descriptor is (fstat). */
export function streamOf(fd: number): { isTTY: boolean; kind: Kind } {
  try {
    const stats = fstatSync(fd);
    const tty = isatty(fd);
    const kind: Kind = stats.isFIFO() ? "pipe" : stats.isFile() ? "file" : stats.isSocket() ? "socket" : stats.isCharacterDevice() ? (tty ? "tty" : devNull(stats) ? "null" : "other") : "other";
    return { isTTY: tty, kind };
  } catch {
    return { isTTY: false, kind: "other" };
  }
}

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The command line as the exec gave it: /proc/self/cmdline without node and node's own options (process.argv makes the script path absolute). */
function argvAsGiven(): string[] {
  const cmdline = read("/proc/self/cmdline");
  if (cmdline === null) return process.argv.slice(1);
  const words = cmdline.split("\0");
  if (words[words.length - 1] === "") words.pop();
  return words.slice(1 + process.execArgv.length);
}

function parentOf(): { pid: number; comm: string | null; exe: string | null } {
  let exe: string | null = null;
  try {
    exe = basename(readlinkSync(`/proc/${process.ppid}/exe`));
  } catch {
    exe = null;
  }
  return { pid: process.ppid, comm: read(`/proc/${process.ppid}/comm`)?.trim() ?? null, exe };
}

function groupOf(): { pgid: number | null; sid: number | null } {
  const stat = read("/proc/self/stat");
  const fields = stat === null ? [] : stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const n = (value: string | undefined): number | null => (value === undefined || !/^\d+$/.test(value) ? null : Number(value));
  return { pgid: n(fields[2]), sid: n(fields[3]) };
}

function mcpConfigOf(args: readonly string[]): { path: string; exists: boolean; json: boolean } | null {
  const at = args.indexOf("--mcp-config");
  const path = at === -1 ? undefined : args[at + 1];
  if (path === undefined) return null;
  const exists = existsSync(path);
  let json = false;
  try {
    if (exists && statSync(path).size <= 1024 * 1024) {
      const value: unknown = JSON.parse(readFileSync(path, "utf8"));
      json = value !== null && typeof value === "object" && !Array.isArray(value);
    }
  } catch {
    json = false;
  }
  return { path, exists, json };
}

/** What the running mock tells the record. */
export interface MockRecorder {
  stdinLine(raw: string): void;
  stdinEnd(partial: number): void;
  /** The first bytes of stdin arrived (the provider mock; written once). */
  stdinData(bytes: number): void;
  request(bytes: Buffer, capped: boolean): void;
  /** The provider mock answers now (written just before stdout): the response object, the exit status a fault set, the failure faults that changed it. */
  answer(response: unknown, exitCode: number | undefined, failures: readonly string[]): void;
  /** The provider mock refused the request (exit 2, nothing on stdout). */
  rejected(): void;
  signal(name: SignalName, action: "exit" | "ignored"): void;
  alive(): void;
  exit(code: number, reason: "signal"): void;
  /** One more event of the agent-cli mock's observations (src/mocks/agent-cli/observe.ts): fault, fault-flushed, session, result, host-gone. */
  note(event: string, fields: Record<string, unknown>): void;
}

/**
 * Opens the record: writes the `launch` line at once (a file that cannot be written is the
 * caller's usage error) and the `exit` line when the process exits normally.
 */
export function openRecorder(file: string, protocol: MockProtocol, launch: { mockArgs: readonly string[]; faults: readonly string[] }): MockRecorder {
  const writer = new RecordWriter(file, protocol);
  writer.write("launch", {
    argv: argvAsGiven(),
    mockArgs: launch.mockArgs,
    execPath: process.execPath,
    cwd: process.cwd(),
    env: redactEnv(process.env),
    stdin: streamOf(0),
    stdout: streamOf(1),
    parent: parentOf(),
    ...groupOf(),
    faults: launch.faults,
    ...(protocol === "agent-cli" ? { mcpConfig: mcpConfigOf(launch.mockArgs) } : {}),
  });
  // From here on a failing write stops the record, never the mock.
  const quietly = (fn: () => void): void => {
    try {
      fn();
    } catch {
      // The record is best effort once the launch line is written.
    }
  };
  process.on("exit", (code) => quietly(() => writer.exit(code, exitReason())));
  onCrash(() => quietly(() => writer.exit(139, "fault")));
  let lines = 0;
  let heartbeat: NodeJS.Timeout | undefined;
  return {
    stdinLine: (raw) => quietly(() => writer.write("stdin-line", stdinLineFields(lines++, raw))),
    stdinEnd: (partial) => quietly(() => writer.write("stdin-end", { partial })),
    stdinData: (bytes) => quietly(() => writer.write("stdin-data", { bytes })),
    request: (bytes, capped) =>
      quietly(() => {
        if (!capped) writer.write("stdin-end", { partial: partialBytes(bytes) });
        writer.write("request", requestFields(bytes, capped));
      }),
    answer: (response, exitCode, failures) => quietly(() => writer.write("answer", { ...answerFields(response, exitCode, failures) })),
    rejected: () => quietly(() => writer.write("answer", { status: null, effects: [], exitCode: 2, failures: [], rejected: true })),
    signal: (name, action) => quietly(() => writer.write("signal", { name, action })),
    alive: () => {
      if (heartbeat !== undefined) return;
      let beats = 0;
      // One at once: a process killed within the first interval still shows it was running then.
      quietly(() => writer.write("alive"));
      // Unref'd: the heartbeat never keeps alive a process that would otherwise end.
      heartbeat = setInterval(() => {
        quietly(() => writer.write("alive"));
        beats += 1;
        if (beats >= ALIVE_MAX) {
          noteExit("not-killed");
          process.exit(1);
        }
      }, RECORD_HEARTBEAT_MS).unref();
    },
    exit: (code, reason) => quietly(() => writer.exit(code, reason)),
    note: (event, fields) => quietly(() => writer.write(event, fields)),
  };
}
