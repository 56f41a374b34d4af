/**
 * Words for leftover processes (see process-outcome.ts), shared by the provider and the
 * agent-cli checks so both protocols report them alike.
 */
import { LAUNCH_MARKER_ENV, type Leftover, type LeftoverSweep } from "./process-outcome.js";

/** Skip reason when every look for leftovers ran on a platform without /proc. */
export const NO_PROC_REASON =
  "this platform has no /proc, so the kit could not look for processes that left the candidate's process group (the process-group kill still ran): run the kit on Linux, with /proc mounted, to judge this clause";

const ENDED: Record<Leftover["ended"], string> = {
  SIGTERM: "the kit ended it with SIGTERM",
  SIGKILL: "it ignored SIGTERM; the kit ended it with SIGKILL",
  exited: "it exited on its own before the kit signalled it",
  survived: "it was still running when the kit gave up on it",
};

/** How the kit knew the process came from the launch. */
export function howFound(leftover: Leftover): string {
  const parts: string[] = [];
  if (leftover.foundBy.includes("marker")) parts.push(`the launch marker ${LAUNCH_MARKER_ENV} in its environment`);
  if (leftover.foundBy.includes("pipe")) {
    const held = leftover.holds.map((h) => `${h.stream} pipe (${h.link})`).join(" and ");
    parts.push(`the launch's ${held} among its open files`);
  }
  return parts.join(" and by ");
}

/** What the kit saw: pid, command line, how it ended (how it was found goes in the message). */
export function leftoverSeen(leftover: Leftover): string {
  return `pid ${leftover.pid}: ${leftover.command} (${ENDED[leftover.ended]})`;
}

/** One line for a leftover: pid, command line, how it was found, how it ended. */
export function describeLeftover(leftover: Leftover): string {
  return `pid ${leftover.pid}: ${leftover.command} (found by ${howFound(leftover)}; ${ENDED[leftover.ended]})`;
}

/** One line for a whole look: nothing left, several left, or no /proc. */
export function describeSweep(sweep: LeftoverSweep): string {
  if (sweep.scan === "unavailable") return "no /proc on this platform: the kit could not look for processes left outside the process group";
  if (sweep.found.length === 0) return "no process of this launch was left running outside its process group";
  const more = sweep.dropped !== undefined ? ` (and ${sweep.dropped} more)` : "";
  return `left running outside its process group: ${sweep.found.map(describeLeftover).join("; ")}${more}`;
}
