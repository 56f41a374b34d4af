import type { Check } from "../../report/judge.js";
import { secondsText } from "../../printable.js";
import { LIMITS } from "../launch.js";
import { isRecord, type OutLine, type ProcessView } from "../analysis.js";
import { DEFAULT_BOUNDS, SHORT_QUIET_MS } from "../scenarios.js";
import { allProcesses, captureOr, finding, judgeEach, show, skip, type AgentRun, type Scoped } from "./helpers.js";
import { gatedRefusal } from "./managed-tasks-own.js";
import { refusedViews } from "./refusals.js";

const ID = "agent-cli/output";

/** The quiet windows silent-before-input states: the long one (--quiet-window) and every other launch's, in ms. */
export const SILENCE_BOUNDS: Readonly<Record<string, readonly number[]>> = {
  [`${ID}/silent-before-input`]: [DEFAULT_BOUNDS.quietWindowMs, SHORT_QUIET_MS],
};

/** Processes that lived to be written to; one that died first fails session/stays-up. */
function writtenTo(run: AgentRun): Scoped<ProcessView>[] {
  // A refused launch (refusals.ts) says so at once, before or after the first line as the clocks fall:
  // session/stays-up judges it (or agent-cli/managed-tasks/gated, or the clause of the flag it refused).
  const refused = refusedViews(run);
  return allProcesses(run).filter(({ transcript, item }) => transcript.stdoutOnly !== true && item.inputs.length > 0 && !gatedRefusal(transcript, item) && !refused.has(item));
}

/** Milliseconds from a process's launch to the first line the host wrote to it. */
function watchedMs(view: ProcessView): number {
  const launch = view.events.find(({ event }) => event.kind === "launch")?.event.t ?? 0;
  return Math.max(0, (view.inputs[0]?.event.t ?? launch) - launch);
}


/** How long stdout was watched before the first input line: a note for the report. */
export function silenceNotes(run: AgentRun): string[] {
  const watched = writtenTo(run).map(({ transcript, item }) => ({ scenario: transcript.scenario, ms: watchedMs(item) })).sort((a, b) => b.ms - a.ms);
  const [longest, ...others] = watched;
  if (longest === undefined) return [];
  const low = secondsText(others[others.length - 1]?.ms ?? 0);
  const high = secondsText(others[0]?.ms ?? 0);
  const rest = others.length === 0 ? "" : `; ${low === high ? low : `${low} to ${high}`} after the ${others.length} other launch${others.length === 1 ? "" : "es"}`;
  return [`output/silent-before-input: stdout was watched before the first input line for ${secondsText(longest.ms)} after the longest launch (${longest.scenario})${rest}`];
}

/** Every judged stdout line with its transcript (partial and oversize lines have their own clauses). */
function lines(run: AgentRun): { transcript: AgentRun["transcripts"][number]; line: OutLine }[] {
  return allProcesses(run).flatMap(({ transcript, item }) => item.lines.filter((l) => !l.blank && !l.event.partial && !l.event.oversize).map((line) => ({ transcript, line })));
}

const NO_OUTPUT = skip("the CLI wrote nothing on stdout");

export const outputChecks: Check<AgentRun>[] = [
  {
    clause: `${ID}/silent-before-input`,
    judge: (run) =>
      judgeEach(
        writtenTo(run),
        ({ transcript, item }) => {
          const firstSend = item.inputs[0]?.at ?? Infinity;
          const early = item.lines.filter((l) => l.at < firstSend && !l.blank);
          const watched = secondsText(watchedMs(item));
          return early.length === 0 ? [] : [finding(`${ID}/silent-before-input`, { transcript, lines: early.slice(0, 3) }, `${early.length} stdout line(s) before the first input line was written (stdout was watched for ${watched} after launch)`, { expected: "no output until the first line arrives" })];
        },
        captureOr(run, "the input lines the host wrote, so what came before the first", skip("no process received an input line")),
      ),
  },
  {
    clause: `${ID}/json-object-lines`,
    judge: (run) =>
      judgeEach(
        lines(run),
        ({ transcript, line }) =>
          line.object !== undefined
            ? []
            : [finding(`${ID}/json-object-lines`, { transcript, lines: [line] }, line.json === undefined ? "a stdout line is not JSON" : "a stdout line is JSON but not an object", { expected: "one JSON object per line", seen: show(line.event.line) })],
        NO_OUTPUT,
      ),
  },
  {
    clause: `${ID}/no-partial-line`,
    judge: (run) =>
      judgeEach(
        allProcesses(run).filter(({ item }) => item.lines.length > 0),
        ({ transcript, item }) =>
          item.lines.filter((l) => l.event.partial).map((line) => finding(`${ID}/no-partial-line`, { transcript, lines: [line] }, "the last stdout line has no newline", { expected: "every event followed by a newline" })),
        NO_OUTPUT,
      ),
  },
  {
    clause: `${ID}/line-size`,
    judge: (run) =>
      judgeEach(
        allProcesses(run).filter(({ item }) => item.lines.length > 0),
        ({ transcript, item }) =>
          item.lines
            .filter((l) => l.event.oversize)
            .map((line) => finding(`${ID}/line-size`, { transcript, lines: [line] }, `an unbroken stdout line passed 4 MiB (runtime_output_oversize)`, { expected: "lines under 4 MiB", seen: `${line.event.bytes ?? "more than 4194304"} bytes without a newline` })),
        NO_OUTPUT,
      ),
  },
  {
    clause: `${ID}/typed-events`,
    judge: (run) =>
      judgeEach(
        lines(run).filter(({ line }) => line.object !== undefined),
        ({ transcript, line }) =>
          typeof line.object?.type === "string" ? [] : [finding(`${ID}/typed-events`, { transcript, lines: [line] }, "an event has no string type; the Desktop ignores it", { seen: show(line.object?.type) })],
        NO_OUTPUT,
      ),
  },
];

/** Event types the Desktop would ignore, with counts: a note for the report, not a verdict. */
export function ignoredEvents(run: AgentRun): string[] {
  const counts = new Map<string, number>();
  for (const { line } of lines(run)) {
    const o = line.object;
    if (o === undefined || typeof o.type !== "string") continue;
    const known = ["system", "assistant", "user", "result", "content_block_start", "content_block_delta", "content_block_stop", "message_stop"];
    let key: string | undefined;
    if (!known.includes(o.type)) key = o.type === "stream_event" && isRecord(o.event) ? `stream_event(${String(o.event.type)})` : o.type;
    else if (o.type === "system" && o.subtype !== "init") key = `system/${String(o.subtype)}`;
    else if (o.type === "user") key = "user (echoed input)";
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  if (counts.size === 0) return [];
  const list = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([type, n]) => `${type} ×${n}`);
  return [`Events a Desktop would ignore (not failures): ${list.join(", ")}.`];
}

export const SESSION_ID = LIMITS.sessionId;
