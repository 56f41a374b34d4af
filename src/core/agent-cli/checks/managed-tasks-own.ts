/**
 * Which parts of the managed-task scenarios their own clauses judge, so the general clauses
 * leave them alone (as they leave the failure probes' turns to agent-cli/failures):
 * - the terminal events of the pending, control-plane failure and call-limit turns, once the
 *   kit's model called awp_run_managed_task there (wait-limit, control-plane-failures and
 *   call-limit each ask for exactly one terminal event, with their own words for why);
 * - a managed-gated launch the CLI refused at start, which the contract allows.
 */
import { directiveOf, modelCalls, type JsonRecord, type ProcessView } from "../analysis.js";
import { exitedAtStart } from "../causes.js";
import { FAILURE_PLANS, MANAGED_TOOL, parseTaskPlan, taskCallArgs } from "../managed-tasks.js";
import type { TaskCallArgs, Transcript } from "../types.js";

export const MANAGED_SCENARIO = "managed-tasks";
export const GATED_SCENARIO = "managed-gated";

/** The task a turn's directive has the kit's model ask for, and its rounds ("A" by default). */
export function directedTask(message: JsonRecord | undefined): { task: TaskCallArgs; rounds: string } | undefined {
  const directive = directiveOf(message);
  if (directive?.task === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(directive.task);
  } catch {
    return undefined;
  }
  // Read as the kit's model fixture reads it (src/servers/directive.ts).
  const task = taskCallArgs(value);
  if (task === undefined) return undefined;
  return { task, rounds: directive.rounds ?? "A" };
}

/** A managed-tasks turn whose terminal event a managed-tasks clause judges (its model called the tool). */
export function ownsTerminal(transcript: Transcript, process: number, message: JsonRecord | undefined): boolean {
  if (transcript.scenario !== MANAGED_SCENARIO) return false;
  const task = directedTask(message);
  if (task === undefined) return false;
  const kind = parseTaskPlan(task.task.argv).kind;
  if (task.rounds !== "*" && kind !== "pending" && !FAILURE_PLANS.includes(kind)) return false;
  const tag = directiveOf(message)?.turn;
  return tag !== undefined && modelCalls(transcript).some(({ call, process: p }) => p === process && call.directive?.turn === tag && call.toolCall?.name === MANAGED_TOOL);
}

/**
 * A managed-gated launch that the CLI refused at start: allowed when a bridge setting is
 * missing. Either it exited before serving its first turn, or it exited on its own (nonzero)
 * having written nothing but error results: a startup error printed at once can reach the
 * kit after its first line was written.
 */
export function gatedRefusal(transcript: Transcript, view: ProcessView): boolean {
  if (transcript.scenario !== GATED_SCENARIO) return false;
  if (exitedAtStart(view)) return true;
  const exit = view.exit;
  if (exit === undefined || exit.killedByKit || exit.code === 0) return false;
  return view.lines.length > 0 && view.lines.every((line) => line.object?.type === "result" && line.object["is_error"] === true);
}
