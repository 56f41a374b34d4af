/**
 * What agent-cli/turns says about how terminal events pair with turns: a line merged into
 * another line's model request, a turn the kit stopped waiting for, and turns answered out of
 * order (the pairing itself is analysis.ts's viewProcesses, by order and by content).
 */
import type { Finding } from "../../report/types.js";
import { callsIn, mergedInto, turnTagOf, type Segment } from "../analysis.js";
import { carriedTags } from "../directives.js";
import { boundsOf } from "../scenarios.js";
import type { ModelCall, Transcript, TranscriptEvent } from "../types.js";
import { finding, processesOf, show, type AgentRun } from "./helpers.js";
import { secondsText as seconds } from "../../printable.js";
import { kitBound, requestCount } from "./kit-bound.js";

const ONE = "agent-cli/turns/one-terminal-per-turn";
const ORDER = "agent-cli/turns/terminal-in-order";

const inputEvents = (segment: Segment): { event: TranscriptEvent; at: number }[] => (segment.input ? [{ event: segment.input.event, at: segment.input.at }] : []);

/** The model event of a call, for evidence. */
function callEvent(transcript: Transcript, call: ModelCall): { event: TranscriptEvent; at: number }[] {
  const at = transcript.events.findIndex((e) => e.kind === "model" && e.call === call);
  const event = transcript.events[at];
  return event === undefined ? [] : [{ event, at }];
}

/**
 * The line has no terminal event because the CLI merged it with another line into one model
 * request and answered that request once: named as such, not as a turn the kit waited for.
 */
export function mergedFinding(transcript: Transcript, segment: Segment): Finding | undefined {
  const merged = mergedInto(transcript, segment);
  if (merged === undefined) return undefined;
  const tag = turnTagOf(segment.input?.message) ?? "?";
  const others = merged.others.join(" and ");
  const answered = processesOf(transcript)
    .find((v) => v.process === segment.process)
    ?.inputs.find((input) => merged.others.includes(turnTagOf(input.message) ?? "") && input.terminals.length > 0)?.terminals[0];
  const at = Math.round(merged.call.startT ?? 0);
  return finding(
    ONE,
    { transcript, lines: answered ? [answered] : [], events: [...inputEvents(segment), ...callEvent(transcript, merged.call)] },
    `the CLI merged this line (${tag}) with ${others} into one model request (#${merged.call.seq}, whose last user message carried both lines) and answered that request with ${answered ? "one terminal event" : "no terminal event"}: this line got none of its own`,
    { expected: "one terminal event for each user line: answer queued lines one after the other, or each with its own result", seen: `model call #${merged.call.seq} at ${at} ms carried turns ${[...merged.others, tag].join(", ")}${answered ? `; its result at ${Math.round(answered.event.t)} ms was paired with ${others}` : ""}; no terminal event for ${tag} followed` },
  );
}

/** What the CLI was doing when the kit stopped waiting for the turn: asking the model, or silent since its last output. */
function activityOf(transcript: Transcript, segment: Segment, gaveUpAt: number): string {
  const calls = callsIn(transcript, segment);
  const last = segment.output.at(-1)?.event.t ?? segment.input?.event.t ?? 0;
  const lastCall = calls.at(-1);
  if (lastCall !== undefined && (lastCall.outcome === "stalled" || (lastCall.startT ?? 0) > last)) return `waiting on the model: ${requestCount(calls.length)}, the last at ${Math.round(lastCall.startT ?? 0)} ms`;
  if (calls.length > 1) return `still retrying: ${requestCount(calls.length)}`;
  return `silent since ${Math.round(last)} ms (${seconds(gaveUpAt - last)} before the kit stopped waiting)`;
}

/** The kit waited --turn-timeout for the turn's terminal event and gave up: a failure at the kit's bound. */
export function unansweredFinding(run: AgentRun, transcript: Transcript, segment: Segment): Finding {
  const view = processesOf(transcript).find((v) => v.process === segment.process);
  const gaveUp = view?.events.find(({ event, at }) => event.kind === "timeout" && /terminal event/.test(event.waitingFor) && at > (segment.input?.at ?? 0));
  const waited = gaveUp?.event.kind === "timeout" ? Math.round(gaveUp.event.afterMs) : run.turnTimeoutMs;
  const activity = activityOf(transcript, segment, gaveUp?.event.t ?? Infinity);
  const found = finding(
    ONE,
    { transcript, lines: segment.output.slice(-2), stderrOf: segment.process, events: [...inputEvents(segment), ...(gaveUp ? [gaveUp] : [])] },
    `no terminal event within ${waited} ms of the turn (--turn-timeout, the kit's bound, not the contract's: raise it if the CLI is only slow); the CLI was ${activity}`,
    { expected: "one result (or message_stop)", seen: `no terminal event after ${waited} ms; ${activity}` },
  );
  return { ...found, kitBound: kitBound("--turn-timeout", waited, activity) };
}

type Pair = { transcript: Transcript; segment: Segment; next: Segment; early: ModelCall[]; own: ModelCall | undefined; tag: string };

/** Findings of terminal-in-order on one pair of consecutive turns (this one, and the next the kit wrote). */
export function orderFindings(run: AgentRun): (pair: Pair) => Finding[] {
  return ({ transcript, segment, next, early, own, tag }) => {
    const first = early[0];
    if (first === undefined) return [];
    const mine = turnTagOf(segment.input?.message);
    // One request carried both lines (merged): no overlap of two turns; a line left without a
    // terminal event by it is agent-cli/turns/one-terminal-per-turn's.
    if (mine !== undefined && first.directive?.turn !== mine && carriedTags(first).includes(mine)) return [];
    const at = (call: ModelCall | undefined): number => Math.round(call?.startT ?? 0);
    const terminalT = segment.terminal?.event.t ?? 0;
    const overtook = own === undefined || (first.startT ?? 0) < (own.startT ?? 0);
    // The kit reads the terminal line and the next turn's model request on different sockets of one
    // event loop: a CLI that wrote its result and then asked the model can be seen the other way round,
    // by as much as a busy loop delays one of them. Within ORDER_SKEW_MS that is no evidence.
    if (!overtook && (first.startT ?? 0) >= terminalT - boundsOf(run).orderSkewMs) return [];
    const answeredFirst = next.terminal !== undefined && next.terminal.event.t < terminalT;
    const message = overtook
      ? `answered out of order: the model received turn ${tag}'s request before this turn's${answeredFirst ? `, and ${tag}'s terminal event came first (the kit paired each terminal event with the line whose reply it carries)` : ""}`
      : `the next turn (${tag}) was sent to the model before this turn's terminal event`;
    const lines = [segment.terminal, answeredFirst ? next.terminal : undefined].filter((l): l is NonNullable<typeof l> => l !== undefined);
    const seen = `model call #${first.seq} (turn ${tag}) at ${at(first)} ms${own !== undefined ? `, this turn's first call #${own.seq} at ${at(own)} ms` : ""}, this turn's terminal at ${Math.round(terminalT)} ms${answeredFirst && next.terminal ? `, ${tag}'s at ${Math.round(next.terminal.event.t)} ms (${show(next.terminal.object?.result ?? next.terminal.object?.type, 60)})` : ""}`;
    return [finding(ORDER, { transcript, lines }, message, { expected: "turns answered one after the other", seen })];
  };
}
