/**
 * A stop the user asked for: SIGINT (Ctrl-C) or SIGTERM (a CI job cancelled) reaching the kit.
 * A run that listens stops starting work, ends its candidate processes, judges what it saw and
 * writes its report, which says it was interrupted; a run is never left without one. The CLI
 * (program.ts) exits with the signal's code once the report is written, and at once on a
 * second signal, or when the report takes longer than INTERRUPT_GRACE_MS.
 */

export type InterruptSignal = "SIGINT" | "SIGTERM";

/** How long an interrupted run may take to end its processes, judge and write its report. */
export const INTERRUPT_GRACE_MS = 20_000;

let asked: InterruptSignal | undefined;
let handled = false;
const listeners = new Set<(signal: InterruptSignal) => void>();

/** Called by a command that writes its report when interrupted (run, fuzz, policy-test); any other ends at once. */
export function handleInterrupts(): void {
  handled = true;
}

/** The signal that interrupted the kit, if one did. */
export function interrupted(): InterruptSignal | undefined {
  return asked;
}

/** Calls `listener` when the kit is interrupted (at once if it already was); returns the unsubscribe. */
export function onInterrupt(listener: (signal: InterruptSignal) => void): () => void {
  if (asked !== undefined) {
    listener(asked);
    return () => undefined;
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The first signal of a command that handles interruptions: every listener hears it. False when
 * it is not the first, or the command does not handle them (the CLI then exits at once).
 */
export function interrupt(signal: InterruptSignal): boolean {
  if (!handled || asked !== undefined) return false;
  asked = signal;
  for (const listener of [...listeners]) listener(signal);
  listeners.clear();
  return true;
}

/**
 * What `work` gives, or undefined when it failed after the kit was interrupted: its calls out were
 * ended by the interruption (the launchers went), which is neither the candidate's failure nor the kit's.
 */
export async function untilInterrupted<T>(work: Promise<T> | undefined): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (asked !== undefined) return undefined;
    throw error;
  }
}

/** Exit code of a process ended by `signal` (128 + its number), as shells report it. */
export const interruptExitCode = (signal: InterruptSignal): number => (signal === "SIGINT" ? 130 : 143);

/**
 * Why the kit stopped the run early: the report's first lines and the reasons of unreached
 * clauses both say it. `what` says where the run was.
 */
export function interruptReason(signal: InterruptSignal, what: string): string {
  return `the kit was interrupted (${signal}) ${what}: it ended every candidate process and judged what it had; run it again to judge the rest`;
}

/** For tests: forget an interruption. */
export function resetInterrupt(): void {
  asked = undefined;
  handled = false;
  listeners.clear();
}
