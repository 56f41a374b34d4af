/**
 * Run-level causes that decide what can be judged at all: a CLI that never reached the
 * kit's model, or one that exited before answering its first turn. Each is decided once
 * per run, so every clause it affects is skipped with the same reason.
 */
import { printableLine } from "../printable.js";
import { hostEndedAt, modelCalls, userTurns, viewProcesses, type OutLine, type ProcessView } from "./analysis.js";
import type { ModelCall, StdoutEvent, Transcript } from "./types.js";

/** Event types only a CLI that serves a turn writes (a result counts when it is not an error). */
const SERVING_TYPES = new Set(["assistant", "content_block_start", "content_block_delta", "content_block_stop", "message_start", "message_delta", "message_stop", "stream_event"]);

/** The error results (is_error true) a process wrote, in order. */
export function errorAnswers(view: ProcessView): OutLine[] {
  return view.lines.filter((line) => line.object?.type === "result" && line.object.is_error === true);
}

/**
 * The process wrote nothing a serving CLI writes and asked the model nothing: at most one
 * error result (besides system events and stray text), and no line but user turns reached it
 * before it first wrote (or ended), so it was not answering a malformed or shutdown line. A
 * start refusal looks like this whether its answer reached the kit before or after the first
 * input line.
 */
export function servedNothing(view: ProcessView): boolean {
  if (view.events.some(({ event }) => event.kind === "model")) return false;
  const other = view.inputs.find((input) => input.kind !== "user");
  const spoke = view.lines.find((line) => !line.blank)?.at ?? view.exit?.at ?? Infinity;
  if (other !== undefined && other.at < spoke) return false;
  const serving = view.lines.some(({ object }) => object !== undefined && (object.type === "result" ? object.is_error !== true : SERVING_TYPES.has(String(object.type))));
  return !serving && errorAnswers(view).length <= 1;
}

/** When the host first asked the process to end: the end of stdin, the shutdown line, a signal or a stop. */
export function askedToEndAt(view: ProcessView): number | undefined {
  const ended = hostEndedAt(view);
  const closed = view.events.find(({ event }) => event.kind === "action" && event.action === "close-stdin")?.at;
  return closed === undefined ? ended : ended === undefined ? closed : Math.min(closed, ended);
}

/**
 * The process ended on its own without serving a turn: a refused launch (bad arguments,
 * missing configuration), whatever moment the exit happened to come. Either it exited
 * before any input line, or after the first turn was written but before it printed anything
 * for it (the host did not ask it to stop), or it exited before the host asked it to end
 * having written at most one error result and nothing a serving CLI writes, with no model
 * request: a startup error printed at once reaches the kit before or after its first line,
 * as the two processes' clocks fall. (judge.ts and the checks also count a process the host
 * stopped meanwhile, when its answer is the same as a refusal's elsewhere in the run:
 * checks/refusals.ts.) An exit after the host closed stdin is not one: the host asked for it
 * (a fuzzed session may end before any turn).
 */
export function exitedAtStart(view: ProcessView): boolean {
  const exit = view.exit;
  if (exit === undefined || exit.killedByKit) return false;
  // The host asked it to end first (the end of stdin, the shutdown line, a signal, a stop): the exit is the host's doing.
  const asked = askedToEndAt(view);
  if (asked !== undefined && asked < exit.at) return false;
  if (servedNothing(view)) return true;
  const firstInput = view.inputs[0];
  if (firstInput === undefined || exit.at < firstInput.at) return true;
  const first = userTurns(view)[0];
  return first !== undefined && first === firstInput && first.output.length === 0 && first.terminals.length === 0;
}

