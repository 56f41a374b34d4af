import type { Evidence, Finding, Judgement, WireEntry } from "../../report/types.js";
import { viewProcesses, type OutLine, type ProcessView } from "../analysis.js";
import { decisiveStderrLine } from "../causes.js";
import { describeSweep } from "../../leftovers.js";
import type { LaunchFacts } from "../launch.js";
import type { KitBounds, ScenarioStop } from "../scenarios.js";
import type { BridgeSetup } from "../managed-tasks.js";
import type { AgentMode, ControlPlaneRequest, Transcript, TranscriptEvent } from "../types.js";

/** Everything the agent-cli checks judge: the scenarios' transcripts and the launch facts. */
export interface AgentRun {
  mode: AgentMode;
  transcripts: Transcript[];
  /** Absent when judging recorded files. */
  launch?: LaunchFacts;
  /** The fixture's API key, when the launch configuration used {{fixture.token}}. */
  token?: string;
  turnTimeoutMs: number;
  /** Why the kit launched nothing (the run then judges the configuration only). */
  notLaunched?: string;
  /** The kit's time bounds the run was recorded with (absent for recorded files: the defaults apply). */
  bounds?: KitBounds;
  /** Scenarios the kit stopped early or never started, and why (live runs only). */
  stops?: ScenarioStop[];
  /** --run-timeout of a live run. */
  runTimeoutMs?: number;
  /** Judging recorded transcripts: no live process, no fixture token, no launch facts. */
  offline: boolean;
  /** The managed-task bridge as this run set it up (live runs; recorded files: absent). */
  managed?: ManagedRunInfo;
}

/** What the managed-tasks checks need from the run besides the transcripts. */
export interface ManagedRunInfo {
  /** How the launch configuration sets the bridge; absent when it does not use {{fixture.controlplane}}. */
  setup?: BridgeSetup;
  /** The control-plane fixture's key, when the configuration used {{fixture.controlplane_token}}. */
  token?: string;
  /** --task-output-limit and --task-wait-slack. */
  outputLimit: number;
  waitSlackMs: number;
}

export type Unjudged = Extract<Judgement, { outcome: "skip" | "not-applicable" }>;

export const skip = (reason: string): Unjudged => ({ outcome: "skip", reason });
export const notApplicable = (reason: string): Unjudged => ({ outcome: "not-applicable", reason });

/** Every transcript judged is a plain stdout capture (made outside the kit): no host side, no model side. */
export const capturesOnly = (run: Pick<AgentRun, "transcripts">): boolean => run.transcripts.length > 0 && run.transcripts.every((t) => t.stdoutOnly === true);

const recordIt = (scenario?: string): string => `record the CLI with \`awp-conformance record${scenario !== undefined ? ` --scenario ${scenario}` : ""}\` (or run it live with \`awp-conformance run\`) to judge this clause`;

/** Why a clause cannot be judged on a plain stdout capture: it shows what the CLI printed, not `what`. */
export function captureReason(what: string): string {
  return `a plain stdout capture shows only what the CLI printed, not ${what}: ${recordIt()}`;
}

/** `otherwise`, unless the run judges only plain stdout captures: then a skip (the clause may apply; the capture cannot show it), with the capture's reason. */
export function captureOr(run: Pick<AgentRun, "transcripts">, what: string, otherwise: Unjudged): Unjudged {
  return capturesOnly(run) ? skip(captureReason(what)) : otherwise;
}

/** Why nothing of a scenario was judged because it is missing, and how to get it: run it (live), record it (recorded files). */
export function scenarioMissing(run: Pick<AgentRun, "transcripts" | "offline">, scenario: string, option: string = scenario): string {
  if (capturesOnly(run)) return `a plain stdout capture holds none of the kit's scenarios (this clause needs the ${scenario} scenario): ${recordIt(option)}`;
  if (run.offline) return `the recorded transcripts hold no ${scenario} scenario: record it with \`awp-conformance record --scenario ${option}\` and check that file too, or run the CLI live`;
  return `the ${scenario} scenario did not run: run it with --scenario ${option}`;
}

/** The run holds a transcript of the kit's scenario (recorded by the kit, not a plain capture). */
export const ran = (run: Pick<AgentRun, "transcripts">, scenario: string): boolean => run.transcripts.some((t) => t.scenario === scenario && t.stdoutOnly !== true);

