/**
 * A live Agent CLI session: the candidate runs as a long-lived process (its own
 * process group, no shell), the host writes one line per turn to its stdin and
 * reads JSON lines from its stdout as they come, exactly like the Desktop. Every
 * crossing of the process boundary is recorded as a timestamped TranscriptEvent.
 *
 * Whatever the candidate does, nothing here throws, hangs or leaks: every wait has
 * its own timer, the Desktop's output guards stop the runtime, stop() is bounded,
 * and the whole group is reaped once the leader exited, then whatever escaped it
 * (recorded as a "leftovers" event).
 */
import type { TranscriptEvent } from "../../core/agent-cli/types.js";
import { LAUNCH_MARKER_ENV } from "../../core/process-outcome.js";
import { finalizeGroup, releaseGroup, spawnGroup, terminateGroup, type GroupChild, type SpawnOutcome } from "../process-group.js";
import { OutputRecorder, type EventBody } from "./session-output.js";
import {
  DRAIN_WAIT_MS, PIPE_CLOSE_WAIT_MS, STOP_SLACK_MS, resolveLimits,
  type ExitInfo, type HostSignal, type ResolvedLimits, type SessionOptions, type StdoutLine, type WaitLineOptions,
} from "./session-types.js";
import { SessionWaits, endOf, within } from "./session-waits.js";

export type { ExitInfo, HostSignal, SessionOptions, StdoutLine, WaitLineOptions } from "./session-types.js";
export { SESSION_DEFAULTS } from "./session-types.js";

const SIGNAL_ACTIONS = { SIGTERM: "sigterm", SIGKILL: "sigkill" } as const;

