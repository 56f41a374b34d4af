/** Flat outcome of one candidate process, as the runner reports it and checks read it. */
export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdoutCapped: boolean;
  stderrCapped: boolean;
  /** spawn → exit, performance.now based. */
  durationMs: number;
  /** Totals seen, including beyond the cap. */
  stdoutBytes: number;
  stderrBytes: number;
  /** The kit sent a signal (timeout or cap). */
  killedByKit: boolean;
  /** ENOENT, EACCES, ENOEXEC... */
  spawnError?: { code: string; message: string };
  /** e.g. EPIPE when the child closed stdin before reading everything. */
  stdinError?: string;
}