export function judgeEach<T>(items: readonly T[], judge: (item: T) => Finding[], none: Unjudged): Judgement {
  if (items.length === 0) return none;
  return { outcome: "judged", judged: items.length, findings: items.flatMap(judge) };
}

/** Like judgeEach, but an item may turn out unjudgeable (undefined); only the rest count. */
export function judgeSome<T>(items: readonly T[], judge: (item: T) => Finding[] | undefined, none: Unjudged): Judgement {
  const verdicts = items.map(judge).filter((v): v is Finding[] => v !== undefined);
  if (verdicts.length === 0) return none;
  return { outcome: "judged", judged: verdicts.length, findings: verdicts.flat() };
}

const views = new WeakMap<Transcript, ProcessView[]>();

/** Processes of a transcript (memoized: every check reads the same analysis). */
export function processesOf(transcript: Transcript): ProcessView[] {
  let known = views.get(transcript);
  if (known === undefined) {
    known = viewProcesses(transcript);
    views.set(transcript, known);
  }
  return known;
}

export interface Scoped<T> {
  transcript: Transcript;
  item: T;
}

/** Every process of every transcript (optionally only some scenarios). */
export function allProcesses(run: AgentRun, scenarios?: readonly string[]): Scoped<ProcessView>[] {
  return run.transcripts
    .filter((t) => scenarios === undefined || scenarios.includes(t.scenario))
    .flatMap((transcript) => processesOf(transcript).map((item) => ({ transcript, item })));
}

export function liveTranscripts(run: AgentRun): Transcript[] {
  return run.transcripts.filter((t) => t.stdoutOnly !== true);
}

