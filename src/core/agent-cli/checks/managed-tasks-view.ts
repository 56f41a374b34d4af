/**
 * The managed-tasks scenario as the checks read it: each turn with the task the kit's model
 * was told to ask for, the model's calls of awp_run_managed_task, the control-plane requests
 * the CLI sent meanwhile, and the tool results its follow-up requests carried back.
 */
import { directiveOf, isRecord, isTerminal, modelCalls, type JsonRecord, type OutLine, type Segment } from "../analysis.js";
import { FAILURE_PLANS, MANAGED_TOOL, parseTaskPlan } from "../managed-tasks.js";
import type { ControlPlaneRequest, ModelCall, TaskCallArgs, TaskPlan, Transcript, TranscriptEvent } from "../types.js";
import { processesOf } from "./helpers.js";
import { directedTask, MANAGED_SCENARIO } from "./managed-tasks-own.js";
import { allSegments } from "./turns.js";

export { GATED_SCENARIO, MANAGED_SCENARIO } from "./managed-tasks-own.js";

/**
 * What a turn probes, from its directive: "framing" a task that finishes with known exit code,
 * stdout and stderr; "huge" a 1 MiB stdout; "pending" a task that never finishes; "failure" a
 * control-plane failure; "every" a model that calls the tool in every round.
 */
export type TurnRole = "framing" | "huge" | "pending" | "failure" | "every" | "other";

export interface SeenCall {
  call: ModelCall;
  at: number;
  /** When the fixture received the request (ms since the scenario started). */
  t: number;
}

export interface ToolCallSeen extends SeenCall {
  id: string;
  /** The call's arguments, parsed (undefined when they are not JSON). */
  args: unknown;
  /** Position among the turn's model calls (its follow-up is the next one). */
  index: number;
}

export interface SeenRequest {
  request: ControlPlaneRequest;
  event: TranscriptEvent;
  at: number;
  t: number;
}

export interface Submission extends SeenRequest {
  /** The model's tool call the CLI was answering: the last one the fixture returned before this request. */
  call?: ToolCallSeen;
}

