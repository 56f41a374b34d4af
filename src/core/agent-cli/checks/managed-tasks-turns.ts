/**
 * How managed turns end and show: one terminal event after each control-plane failure, a
 * next turn still served, a turn that ends although the model always calls the tool, and
 * each tool call shown on stdout.
 */
import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { callsIn, isRecord, type OutLine } from "../analysis.js";
import { MANAGED_TOOL } from "../managed-tasks.js";
import type { TaskPlan } from "../types.js";
import { finding, judgeEach, judgeSome, processesOf, show, skip, type AgentRun } from "./helpers.js";
import { withoutBlocked } from "./managed-tasks-api.js";
import { callCause } from "./managed-tasks-causes.js";
import { eventAt, extraTerminals, followUp, jsonEqual, managedTurns, nextTurn, turnName, type ManagedTurn, type ToolCallSeen } from "./managed-tasks-view.js";
import { kitBound, requestCount } from "./kit-bound.js";
import { missingTerminal } from "./turns.js";

const ID = "agent-cli/managed-tasks";
const FAILURES = `${ID}/control-plane-failures`;
const LIMIT = `${ID}/call-limit`;
const SHOWN = `${ID}/tool-use-shown`;

/** What the control plane did in a failure turn, in words. */
export function failureWhat(plan: TaskPlan): string {
  switch (plan.kind) {
    case "http-500":
      return "answered the submission with HTTP 500";
    case "not-json":
      return "answered the submission with a body that is not JSON";
    case "redirect":
      return "answered the submission with a redirect (307)";
    case "bad-id":
      return "answered the submission with an invalid task id";
    case "bad-status":
      return "answered polls with a status outside the API";
    case "slow":
      return `answered the submission only after ${plan.delayMs ?? 0} ms`;
    default:
      return `ran a ${plan.kind} task`;
  }
}

/** Why a turn has no terminal event, as a finding message; undefined when the kit itself ended it. */
function noTerminal(run: AgentRun, turn: ManagedTurn, context: string): string | undefined {
  const why = missingTerminal(turn.transcript, turn.segment);
  if (why === "host") return undefined;
  return why === "exited" ? `the process exited ${context} without ending the turn` : `no terminal event within ${run.turnTimeoutMs} ms (--turn-timeout) ${context}`;
}

/** The turn's one terminal event: findings when it is missing or followed by more. */
function oneTerminal(run: AgentRun, clause: string, turn: ManagedTurn, context: string): Finding[] | undefined {
  if (turn.segment.terminal === undefined) {
    const message = noTerminal(run, turn, context);
    if (message === undefined) return undefined;
    const found = finding(clause, { transcript: turn.transcript, lines: turn.segment.output.slice(-2), stderrOf: turn.segment.process }, `${turnName(turn)}: ${message}`, { expected: "exactly one terminal event" });
    // The kit waited --turn-timeout (its own bound) for the turn; an exit is no bound's doing.
    const waited = missingTerminal(turn.transcript, turn.segment) === "waiting";
    return [waited ? { ...found, kitBound: kitBound("--turn-timeout", run.turnTimeoutMs, `still in the turn ${context}: ${requestCount(callsIn(turn.transcript, turn.segment).length)}`) } : found];
  }
  const extra = extraTerminals(turn);
  return extra.length === 0 ? [] : [finding(clause, { transcript: turn.transcript, lines: [turn.segment.terminal, ...extra].slice(0, 4) }, `${turnName(turn)}: ${extra.length + 1} terminal events answer the turn ${context}`, { expected: "exactly one terminal event" })];
}

/** The next turn was taken up: it reached the model, and was not answered before it did. */
function nextServed(turn: ManagedTurn, what: string): Finding[] {
  const next = nextTurn(turn);
  const where = { transcript: turn.transcript, lines: turn.segment.terminal !== undefined ? [turn.segment.terminal] : [] };
  if (next === undefined) {
    const exit = processesOf(turn.transcript).find((v) => v.process === turn.segment.process)?.exit;
    if (exit === undefined || exit.killedByKit) return [];
    return [finding(FAILURES, { ...where, events: [{ event: exit, at: exit.at }], stderrOf: turn.segment.process }, `${turnName(turn)}: after the control plane ${what} the process exited and could not be given the next turn`, { expected: "the process keeps serving", seen: `exit ${exit.code ?? exit.signal ?? "?"}` })];
  }
  const first = next.calls[0];
  const early = next.segment.terminal !== undefined && (first === undefined || next.segment.terminal.event.t < first.t);
  if (first !== undefined && !early) return [];
  if (first === undefined && next.segment.terminal === undefined && missingTerminal(next.transcript, next.segment) === "host") return [];
  const message = early ? `a terminal event answered the next turn (${next.tag ?? "?"}) before it reached the model: a second terminal event of this turn, or a turn not served` : `the next turn (${next.tag ?? "?"}) never reached the model`;
  return [finding(FAILURES, { transcript: turn.transcript, lines: [...where.lines, ...next.segment.output.slice(-1)] }, `${turnName(turn)}: after the control plane ${what}, ${message}`, { expected: "the process keeps serving: the next turn reaches the model" })];
}

interface ShownBlock {
  line: OutLine;
  id: unknown;
  name: unknown;
  input: unknown;
}

