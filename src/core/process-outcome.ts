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
  /** What the kit found still running after the process ended and its process group was killed. */
  leftovers?: LeftoverSweep;
}

/**
 * The one variable the kit adds to every candidate's environment: a value unique to the
 * launch ("<kit pid>-<16 hex digits>"), inherited by whatever the candidate starts, so the
 * kit can find those processes again after the candidate ended. Not a secret.
 */
export const LAUNCH_MARKER_ENV = "AWP_CONFORMANCE_LAUNCH";

export type StdStream = "stdin" | "stdout" | "stderr";

/** A process that came from a launch and was still running after it ended, outside its process group. */
export interface Leftover {
  pid: number;
  /** Its command line as /proc shows it (arguments joined by spaces), at most 300 characters. */
  command: string;
  /** How the kit knew it came from the launch: the launch marker in its environment, the launch's stdio pipes among its open files. */
  foundBy: ("marker" | "pipe")[];
  /** The launch's stdio pipes it held open, with what /proc showed for them ("socket:[123]"). */
  holds: { stream: StdStream; link: string }[];
  /** How it ended: SIGTERM, SIGKILL after the grace, on its own before the kit signalled it, or still running when the kit gave up. */
  ended: "SIGTERM" | "SIGKILL" | "exited" | "survived";
}

/** The kit's look for leftovers after one process ended. */
export interface LeftoverSweep {
  /** proc: the kit looked through /proc; unavailable: this platform has no /proc, only the process-group kill ran. */
  scan: "proc" | "unavailable";
  /** At most LEFTOVERS_RECORDED of them; every one found was ended. */
  found: Leftover[];
  /** How many more were found (and ended) than `found` lists. */
  dropped?: number;
}

export const LEFTOVERS_RECORDED = 20;
