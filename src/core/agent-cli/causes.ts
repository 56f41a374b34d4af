/**
 * Run-level causes that decide what can be judged at all: a CLI that never reached the
 * kit's model, or one that exited before answering its first turn. Each is decided once
 * per run, so every clause it affects is skipped with the same reason.
 */
import { printableLine } from "../printable.js";
import { hostEndedAt, modelCalls, userTurns, viewProcesses, type ProcessView } from "./analysis.js";
import type { StdoutEvent, Transcript } from "./types.js";

/**
 * The process ended on its own before answering its first user turn: before any input
 * line, or after the first turn was written but before it printed anything for it. The
 * host did not ask it to stop. A refused launch looks like this (bad arguments, missing
 * configuration), whatever moment the exit happened to come. An exit after the host closed
 * stdin is not one either: the host asked for it (a fuzzed session may end before any turn).
 */
export function exitedAtStart(view: ProcessView): boolean {
  const exit = view.exit;
  if (exit === undefined || exit.killedByKit) return false;
  const ended = hostEndedAt(view);
  if (ended !== undefined && ended < exit.at) return false;
  if (view.events.some(({ event, at }) => event.kind === "action" && event.action === "close-stdin" && at < exit.at)) return false;
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
  "every request the CLI sent the kit's model fixture lacked the fixture's API key (HTTP 401), so nothing that needs a model reply could be judged: pass {{fixture.token}} as the CLI's API key, e.g. --env OPENAI_API_KEY={{fixture.token}}";

/**
 * Why the run has no model exchange to judge, or undefined when it has one. Decided over
 * the whole run. Plain stdout captures carry no model side at all and are judged without
 * one, so they never count as "no model".
 */
export function modelCause(transcripts: readonly Transcript[]): string | undefined {
  const hosted = transcripts.filter((t) => t.stdoutOnly !== true);
  if (hosted.length === 0) return undefined;
  const calls = hosted.flatMap((t) => modelCalls(t));
  if (calls.length === 0) return NO_MODEL_REASON;
  return calls.some(({ call }) => call.authorized) ? undefined : UNAUTHORIZED_REASON;
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
