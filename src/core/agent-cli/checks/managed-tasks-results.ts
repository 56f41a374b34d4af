/**
 * What the CLI gives its model back: the task's result tied to the tool call, a bounded
 * output, a timeout the model is told about.
 */
import type { Check } from "../../report/judge.js";
import type { Finding, Judgement } from "../../report/types.js";
import { DEFAULT_TASK_OUTPUT_LIMIT, DEFAULT_TASK_WAIT_SLACK_MS, HUGE_STDOUT_BYTES, PENDING_TIMEOUT_S } from "../managed-tasks.js";
import { finding, judgeSome, show, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { withoutBlocked } from "./managed-tasks-api.js";
import { callCause } from "./managed-tasks-causes.js";
import { isRecord, type OutLine } from "../analysis.js";
import { secondsText as seconds } from "../../printable.js";
import { kitBound } from "./kit-bound.js";
import { eventAt, extraTerminals, followUp, managedTurns, resultFor, toolResults, turnName, type ManagedTurn, type SeenCall, type ToolCallSeen } from "./managed-tasks-view.js";

const ID = "agent-cli/managed-tasks";
const FRAMING = `${ID}/result-framing`;
const BOUNDED = `${ID}/bounded-output`;
const WAIT = `${ID}/wait-limit`;

/** The kit's bound the wait-limit clause states (--task-wait-slack), in ms. */
export const MANAGED_BOUNDS: Readonly<Record<string, readonly number[]>> = { [WAIT]: [DEFAULT_TASK_WAIT_SLACK_MS] };

const FINAL_STATUSES = ["success", "failed", "error", "cancelled"];
/** "timeout", "time out", "timed out", "control_plane_timeout"... but not "timeout_seconds". */
export const TIMEOUT_WORD = /(?<![a-z])tim(?:e|ed)[\s_-]?out(?![a-z]|_?sec)/i;

type Case = { turn: ManagedTurn; call: ToolCallSeen };

function casesOf(run: AgentRun, role: ManagedTurn["role"], firstOnly = false): Case[] {
  return managedTurns(run)
    .filter((turn) => turn.role === role)
    .flatMap((turn) => (firstOnly ? turn.toolCalls.slice(0, 1) : turn.toolCalls).map((call) => ({ turn, call })));
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A text holds a value as written or JSON-escaped (inside a JSON tool result). */
const holds = (text: string, value: string): boolean => text.includes(value) || text.includes(JSON.stringify(value).slice(1, -1));
/** The exit code shown as a number after a word starting with "exit" or "return" (exit_code, exitCode, "exited with status"). */
export const showsExitCode = (text: string, code: number): boolean => new RegExp(`(?<![a-z])(?:exit|return)\\w*[^0-9]{0,24}?(?<![0-9])${code}(?![0-9])`, "i").test(text);
const showsWord = (text: string, word: string): boolean => new RegExp(`(?<![a-z])${escapeRegExp(word)}(?![a-z])`, "i").test(text);

/** The final task status the control plane answered for this call's task (or the one its plan ends with). */
function finalStatus(turn: ManagedTurn, call: ToolCallSeen): string {
  const ids = turn.submissions.filter((s) => s.call === call && s.request.taskId !== undefined).map((s) => s.request.taskId);
  const polled = turn.requests.filter((r) => r.request.method === "GET" && ids.includes(r.request.taskId) && FINAL_STATUSES.includes(r.request.taskStatus ?? "")).pop();
  return polled?.request.taskStatus ?? (turn.plan.kind === "fail" ? "failed" : "success");
}

/** How a turn ended, in words. */
function ending(turn: ManagedTurn): string {
  const o = turn.segment.terminal?.object;
  if (o === undefined) return "the turn has no terminal event";
  return o.type === "result" ? `the turn ended with ${o.is_error === true ? `an error result ${show(o.result ?? o.subtype, 80)}` : "a success result"}` : `the turn ended with ${String(o.type)}`;
}

const callEvents = (turn: ManagedTurn, ...calls: (SeenCall | undefined)[]): ReturnType<typeof eventAt> => calls.flatMap((c) => (c === undefined ? [] : eventAt(turn.transcript, c.at)));
const terminalLines = (turn: ManagedTurn): OutLine[] => (turn.segment.terminal !== undefined ? [turn.segment.terminal] : turn.segment.output.slice(-2));

function judgeFraming({ turn, call }: Case): Finding[] | undefined {
  const next = followUp(turn, call);
  if (next === undefined) {
    // A later call may be one the CLI's own per-turn limit refused; the first one must come back.
    if (call !== turn.toolCalls[0]) return undefined;
    return [finding(FRAMING, { transcript: turn.transcript, events: callEvents(turn, call), lines: terminalLines(turn) }, `${turnName(turn)}: the model never got the result of call ${call.id}: no follow-up model request came, and ${ending(turn)}`, { expected: "a follow-up request carrying the tool result" })];
  }
  const result = resultFor(next, call.id);
  if (result === undefined) {
    const ids = toolResults(next.call.body).map((r) => r.id);
    return [finding(FRAMING, { transcript: turn.transcript, events: callEvents(turn, call, next) }, `${turnName(turn)}: the follow-up request carries no tool result tied to call ${call.id} (${ids.length === 0 ? "it carries no tool result" : `tool results for ${ids.slice(0, 4).map((id) => show(id, 60)).join(", ")}`})`, { expected: `a tool result with the id ${call.id}` })];
  }
  const plan = turn.plan;
  const status = finalStatus(turn, call);
  const exit = plan.exitCode ?? 0;
  const missing = [
    showsWord(result.text, status) ? "" : `status ${show(status)}`,
    showsExitCode(result.text, exit) ? "" : `exit code ${exit}`,
    holds(result.text, plan.stdout ?? "") ? "" : `stdout ${show(plan.stdout)}`,
    holds(result.text, plan.stderr ?? "") ? "" : `stderr ${show(plan.stderr)}`,
  ].filter((m) => m !== "");
  return missing.length === 0 ? [] : [finding(FRAMING, { transcript: turn.transcript, events: callEvents(turn, call, next) }, `${turnName(turn)}: the tool result of call ${call.id} lacks the task's ${missing.join(", ")}`, { expected: `status ${show(status)}, exit code ${exit}, stdout ${show(plan.stdout)} and stderr ${show(plan.stderr)} in the tool result`, seen: show(result.text, 300) })];
}

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

function judgeBounded(run: AgentRun, { turn, call }: Case): Finding[] {
  const limit = run.managed?.outputLimit ?? DEFAULT_TASK_OUTPUT_LIMIT;
  const size = turn.plan.bytes ?? HUGE_STDOUT_BYTES;
  const found: Finding[] = [];
  const next = followUp(turn, call);
  const result = resultFor(next, call.id);
  const where = { transcript: turn.transcript, events: callEvents(turn, call, next) };
  if (next === undefined) found.push(finding(BOUNDED, { ...where, lines: terminalLines(turn) }, `${turnName(turn)}: after a task stdout of ${size} bytes the model got no follow-up request, and ${ending(turn)}`, { expected: "the output, cut, in a follow-up request" }));
  else if (result === undefined) found.push(finding(BOUNDED, where, `${turnName(turn)}: the follow-up request carries no tool result tied to call ${call.id}`, { expected: "the output, cut, in the tool result" }));
  else {
    const bytes = utf8Bytes(result.text);
    if (bytes > limit) {
      const over = finding(BOUNDED, where, `${turnName(turn)}: a task stdout of ${size} bytes reached the model as a tool result of ${bytes} bytes, over the kit's bound of ${limit} bytes (--task-output-limit)`, { expected: `at most ${limit} bytes`, seen: `${bytes} bytes` });
      found.push({ ...over, kitBound: kitBound("--task-output-limit", limit, `sending the model a tool result of ${bytes} bytes`, "bytes") });
    }
    else {
      const body = utf8Bytes(JSON.stringify(next.call.body) ?? "");
      if (body >= size) found.push(finding(BOUNDED, where, `${turnName(turn)}: the tool result is cut, but the follow-up request is ${body} bytes: the ${size}-byte stdout reached the model another way`, { expected: `a request well under ${size} bytes`, seen: `${body} bytes` }));
    }
  }
  const o = turn.segment.terminal?.object;
  const normal = o !== undefined && ((o.type === "result" && o.is_error === false) || o.type === "message_stop");
  if (next !== undefined && !normal) found.push(finding(BOUNDED, { transcript: turn.transcript, lines: terminalLines(turn) }, `${turnName(turn)}: after the huge output ${ending(turn)}, not with a success`, { expected: "the turn ends normally" }));
  return found;
}

function judgeWait(run: AgentRun, { turn, call }: Case): Finding[] | undefined {
  const submission = turn.submissions.find((s) => s.call === call);
  if (submission === undefined) return undefined;
  const args = isRecord(call.args) ? call.args : {};
  const timeoutS = typeof args.timeout_seconds === "number" ? args.timeout_seconds : (turn.task?.timeout_seconds ?? PENDING_TIMEOUT_S);
  const slack = run.managed?.waitSlackMs ?? DEFAULT_TASK_WAIT_SLACK_MS;
  const deadline = submission.t + timeoutS * 1000 + slack;
  const next = followUp(turn, call);
  const terminal = turn.segment.terminal;
  const moments = [next?.t, terminal?.event.t].filter((t): t is number => t !== undefined && t >= submission.t);
  const stopped = moments.length === 0 ? undefined : Math.min(...moments);
  const bound = `timeout_seconds ${timeoutS} plus ${slack} ms (--task-wait-slack)`;
  const where = { transcript: turn.transcript, events: [...callEvents(turn, call), ...eventAt(turn.transcript, submission.at), ...callEvents(turn, next)] };
  if (stopped === undefined) return [finding(WAIT, { ...where, lines: turn.segment.output.slice(-2), stderrOf: turn.segment.process }, `${turnName(turn)}: the CLI never stopped waiting for the pending task: no follow-up request and no terminal event`, { expected: `the wait abandoned within ${bound} of the submission` })];
  const found: Finding[] = [];
  const after = stopped - submission.t;
  if (stopped > deadline) {
    const late = finding(WAIT, where, `${turnName(turn)}: the CLI stopped waiting for the pending task ${seconds(after)} after submitting it, past ${bound}`, { expected: `within ${seconds(deadline - submission.t)}`, seen: seconds(after) });
    found.push({ ...late, kitBound: kitBound("--task-wait-slack", slack, `still waiting for the pending task (it stopped ${seconds(after)} after submitting it)`) });
  }
  const result = resultFor(next, call.id);
  if (next === undefined) found.push(finding(WAIT, { ...where, lines: terminalLines(turn) }, `${turnName(turn)}: the CLI ended the turn without telling the model that the task timed out (${ending(turn)})`, { expected: "a follow-up tool result saying the wait timed out" }));
  else if (result === undefined || !TIMEOUT_WORD.test(result.text)) found.push(finding(WAIT, where, `${turnName(turn)}: the follow-up ${result === undefined ? `carries no tool result tied to call ${call.id}` : "tool result does not say the wait timed out"}`, { expected: 'a tool result saying "timeout" or "timed out"', seen: show(result?.text, 200) }));
  if (terminal === undefined) found.push(finding(WAIT, { transcript: turn.transcript, lines: turn.segment.output.slice(-2), stderrOf: turn.segment.process }, `${turnName(turn)}: the turn has no terminal event after the CLI stopped waiting`, { expected: "one terminal event" }));
  const extra = extraTerminals(turn);
  if (extra.length > 0) found.push(finding(WAIT, { transcript: turn.transcript, lines: [...terminalLines(turn), ...extra].slice(0, 4) }, `${turnName(turn)}: ${extra.length + 1} terminal events answer the turn`, { expected: "exactly one terminal event" }));
  return found;
}

/** Judges the cases of turns whose task ran (the rest: control-plane-api's), or skips. */
function judgeRan(cases: readonly Case[], judge: (c: Case) => Finding[] | undefined, none: Unjudged): Judgement {
  const ran = withoutBlocked(cases, none);
  return judgeSome(ran.cases, judge, ran.none);
}

export const resultChecks: Check<AgentRun>[] = [
  {
    clause: FRAMING,
    judge: (run) => callCause(run) ?? judgeRan(casesOf(run, "framing"), judgeFraming, skip("the kit's model made no call of the task with known output (turn mt-succeed): see agent-cli/turns for how that turn ended")),
  },
  {
    clause: BOUNDED,
    judge: (run) => callCause(run) ?? judgeRan(casesOf(run, "huge", true), (c) => judgeBounded(run, c), skip("the kit's model made no call of the task with a huge stdout (turn mt-huge): see agent-cli/turns for how that turn ended")),
  },
  {
    clause: WAIT,
    judge: (run) => callCause(run) ?? judgeRan(casesOf(run, "pending", true), (c) => judgeWait(run, c), skip("the CLI never submitted the pending task (turn mt-pending), so there was no wait to abandon: see agent-cli/managed-tasks/result-framing and control-plane-api")),
  },
];