function excerpt(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function eventEvidence(event: TranscriptEvent, at: number): Evidence {
  const stream = event.kind === "stdout" ? "stdout" : event.kind === "stderr" ? "stderr" : event.kind === "send" ? "stdin" : "process";
  const text =
    event.kind === "stdout" || event.kind === "send" ? event.line
    : event.kind === "stderr" ? event.text
    : event.kind === "exit" ? `exit ${event.code ?? "none"}${event.signal ? ` by ${event.signal}` : ""}${event.killedByKit ? " (stopped by the kit)" : ""} at ${Math.round(event.t)} ms`
    : event.kind === "timeout" ? `waited ${Math.round(event.afterMs)} ms for ${event.waitingFor}`
    : event.kind === "action" ? `host: ${event.action} at ${Math.round(event.t)} ms`
    : event.kind === "launch" ? event.argv.join(" ")
    : event.kind === "note" ? event.text
    : event.kind === "leftovers" ? describeSweep(event)
    : event.kind === "controlplane" ? describeControlPlane(event.request)
    : `model call #${event.call.seq} ${event.call.method} ${event.call.path} -> ${event.call.status} ${event.call.outcome}${event.call.refusal !== undefined ? `: ${event.call.refusal}` : ""}`;
  return { stream, seq: at, excerpt: excerpt(text) };
}

/** One line for a control-plane request: "control plane #2 GET /v1/tasks/… -> 200 (running)". */
export function describeControlPlane(request: ControlPlaneRequest): string {
  return `control plane #${request.seq} ${request.method} ${request.path} -> ${request.status} ${request.outcome}${request.taskStatus !== undefined ? ` (${request.taskStatus})` : ""}`;
}

export interface Where {
  transcript: Transcript;
  events?: { event: TranscriptEvent; at: number }[];
  lines?: OutLine[];
  /** Add the tail of this process's stderr (why it exited, usually). */
  stderrOf?: number;
}

/** The last 300 characters the process wrote on stderr, and the line that says why it stopped when the tail does not hold it. */
function stderrTail(transcript: Transcript, process: number): Evidence[] {
  const chunks = transcript.events.map((event, at) => ({ event, at })).filter(({ event }) => event.kind === "stderr" && event.process === process);
  const last = chunks[chunks.length - 1];
  if (last === undefined) return [];
  const text = chunks.map(({ event }) => (event.kind === "stderr" ? event.text : "")).join("");
  const tail = text.length > 300 ? `…${text.slice(-300)}` : text;
  const decisive = decisiveStderrLine(transcript, process);
  const first = decisive !== undefined && !tail.includes(decisive) ? [{ stream: "stderr" as const, excerpt: decisive }] : [];
  return [...first, { stream: "stderr", seq: last.at, excerpt: tail }];
}

export interface Detail {
  expected?: string;
  seen?: string;
}

const WIRE_EVENTS_BEFORE = 30;
const WIRE_EVENTS_AFTER = 8;
const WIRE_TEXT = 1024;

function wireText(event: TranscriptEvent): { stream: WireEntry["stream"]; text: string } {
  switch (event.kind) {
    case "send":
      return { stream: "stdin", text: event.line };
    case "stdout":
      return { stream: "stdout", text: event.line + (event.partial ? " (no newline at exit)" : "") + (event.oversize ? ` (oversize: ${event.bytes ?? "?"} bytes)` : "") };
    case "stderr":
      return { stream: "stderr", text: event.text };
    case "model":
      return { stream: "model", text: `#${event.call.seq} ${event.call.api} ${event.call.path} -> ${event.call.status} ${event.call.outcome}${event.call.replyText ? `: ${event.call.replyText}` : ""}${event.call.refusal !== undefined ? `: ${event.call.refusal}` : ""}` };
    case "controlplane":
      return { stream: "model", text: describeControlPlane(event.request) };
    case "exit":
    case "leftovers":
    case "launch":
    case "timeout":
    case "note":
    case "action":
      return { stream: event.kind === "exit" || event.kind === "leftovers" ? "process" : "host", text: eventEvidence(event, 0).excerpt };
  }
}

/** The events of the finding's process around its evidence, highlighted there; bounded. */
function transcriptWire(transcript: Transcript, ats: readonly number[]): WireEntry[] {
  if (ats.length === 0) return [];
  const process = transcript.events[ats[0] as number]?.process;
  const first = Math.min(...ats);
  const last = Math.max(...ats);
  const wire: WireEntry[] = [];
  transcript.events.forEach((event, at) => {
    if (event.process !== process || at < first - WIRE_EVENTS_BEFORE || at > last + WIRE_EVENTS_AFTER) return;
    const { stream, text } = wireText(event);
    const truncated = text.length > WIRE_TEXT;
    wire.push({ t: event.t, stream, text: truncated ? `${text.slice(0, WIRE_TEXT)}…` : text, ...(ats.includes(at) ? { highlight: true } : {}), ...(truncated ? { truncated: true } : {}) });
  });
  return wire;
}

/** The first events of a session, bounded like a finding's wire log (--evidence all: what a passing clause was judged on). */
export function sessionWire(transcript: Transcript): WireEntry[] {
  return transcript.events.slice(0, WIRE_EVENTS_BEFORE + WIRE_EVENTS_AFTER).map((event) => {
    const { stream, text } = wireText(event);
    const truncated = text.length > WIRE_TEXT;
    return { t: event.t, stream, text: truncated ? `${text.slice(0, WIRE_TEXT)}…` : text, ...(truncated ? { truncated: true } : {}) };
  });
}

export function finding(clause: string, where: Where, message: string, detail: Detail = {}): Finding {
  const evidence = [
    ...(where.lines ?? []).map((line) => eventEvidence(line.event, line.at)),
    ...(where.events ?? []).map(({ event, at }) => eventEvidence(event, at)),
  ].slice(0, 6);
  if (where.stderrOf !== undefined) evidence.push(...stderrTail(where.transcript, where.stderrOf));
  const ats = [...(where.lines ?? []).map((l) => l.at), ...(where.events ?? []).map((e) => e.at)];
  const wire = transcriptWire(where.transcript, ats);
  return {
    clause,
    message,
    scenario: `${where.transcript.scenario} (${where.transcript.mode})`,
    ...(detail.expected !== undefined ? { expected: detail.expected } : {}),
    ...(detail.seen !== undefined ? { seen: detail.seen } : {}),
    ...(evidence.length > 0 ? { evidence } : {}),
    ...(wire.length > 0 ? { wire } : {}),
    foundBy: "scenario",
  };
}

export function show(value: unknown, max = 160): string {
  if (value === undefined) return "(absent)";
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export const OFFLINE = skip("needs a live run (recorded transcripts carry no launch configuration or kit-side timing)");
