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
import { FAILURE_PLANS, MANAGED_TOOL, parseTaskPlan } from "../managed-tasks.js";
import type { Transcript } from "../types.js";

export const MANAGED_SCENARIO = "managed-tasks";
export const GATED_SCENARIO = "managed-gated";

/** The plan kind a turn's directive asks the model's task for, and its rounds ("A" by default). */
export function directedTask(message: JsonRecord | undefined): { argv?: unknown; rounds: string } | undefined {
  const directive = directiveOf(message);
  if (directive?.task === undefined) return undefined;
  try {
    const task: unknown = JSON.parse(directive.task);
    const argv = task !== null && typeof task === "object" && !Array.isArray(task) ? (task as JsonRecord).argv : undefined;
    return { argv, rounds: directive.rounds ?? "A" };
  } catch {
    return undefined;
  }
}

/** A managed-tasks turn whose terminal event a managed-tasks clause judges (its model called the tool). */
export function ownsTerminal(transcript: Transcript, process: number, message: JsonRecord | undefined): boolean {
  if (transcript.scenario !== MANAGED_SCENARIO) return false;
  const task = directedTask(message);
  if (task === undefined) return false;
  const kind = parseTaskPlan(task.argv).kind;
  if (task.rounds !== "*" && kind !== "pending" && !FAILURE_PLANS.includes(kind)) return false;
  const tag = directiveOf(message)?.turn;
  return tag !== undefined && modelCalls(transcript).some(({ call, process: p }) => p === process && call.directive?.turn === tag && call.toolCall?.name === MANAGED_TOOL);
}

/** A managed-gated launch that the CLI refused at start: allowed when a bridge setting is missing. */
export function gatedRefusal(transcript: Transcript, view: ProcessView): boolean {
  return transcript.scenario === GATED_SCENARIO && exitedAtStart(view);
}