/** tool_use blocks a turn wrote: in assistant messages, or content_block_start (input completed by input_json_delta). */
export function toolUseBlocks(output: readonly OutLine[]): ShownBlock[] {
  const blocks: ShownBlock[] = [];
  const open = new Map<number, { block: ShownBlock; json: string }>();
  const close = (index: unknown): void => {
    const entry = typeof index === "number" ? open.get(index) : undefined;
    if (entry === undefined) return;
    if (entry.json !== "") {
      try {
        entry.block.input = JSON.parse(entry.json) as unknown;
      } catch {
        entry.block.input = entry.json;
      }
    }
    open.delete(index as number);
  };
  for (const line of output) {
    const o = line.object;
    if (o === undefined) continue;
    if (o.type === "assistant" && isRecord(o.message) && Array.isArray(o.message.content)) {
      for (const b of o.message.content) if (isRecord(b) && b.type === "tool_use") blocks.push({ line, id: b.id, name: b.name, input: b.input });
    } else if (o.type === "content_block_start" && isRecord(o.content_block) && o.content_block.type === "tool_use") {
      const block = { line, id: o.content_block.id, name: o.content_block.name, input: o.content_block.input };
      blocks.push(block);
      if (typeof o.index === "number") open.set(o.index, { block, json: "" });
    } else if (o.type === "content_block_delta" && typeof o.index === "number" && isRecord(o.delta) && o.delta.type === "input_json_delta" && typeof o.delta.partial_json === "string") {
      const entry = open.get(o.index);
      if (entry !== undefined) entry.json += o.delta.partial_json;
    } else if (o.type === "content_block_stop") {
      close(o.index);
    }
  }
  for (const index of [...open.keys()]) close(index);
  return blocks;
}

function judgeShown(turn: ManagedTurn, call: ToolCallSeen): Finding[] {
  const blocks = toolUseBlocks(turn.segment.output).filter((b) => b.name === MANAGED_TOOL || b.id === call.id);
  const own = blocks.find((b) => b.id === call.id);
  const where = { transcript: turn.transcript, events: eventAt(turn.transcript, call.at) };
  const expected = `a tool_use block with id ${call.id}, name ${MANAGED_TOOL} and the model's input`;
  if (own === undefined) {
    const seen = blocks.map((b) => `id ${show(b.id, 60)}`).join(", ");
    return [finding(SHOWN, { ...where, lines: blocks.map((b) => b.line).slice(0, 3) }, `${turnName(turn)}: no tool_use block shows call ${call.id}${blocks.length > 0 ? ` (blocks for ${MANAGED_TOOL} carry ${seen})` : ""}`, { expected })];
  }
  const problems = [own.name === MANAGED_TOOL ? "" : `its name is ${show(own.name, 60)}`, jsonEqual(own.input, call.args) ? "" : "its input differs from the model's arguments"].filter((p) => p !== "");
  return problems.length === 0 ? [] : [finding(SHOWN, { ...where, lines: [own.line] }, `${turnName(turn)}: the tool_use block of call ${call.id}: ${problems.join("; ")}`, { expected, seen: `name ${show(own.name, 60)}, input ${show(own.input, 200)}` })];
}

/** Tool calls the CLI acted on: it submitted a task for the call, or sent its model a follow-up. */
function actedOn(turn: ManagedTurn): ToolCallSeen[] {
  return turn.toolCalls.filter((call) => turn.submissions.some((s) => s.call === call) || followUp(turn, call) !== undefined);
}

export const turnEndChecks: Check<AgentRun>[] = [
  {
    clause: FAILURES,
    judge: (run) => {
      const cause = callCause(run);
      if (cause !== undefined) return cause;
      const turns = managedTurns(run).filter((turn) => turn.role === "failure" && turn.toolCalls.length > 0 && turn.requests.length > 0);
      const ran = withoutBlocked(
        turns.map((turn) => ({ turn })),
        skip(`the CLI sent the control plane nothing in the failure turns (mt-fail-*), so no failure reached it: see agent-cli/managed-tasks/control-plane-api`),
      );
      return judgeSome(
        ran.cases,
        ({ turn }) => {
          const what = failureWhat(turn.plan);
          const ended = oneTerminal(run, FAILURES, turn, `after the control plane ${what}`);
          return ended === undefined ? undefined : [...ended, ...nextServed(turn, what)];
        },
        ran.none,
      );
    },
  },
  {
    clause: LIMIT,
    judge: (run) =>
      callCause(run) ??
      judgeSome(
        managedTurns(run).filter((turn) => turn.role === "every" && turn.toolCalls.length > 0),
        (turn) => oneTerminal(run, LIMIT, turn, `while the model called ${MANAGED_TOOL} in every round (${turn.toolCalls.length} calls, ${turn.submissions.length} submissions)`),
        skip(`the kit's model never called ${MANAGED_TOOL} in the call-limit turn (mt-every): see agent-cli/turns for how that turn ended`),
      ),
  },
  {
    clause: SHOWN,
    judge: (run) =>
      callCause(run) ??
      judgeEach(
        managedTurns(run).flatMap((turn) => actedOn(turn).map((call) => ({ turn, call }))),
        ({ turn, call }) => judgeShown(turn, call),
        skip(`the CLI acted on none of its model's calls of ${MANAGED_TOOL} (no submission, no follow-up request)`),
      ),
  },
];


