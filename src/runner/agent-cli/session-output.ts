/**
 * Turns a live session's stdout/stderr chunks into transcript events: one stdout
 * event per LF-terminated line, one stderr event per chunk (up to a cap), and the
 * guards of the Desktop (oversize line, total stdout) that make the kit stop the
 * runtime. Nothing here touches the process; `onGuard` asks the session to stop it.
 */
import { STDOUT_CAP_NOTE_END, type TranscriptEvent } from "../../core/agent-cli/types.js";
import { DEFAULT_OVERSIZE_HEAD_BYTES, LineSplitter } from "./lines.js";
import type { OutputBudget } from "./output-budget.js";
import type { ResolvedLimits, StdoutLine } from "./session-types.js";

/** An event without the fields the session fills in (t, process). */
export type EventBody<E = TranscriptEvent> = E extends TranscriptEvent ? Omit<E, "t" | "process"> : never;
/** Records an event and returns its t. */
export type Recorder = (event: EventBody) => number;

export interface OutputHooks {
  /** A complete stdout line was recorded (after its event). */
  onLine: (line: StdoutLine) => void;
  /** A guard tripped: the kit must stop the runtime. */
  onGuard: (reason: string) => void;
}

export const STDERR_TRUNCATED_NOTE = "stderr truncated";

export class OutputRecorder {
  readonly lines: StdoutLine[] = [];
  private readonly splitter: LineSplitter;
  private readonly lineDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly stderrDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private stdoutSeen = 0;
  private stderrSeen = 0;
  private stderrKept = 0;
  private stderrTruncated = false;
  /** Set once a guard tripped: stdout is drained but no longer recorded. */
  private stdoutIgnored = false;
  /** Set by finish(): the exit is recorded, nothing more may be. */
  private closed = false;

  constructor(
    private readonly record: Recorder,
    private readonly limits: Pick<ResolvedLimits, "maxLineBytes" | "maxStdoutBytes" | "maxLines" | "stderrCap">,
    private readonly hooks: OutputHooks,
    private readonly budget?: OutputBudget,
  ) {
    this.splitter = new LineSplitter({ maxLineBytes: limits.maxLineBytes });
  }

  /** Stdout bytes received so far (recorded or not). */
  get stdoutBytes(): number {
    return this.stdoutSeen;
  }

  /** Stderr bytes received so far (recorded or not). */
  get stderrBytes(): number {
    return this.stderrSeen;
  }

  stdout(chunk: Uint8Array): void {
    if (this.closed || this.stdoutIgnored || chunk.byteLength === 0) return;
    this.stdoutSeen += chunk.byteLength;
    const { lines, oversize } = this.splitter.push(chunk);
    for (const raw of lines) {
      if (this.lines.length >= this.limits.maxLines) return this.trip(`${this.limits.maxLines} lines`);
      const passed = this.budget?.takeLine(raw);
      if (passed !== undefined) return this.trip(passed);
      this.addLine(raw);
    }
    if (oversize) {
      this.stdoutIgnored = true;
      this.budget?.force(oversize.head);
      this.record({ kind: "stdout", line: this.lineDecoder.decode(oversize.head), oversize: true, bytes: oversize.bytes });
      this.hooks.onGuard("runtime_output_oversize");
      return;
    }
    if (this.stdoutSeen > this.limits.maxStdoutBytes) this.trip(`${this.limits.maxStdoutBytes} bytes`);
  }

  stderr(chunk: Uint8Array): void {
    if (this.closed || chunk.byteLength === 0) return;
    this.stderrSeen += chunk.byteLength;
    if (this.stderrTruncated) return;
    const room = this.limits.stderrCap - this.stderrKept;
    if (chunk.byteLength <= room) {
      this.stderrKept += chunk.byteLength;
      const text = this.stderrDecoder.decode(chunk, { stream: true });
      if (text !== "") this.record({ kind: "stderr", text });
      return;
    }
    this.stderrKept += room;
    this.stderrTruncated = true;
    // Flush: a multi-byte character cut by the cap becomes U+FFFD.
    const text = this.stderrDecoder.decode(chunk.subarray(0, room));
    if (text !== "") this.record({ kind: "stderr", text });
    this.record({ kind: "note", text: STDERR_TRUNCATED_NOTE });
  }

  /** At exit: record the unterminated stdout rest (partial) and flush stderr; later chunks are ignored. */
  finish(): void {
    if (this.closed) return;
    this.closed = true;
    const rest = this.stdoutIgnored ? undefined : this.splitter.end();
    if (rest !== undefined) this.recordPartial(rest);
    if (!this.stderrTruncated) {
      const text = this.stderrDecoder.decode();
      if (text !== "") this.record({ kind: "stderr", text });
    }
  }

  /** The unterminated rest at exit; past the run's budget only its head is kept, and a note says so. */
  private recordPartial(rest: Uint8Array): void {
    const passed = this.budget?.takeLine(rest);
    if (passed === undefined) {
      this.record({ kind: "stdout", line: this.lineDecoder.decode(rest), partial: true });
      return;
    }
    const head = rest.subarray(0, DEFAULT_OVERSIZE_HEAD_BYTES);
    this.budget?.force(head);
    this.record({ kind: "stdout", line: this.lineDecoder.decode(head), partial: true });
    this.record({ kind: "note", text: `the last stdout line (${rest.byteLength} bytes, no newline) is recorded cut to its first ${head.byteLength}: stdout passed ${passed}` });
  }

  private trip(limit: string): void {
    this.stdoutIgnored = true;
    this.record({ kind: "note", text: `stdout passed ${limit}${STDOUT_CAP_NOTE_END}` });
    this.hooks.onGuard(`stdout passed ${limit}`);
  }

  private addLine(raw: Uint8Array): void {
    const text = this.lineDecoder.decode(raw);
    const t = this.record({ kind: "stdout", line: text });
    const line: StdoutLine = {
      index: this.lines.length,
      t,
      text,
      get json(): unknown {
        const parsed = parseJson(text);
        return parsed.ok ? parsed.value : undefined;
      },
    };
    this.lines.push(line);
    this.hooks.onLine(line);
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(trimmed) as unknown };
  } catch {
    return { ok: false };
  }
}
