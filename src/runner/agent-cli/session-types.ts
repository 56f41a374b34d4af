/**
 * Public shapes and defaults of a live Agent CLI session (see session.ts).
 */
import type { TranscriptEvent } from "../../core/agent-cli/types.js";
import { MAX_TIMER_MS } from "../process-group.js";
import { DEFAULT_MAX_LINE_BYTES } from "./lines.js";
import type { OutputBudget } from "./output-budget.js";

export interface SessionOptions {
  /** argv[0] = executable (path, or bare name looked up in env.PATH). No shell. */
  argv: readonly string[];
  cwd: string;
  /** Exact child environment; only the names are recorded. */
  env: Record<string, string>;
  /** Index recorded in every event (1 = first launch, 2 = relaunch...). */
  process: number;
  /** Milliseconds since the scenario started (the scenario owns it). */
  clock: () => number;
  /** Every event, in order, as it happens. Must not throw. */
  onEvent: (event: TranscriptEvent) => void;
  /** Longest stdout line without its LF; default 4 MiB. Past it: one oversize stdout event, then the kit stops the runtime. */
  maxLineBytes?: number;
  /** Stdout bytes in total; default 64 MiB. Past it: a note, stdout is no longer recorded, and the kit stops the runtime. */
  maxStdoutBytes?: number;
  /** Stdout lines recorded; default 200 000. Past it: like maxStdoutBytes (guards the kit's memory against floods of tiny lines). */
  maxLines?: number;
  /** Stderr bytes recorded; default 256 KiB. Past it: one note "stderr truncated"; the rest is drained and dropped. */
  stderrCap?: number;
  /** SIGTERM → SIGKILL delay when the kit stops the runtime; default 1000. */
  killGraceMs?: number;
  /** The run's stdout budget, shared by its processes (output-budget.ts); past it, like maxStdoutBytes. Default: none. */
  budget?: OutputBudget;
}

export interface StdoutLine {
  /** Position in `LiveSession.lines`. */
  index: number;
  t: number;
  /** The line without its LF, decoded as UTF-8 (invalid bytes → U+FFFD); a CR before the LF stays. */
  text: string;
  /**
   * JSON.parse of the trimmed text when that succeeds (may be null); undefined otherwise.
   * Parsed on each read and never kept: a line of `[[],[],...]` parses to ten times its
   * size, so keeping the values would let the kit's memory grow with what the CLI prints.
   */
  readonly json?: unknown;
}

export interface ExitInfo {
  t: number;
  code: number | null;
  signal: string | null;
  /** The kit ended it (stop() or a guard); a scenario's signal() is the host's ordinary termination and does not count. */
  killedByKit: boolean;
}

export interface WaitLineOptions {
  /** First line index to look at; default: lines.length at call time. */
  from?: number;
  timeoutMs: number;
  /** Recorded as `waitingFor` in the timeout event. */
  label: string;
}

export type HostSignal = "SIGTERM" | "SIGINT" | "SIGKILL";

export const SESSION_DEFAULTS = {
  maxLineBytes: DEFAULT_MAX_LINE_BYTES,
  maxStdoutBytes: 64 * 1024 * 1024,
  maxLines: 200_000,
  stderrCap: 256 * 1024,
  killGraceMs: 1000,
} as const;

/** After the leader exits: how long stdout/stderr may take to reach EOF before the exit is recorded. */
export const DRAIN_WAIT_MS = 200;
/** After the exit is recorded: how long finalizeGroup waits for the pipes to close. */
export const PIPE_CLOSE_WAIT_MS = 200;
/** stop(): extra time after SIGKILL before the kit gives up waiting for the leader (uninterruptible sleep...). */
export const STOP_SLACK_MS = 2000;

export interface ResolvedLimits {
  maxLineBytes: number;
  maxStdoutBytes: number;
  maxLines: number;
  stderrCap: number;
  killGraceMs: number;
}

/** Defaults filled in; throws RangeError/TypeError for options the kit itself got wrong. */
export function resolveLimits(options: SessionOptions): ResolvedLimits {
  if (typeof options.clock !== "function" || typeof options.onEvent !== "function") {
    throw new TypeError("clock and onEvent must be functions");
  }
  if (!Number.isSafeInteger(options.process) || options.process < 0) throw new RangeError("process must be an integer >= 0");
  const limits: ResolvedLimits = {
    maxLineBytes: options.maxLineBytes ?? SESSION_DEFAULTS.maxLineBytes,
    maxStdoutBytes: options.maxStdoutBytes ?? SESSION_DEFAULTS.maxStdoutBytes,
    maxLines: options.maxLines ?? SESSION_DEFAULTS.maxLines,
    stderrCap: options.stderrCap ?? SESSION_DEFAULTS.stderrCap,
    killGraceMs: options.killGraceMs ?? SESSION_DEFAULTS.killGraceMs,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer >= 0, got ${value}`);
  }
  if (limits.killGraceMs > MAX_TIMER_MS) throw new RangeError("killGraceMs must be at most 2^31 - 1");
  return limits;
}

/** A wait duration as a valid Node timer delay; throws for NaN/negative. */
export function timerMs(ms: number, name: string): number {
  if (typeof ms !== "number" || Number.isNaN(ms) || ms < 0) throw new RangeError(`${name} must be a number >= 0, got ${ms}`);
  return Math.min(ms, MAX_TIMER_MS);
}