const DECISIVE = /\b(error|errors|unknown|invalid|unrecognized|unsupported|not found|no such|cannot|can't|could not|failed|fatal|denied|missing|required|refused)\b/i;
/** A usage banner says something is wrong, but less precisely than the line that says what. */
const USAGE = /\busage\b/i;
const MAX_LINE = 300;

/** Every stderr line the process wrote, in order (chunks joined first, so split lines are whole). */
export function stderrLines(transcript: Transcript, process: number): string[] {
  const text = transcript.events.map((e) => (e.kind === "stderr" && e.process === process ? e.text : "")).join("");
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
}

/**
 * The stderr line that most likely says why the process stopped: the first one that reads
 * like an error (unknown argument, invalid, not found...), else a usage line, else the last one.
 */
export function decisiveStderrLine(transcript: Transcript, process: number): string | undefined {
  const lines = stderrLines(transcript, process);
  const line = lines.find((l) => DECISIVE.test(l)) ?? lines.find((l) => USAGE.test(l)) ?? lines[lines.length - 1];
  if (line === undefined) return undefined;
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}

/** How to point a CLI at the fixture: part of every reason that needs the model. */
export const FIXTURE_HINT =
  "point the CLI's model endpoint at the kit's fixture, e.g. --env OPENAI_BASE_URL={{fixture.openai}} (OpenAI chat completions) or --env ANTHROPIC_BASE_URL={{fixture.anthropic}} (Anthropic Messages), with its API key --env <NAME>={{fixture.token}}";

export const NO_MODEL_REASON = `the CLI never called the kit's model fixture, so nothing that needs a model request could be judged: ${FIXTURE_HINT}`;
export const UNAUTHORIZED_REASON =
  "every request the CLI sent the kit's model fixture lacked the fixture's API key (HTTP 401), so nothing that needs a model reply could be judged (the kit fails agent-cli/input/text-block for it): pass {{fixture.token}} as the CLI's API key, e.g. --env OPENAI_API_KEY={{fixture.token}}";

/** The fixture refused the request itself (a wrong path or method, no key, a request it cannot serve), as opposed to an error a turn's directive scripted. */
export function isRefusedCall(call: ModelCall): boolean {
  return call.outcome === "bad-request" || call.outcome === "unauthorized";
}

/** What to do about each refusal status. */
const REFUSAL_HINTS: Readonly<Record<number, string>> = {
  401: "pass {{fixture.token}} as the CLI's API key, e.g. --env OPENAI_API_KEY={{fixture.token}}",
  404: "the fixture answers POST /v1/chat/completions (OpenAI, base URL {{fixture.openai}}) and POST /v1/messages (Anthropic, base URL {{fixture.anthropic}}): check the path the CLI builds from the base URL it is given",
  405: "the fixture answers POST only",
};
const OTHER_HINT = "the fixture's answer says what it refused, as the real API would: send the request the API documents";
const SHOWN_KINDS = 3;

export interface ModelRefusal {
  /** The shared reason of every clause that needs a model reply. */
  reason: string;
  /** The first refused request, where it is in its transcript. */
  first: { transcript: Transcript; call: ModelCall; at: number };
}

/** A refused model request in words: its status, method and path, and why (the API rule it broke, with its page, when the fixture gave one). */
export function refusedCallText(call: ModelCall): string {
  const why = call.refusal !== undefined ? call.refusal.replace(/^HTTP \d+: /, "") : call.error;
  return `HTTP ${call.status} to ${call.method} ${call.path}${why !== undefined ? `: ${why}` : ""}`;
}

/**
 * Every request the CLI sent the kit's model was refused by the fixture (HTTP 404 for a wrong
 * path, 401 without the key, 400 for a request the API would refuse): one root cause for the
 * whole run, or undefined when a request got through (or none was made).
 */
export function modelRefusal(transcripts: readonly Transcript[]): ModelRefusal | undefined {
  const calls = transcripts.filter((t) => t.stdoutOnly !== true).flatMap((transcript) => modelCalls(transcript).map((c) => ({ ...c, transcript })));
  const first = calls[0];
  if (first === undefined || !calls.every(({ call }) => isRefusedCall(call))) return undefined;
  const where = { transcript: first.transcript, call: first.call, at: first.at };
  // A 401 for the right key in the wrong header (authorized, refused by the API's rule) is no missing key.
  if (calls.every(({ call }) => call.outcome === "unauthorized" && !call.authorized)) return { reason: UNAUTHORIZED_REASON, first: where };
  const kinds = new Map<string, number>();
  for (const { call } of calls) {
    const kind = refusedCallText(call);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const shown = [...kinds].slice(0, SHOWN_KINDS).map(([kind, n]) => `${kind}${n > 1 ? ` (×${n})` : ""}`);
  const more = kinds.size > SHOWN_KINDS ? `; ${kinds.size - SHOWN_KINDS} more kinds` : "";
  const hints = [...new Set(calls.map(({ call }) => REFUSAL_HINTS[call.status] ?? OTHER_HINT))];
  return {
    reason: `every request the CLI sent the kit's model fixture was refused (${shown.join("; ")}${more}), so nothing that needs a model reply could be judged (the kit fails agent-cli/input/text-block for it): ${hints.join("; ")}`,
    first: where,
  };
}

/**
 * Why the run has no model exchange to judge, or undefined when it has one: the CLI never
 * called the fixture, or the fixture refused every request. Decided over the whole run. Plain
 * stdout captures carry no model side at all and are judged without one, so they never count
 * as "no model".
 */
export function modelCause(transcripts: readonly Transcript[]): string | undefined {
  const hosted = transcripts.filter((t) => t.stdoutOnly !== true);
  if (hosted.length === 0) return undefined;
  const calls = hosted.flatMap((t) => modelCalls(t));
  if (calls.length === 0) return NO_MODEL_REASON;
  return modelRefusal(hosted)?.reason;
}

/** The kit gave up waiting for a turn's terminal event (the label of every such wait says so). */
const TERMINAL_WAIT = /terminal event/;
const PREVIEW = 40;

function preview(text: string): string {
  // JSON quoting escapes C0 controls; the rest (DEL, C1, bidi overrides) is escaped as the console would.
  return printableLine(JSON.stringify(text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text));
}

/** What the CLI's stdout held over the whole run, in words: nothing, no line break, no JSON object, or no terminal event. */
function stdoutSummary(events: readonly StdoutEvent[]): string {
  if (events.length === 0) return "it wrote nothing on stdout";
  const whole = events.filter((e) => e.partial !== true && e.oversize !== true);
  const first = events[0] as StdoutEvent;
  if (whole.length === 0) {
    const chars = events.reduce((n, e) => n + (e.bytes ?? e.line.length), 0);
    return `it wrote ${chars} characters on stdout and never a line break, starting ${preview(first.line)}`;
  }
  const objects = whole.filter((e) => {
    try {
      const value: unknown = JSON.parse(e.line.trim());
      return value !== null && typeof value === "object" && !Array.isArray(value);
    } catch {
      return false;
    }
  });
  if (objects.length === 0) return `it wrote ${whole.length} stdout line${whole.length === 1 ? "" : "s"}, none of them a JSON object; the first: ${preview((whole[0] as StdoutEvent).line)}`;
  return `it wrote ${objects.length} JSON line${objects.length === 1 ? "" : "s"} on stdout but never a terminal event (result or message_stop)`;
}

/**
 * The CLI never answered a turn: the kit awaited at least one and gave up on it, and no
 * user turn of the whole run got a terminal event. The reason says what stdout held and
 * what stderr said, so a user sees at once whether the CLI is mute, prints something else,
 * or is only slow. Plain stdout captures carry no host side and never count.
 */
export function neverAnsweredCause(transcripts: readonly Transcript[], turnTimeoutMs: number): string | undefined {
  const hosted = transcripts.filter((t) => t.stdoutOnly !== true);
  const gaveUp = hosted.flatMap((t) => t.events).find((e) => e.kind === "timeout" && TERMINAL_WAIT.test(e.waitingFor));
  if (gaveUp === undefined || gaveUp.kind !== "timeout") return undefined;
  const waited = Math.round(gaveUp.afterMs);
  const views = hosted.flatMap((transcript) => viewProcesses(transcript).map((view) => ({ transcript, view })));
  if (views.some(({ view }) => userTurns(view).some((turn) => turn.terminals.length > 0))) return undefined;
  const stdout = hosted.flatMap((t) => t.events.filter((e): e is StdoutEvent => e.kind === "stdout"));
  const withStderr = views.find(({ transcript, view }) => stderrLines(transcript, view.process).length > 0);
  const line = withStderr === undefined ? undefined : decisiveStderrLine(withStderr.transcript, withStderr.view.process);
  // A CLI retrying a model it cannot reach (a base URL not pointed at the fixture) looks mute too.
  const model = modelCause(transcripts) === NO_MODEL_REASON ? `; nor did it ever call the kit's model fixture (if it tried: ${FIXTURE_HINT})` : "";
  return `the CLI never answered a turn: no turn got a terminal event within ${waited} ms${waited === turnTimeoutMs ? " (--turn-timeout)" : ""}; ${stdoutSummary(stdout)}; ${line !== undefined ? `stderr says: ${line}` : "nothing on stderr"}${model}: make it read one JSON line per turn on stdin and end each turn with a result event; if it is only slow, raise --turn-timeout`;
}