export interface ManagedTurn {
  transcript: Transcript;
  segment: Segment;
  tag?: string;
  role: TurnRole;
  /** The task the directive had the model ask for, and its plan. */
  task?: TaskCallArgs;
  plan: TaskPlan;
  rounds: string;
  calls: SeenCall[];
  toolCalls: ToolCallSeen[];
  /** Control-plane requests received from the turn's line until the next line (or the exit). */
  requests: SeenRequest[];
  /** The submissions among them: every request with a method that sends a body (POST, PUT, PATCH). */
  submissions: Submission[];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function roleOf(plan: TaskPlan, rounds: string, task: TaskCallArgs | undefined): TurnRole {
  if (task === undefined) return "other";
  if (rounds === "*") return "every";
  if (plan.kind === "pending") return "pending";
  if (plan.kind === "huge-stdout") return "huge";
  if (FAILURE_PLANS.includes(plan.kind)) return "failure";
  if ((plan.kind === "succeed" || plan.kind === "fail") && plan.stdout !== undefined && plan.stderr !== undefined) return "framing";
  return "other";
}

/** A request that submits (a method that sends a body), whatever its path: the kit's API uses POST. */
export const isSubmission = (request: ControlPlaneRequest): boolean => ["POST", "PUT", "PATCH"].includes(request.method.toUpperCase());

const seenAt = (call: ModelCall, t: number): number => call.startT ?? t;

function turnsOf(transcript: Transcript): ManagedTurn[] {
  const models = modelCalls(transcript);
  const requests = transcript.events.flatMap((event, at) => (event.kind === "controlplane" ? [{ request: event.request, event, at, t: event.request.startT ?? event.t, process: event.process }] : []));
  const views = processesOf(transcript);
  return allSegments({ transcripts: [transcript] }).flatMap(({ segment }) => {
    const input = segment.input;
    if (input === undefined) return [];
    const tag = directiveOf(input.message)?.turn;
    const directed = directedTask(input.message);
    const task = directed?.task;
    const plan = parseTaskPlan(task?.argv);
    const rounds = directed?.rounds ?? "A";
    const calls = models.filter((m) => m.process === segment.process && tag !== undefined && m.call.directive?.turn === tag).map(({ call, at, t }) => ({ call, at, t: seenAt(call, t) }));
    const toolCalls = calls.flatMap((seen, index) => (seen.call.toolCall?.name === MANAGED_TOOL ? [{ ...seen, id: seen.call.toolCall.id, args: parseJson(seen.call.toolCall.arguments), index }] : []));
    const next = views.find((v) => v.process === segment.process)?.inputs.find((other) => other.at > input.at);
    const end = next?.event.t ?? views.find((v) => v.process === segment.process)?.exit?.t ?? Infinity;
    const mine = requests.filter((r) => r.process === segment.process && r.t >= segment.from && r.t <= end).map(({ request, event, at, t }) => ({ request, event, at, t }));
    const submissions = mine.filter((r) => isSubmission(r.request)).map((r) => {
      const call = [...toolCalls].reverse().find((c) => c.t <= r.t);
      return { ...r, ...(call !== undefined ? { call } : {}) };
    });
    return [{ transcript, segment, ...(tag !== undefined ? { tag } : {}), role: roleOf(plan, rounds, task), ...(task !== undefined ? { task } : {}), plan, rounds, calls, toolCalls, requests: mine, submissions }];
  });
}

const memo = new WeakMap<Transcript, ManagedTurn[]>();

/** The turns of every managed-tasks transcript of a run (live ones only). */
export function managedTurns(run: { transcripts: readonly Transcript[] }): ManagedTurn[] {
  return managedTranscripts(run).flatMap((transcript) => {
    let known = memo.get(transcript);
    if (known === undefined) {
      known = turnsOf(transcript);
      memo.set(transcript, known);
    }
    return known;
  });
}

export function managedTranscripts(run: { transcripts: readonly Transcript[] }, scenario = MANAGED_SCENARIO): Transcript[] {
  return run.transcripts.filter((t) => t.scenario === scenario && t.stdoutOnly !== true);
}

/** The model request that followed a tool call in its turn (the one that should carry its result). */
export function followUp(turn: ManagedTurn, call: ToolCallSeen): SeenCall | undefined {
  return turn.calls[call.index + 1];
}

/** The text of a tool result's content: a string, or the text of its text blocks. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b): b is JsonRecord => isRecord(b) && b.type === "text" && typeof b.text === "string").map((b) => b.text as string).join("\n");
}

export interface ToolResult {
  id: string;
  text: string;
}

/**
 * The tool results a model request carries, in order: OpenAI messages {role:"tool",
 * tool_call_id, content} and Anthropic tool_result blocks {tool_use_id, content} in any
 * message, with string or text-block content.
 */
export function toolResults(body: unknown): ToolResult[] {
  const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : [];
  return messages.filter(isRecord).flatMap((m): ToolResult[] => {
    if (m.role === "tool" && typeof m.tool_call_id === "string") return [{ id: m.tool_call_id, text: contentText(m.content) }];
    if (!Array.isArray(m.content)) return [];
    return m.content.filter((b): b is JsonRecord => isRecord(b) && b.type === "tool_result" && typeof b.tool_use_id === "string").map((b) => ({ id: b.tool_use_id as string, text: contentText(b.content) }));
  });
}

/** The last tool result a request carries for this call id (an earlier one may be history). */
export function resultFor(call: SeenCall | undefined, id: string): ToolResult | undefined {
  return call === undefined ? undefined : toolResults(call.call.body).filter((r) => r.id === id).pop();
}

/** Terminal events of a turn after its first one, before the next line was written. */
export function extraTerminals(turn: ManagedTurn): OutLine[] {
  const { segment } = turn;
  const view = processesOf(turn.transcript).find((v) => v.process === segment.process);
  const input = segment.input;
  if (view === undefined || input === undefined) return [];
  const next = view.inputs.find((other) => other.at > input.at);
  const after = segment.terminal?.at ?? input.at;
  return view.unattributed.filter((l) => isTerminal(l.object) && l.at > after && (next === undefined || l.at < next.at));
}

/** The turn that followed in the same process, if the kit wrote one. */
export function nextTurn(turn: ManagedTurn): ManagedTurn | undefined {
  const all = managedTurns({ transcripts: [turn.transcript] });
  return all.slice(all.indexOf(turn) + 1).find((other) => other.segment.process === turn.segment.process);
}

/** A transcript event by position, for a finding's evidence. */
export function eventAt(transcript: Transcript, at: number): { event: TranscriptEvent; at: number }[] {
  const event = transcript.events[at];
  return event === undefined ? [] : [{ event, at }];
}

/** Deep equality of JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

/** The argv of a tool call's (or a submission's) arguments, when it is there. */
export function argvOf(value: unknown): unknown {
  return isRecord(value) ? value.argv : undefined;
}

/** How a turn reads in a message: "turn mt-succeed". */
export const turnName = (turn: ManagedTurn): string => `turn ${turn.tag ?? "(untagged)"}`;