export class LiveSession {
  private readonly output: OutputRecorder;
  private readonly waits: SessionWaits;
  private child: GroupChild | undefined;
  private exitInfo: ExitInfo | undefined;
  private killedByKit = false;
  private stdinClosed = false;
  private stopping: Promise<ExitInfo> | undefined;
  /** Settles once the exit is recorded and the group reaped; never rejects. */
  private settled: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: SessionOptions,
    private readonly limits: ResolvedLimits,
  ) {
    this.waits = new SessionWaits((label, afterMs) => this.record({ kind: "timeout", waitingFor: label, afterMs }));
    this.output = new OutputRecorder((event) => this.record(event), limits, {
      onLine: (line) => this.waits.lineAdded(line),
      onGuard: () => void this.stop().catch(() => undefined),
    }, options.budget);
  }

  /** Spawn (records "launch"). A spawn failure gives a session that has already exited; throws only for invalid options. */
  static async start(options: SessionOptions): Promise<LiveSession> {
    const session = new LiveSession(options, resolveLimits(options));
    await session.launch();
    return session;
  }

  /** Complete (LF-terminated) stdout lines so far; oversize and partial lines are only in the events. */
  get lines(): readonly StdoutLine[] {
    return this.output.lines;
  }

  /** Set once the exit event is recorded (after stdout/stderr drained). */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** The leader's pid (= its process group id); undefined when the spawn failed. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Write line + "\n" (records "send"). False, with a note, when stdin is closed or the process exited. */
  send(line: string): boolean {
    const child = this.child;
    if (child === undefined || this.exitInfo !== undefined || child.exitStatus() !== null) {
      this.note(`send refused, the process has exited: ${preview(line)}`);
      return false;
    }
    if (this.stdinClosed || child.stdin.destroyed || child.stdin.writableEnded) {
      this.note(`send refused, stdin is closed: ${preview(line)}`);
      return false;
    }
    this.record({ kind: "send", line });
    // Errors (EPIPE...) arrive as the stdin 'error' event, recorded as a note.
    child.stdin.write(`${line}\n`, () => undefined);
    return true;
  }

  /** End stdin (records action close-stdin). */
  closeStdin(): void {
    this.record({ kind: "action", action: "close-stdin" });
    const stdin = this.child?.stdin;
    if (stdin === undefined || this.stdinClosed || stdin.destroyed || stdin.writableEnded) {
      this.note("stdin was already closed");
    } else {
      stdin.end();
    }
    this.stdinClosed = true;
  }

  /** Signal the child pid only, like the Desktop; the host's ordinary termination (not killedByKit). */
  signal(signal: HostSignal): void {
    if (signal === "SIGINT") this.note("host sent SIGINT");
    else this.record({ kind: "action", action: SIGNAL_ACTIONS[signal] });
    const child = this.child;
    if (child === undefined || child.exitStatus() !== null) {
      this.note(`${signal} not delivered: the process has exited`);
      return;
    }
    try {
      process.kill(child.pid, signal);
    } catch (error) {
      this.note(`${signal} not delivered: ${errorText(error)}`);
    }
  }

  /** First line at index >= from (default: lines.length now) matching predicate; undefined on timeout (recorded) or exit. */
  waitForLine(predicate: (line: StdoutLine) => boolean, options: WaitLineOptions): Promise<StdoutLine | undefined> {
    const from = options.from ?? this.lines.length;
    if (this.exitInfo !== undefined) {
      try {
        return Promise.resolve(this.lines.slice(Math.max(0, from)).find((line) => predicate(line)));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.waits.line(this.lines, predicate, from, options.timeoutMs, options.label);
  }

  /** The exit, or undefined after timeoutMs (recorded as a timeout waiting for `label`, default "exit"). */
  waitExit(timeoutMs: number, label = "exit"): Promise<ExitInfo | undefined> {
    if (this.exitInfo !== undefined) return Promise.resolve(this.exitInfo);
    return this.waits.exit(timeoutMs, label);
  }

  /** Wait ms, or until the exit; records nothing (the caller inspects lines afterwards). */
  waitQuiet(ms: number): Promise<void> {
    if (this.exitInfo !== undefined) return Promise.resolve();
    return this.waits.quiet(ms);
  }

  /** If running: action "stop", SIGTERM to the group, SIGKILL after killGraceMs; then reap. Idempotent, bounded. */
  stop(): Promise<ExitInfo> {
    this.stopping ??= this.runStop();
    return this.stopping;
  }

  private async runStop(): Promise<ExitInfo> {
    const child = this.child;
    if (child !== undefined && child.exitStatus() === null && this.exitInfo === undefined) {
      this.record({ kind: "action", action: "stop" });
      this.killedByKit = true;
      const grace = this.limits.killGraceMs;
      if (!(await within(terminateGroup(child, grace), grace + STOP_SLACK_MS))) return this.abandon(child);
    }
    await this.settled;
    return this.exitInfo ?? this.recordExit(null, null);
  }

  /** The leader survived SIGKILL (e.g. uninterruptible sleep): record an exit anyway and let go of it. */
  private abandon(child: GroupChild): ExitInfo {
    this.note(`process ${child.pid} did not exit ${STOP_SLACK_MS} ms after SIGKILL; abandoned`);
    const exit = this.recordExit(null, null);
    releaseGroup(child.pid);
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream.destroy();
    return exit;
  }

  private async launch(): Promise<void> {
    const { argv, cwd, env } = this.options;
    this.record({ kind: "launch", argv: [...argv], cwd, envNames: [...new Set([...Object.keys(env), LAUNCH_MARKER_ENV])].sort() });
    let outcome: SpawnOutcome;
    try {
      outcome = await spawnGroup({ argv, cwd, env });
    } catch (error) {
      outcome = { ok: false, error: { code: "EINVAL", message: errorText(error) } };
    }
    if (!outcome.ok) {
      this.note(`spawn failed: ${outcome.error.code}: ${outcome.error.message}`);
      this.stdinClosed = true;
      this.recordExit(null, null);
      return;
    }
    const child = outcome.child;
    this.child = child;
    child.stdout.on("data", (chunk: Buffer) => this.output.stdout(chunk));
    child.stderr.on("data", (chunk: Buffer) => this.output.stderr(chunk));
    child.stdin.on("error", (error: Error) => {
      this.stdinClosed = true;
      if (this.exitInfo === undefined) this.note(`stdin error: ${errorText(error)}`);
    });
    child.stdin.once("close", () => {
      this.stdinClosed = true;
    });
    const drained = Promise.all([endOf(child.stdout), endOf(child.stderr)]);
    child.stdout.resume();
    child.stderr.resume();
    this.settled = child.exited
      .then(async (status) => {
        await within(drained, DRAIN_WAIT_MS);
        this.recordExit(status.exitCode, status.signal);
        const sweep = await finalizeGroup(child, PIPE_CLOSE_WAIT_MS, this.limits.killGraceMs);
        this.record({ kind: "leftovers", ...sweep });
      })
      .catch(() => undefined);
  }

  private recordExit(code: number | null, signal: string | null): ExitInfo {
    if (this.exitInfo !== undefined) return this.exitInfo;
    this.output.finish();
    const killedByKit = this.killedByKit;
    const t = this.record({ kind: "exit", code, signal, killedByKit });
    const exit: ExitInfo = { t, code, signal, killedByKit };
    this.exitInfo = exit;
    this.waits.exited(exit);
    return exit;
  }

  private note(text: string): void {
    this.record({ kind: "note", text });
  }

  private record(body: EventBody): number {
    const t = this.options.clock();
    // kind, t, process first, then the event's own fields.
    const event = Object.assign({ kind: body.kind, t, process: this.options.process }, body) as TranscriptEvent;
    this.options.onEvent(event);
    return t;
  }
}

function preview(line: string): string {
  return JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}…` : line);
}

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message : String(error);
}
