/**
 * Launches the CLI refused, decided once over the whole run so that the moment of an exit
 * never changes a verdict: a startup error printed at once reaches the kit before or after
 * its first input line, and the process may end just before or just after the kit's own
 * stop (the end of stdin, the shutdown line, SIGTERM), as the two processes' clocks fall.
 *
 * - A process refused on its own (causes.ts, exitedAtStart) is one.
 * - So is a process that served nothing, asked the model nothing and ended (the kit had
 *   asked it to end, or stopped it, meanwhile) having given the very answer a refused launch
 *   gave elsewhere in the run.
 * - A refusal is tied to a flag (--mcp-config, --resume) when every launch with the flag was
 *   refused while a launch without it served a turn: the flag's own clause judges it, and
 *   session/stays-up and the turns clauses leave it alone.
 */
import type { OutLine, ProcessView } from "../analysis.js";
import { askedToEndAt, decisiveStderrLine, errorAnswers, exitedAtStart, servedNothing } from "../causes.js";
import type { Transcript } from "../types.js";
import { processesOf, scenarioMissing, skip, type AgentRun, type Unjudged } from "./helpers.js";

export interface Refusal {
  transcript: Transcript;
  view: ProcessView;
}

/** The flags whose launches the kit compares with launches without them. */
export const REFUSAL_FLAGS = ["--mcp-config", "--resume"] as const;
export type RefusalFlag = (typeof REFUSAL_FLAGS)[number];

/** What identifies an answer across launches: its subtype and code (a session_id or timestamp may differ). */
function answerKey(line: OutLine | undefined): string | undefined {
  const o = line?.object;
  if (o === undefined) return undefined;
  return JSON.stringify([o.subtype ?? null, typeof o.result === "string" ? o.result : null]);
}

const memo = new WeakMap<readonly Transcript[], ReadonlySet<ProcessView>>();

/** Every refused process of the run's live transcripts (memoized per run). */
export function refusedViews(run: Pick<AgentRun, "transcripts">): ReadonlySet<ProcessView> {
  const known = memo.get(run.transcripts);
  if (known !== undefined) return known;
  const views = run.transcripts.filter((t) => t.stdoutOnly !== true).flatMap((t) => processesOf(t));
  const refused = new Set(views.filter(exitedAtStart));
  const answers = new Set([...refused].map((view) => answerKey(errorAnswers(view)[0])).filter((key): key is string => key !== undefined));
  for (const view of views) {
    // Ended by the kit too: a scenario whose only turn got that answer ends, and stops the process, at once.
    if (refused.has(view) || view.exit === undefined || !servedNothing(view)) continue;
    const key = answerKey(errorAnswers(view)[0]);
    if (key !== undefined && answers.has(key)) refused.add(view);
  }
  memo.set(run.transcripts, refused);
  return refused;
}

/** Whether the run counts this process as a refused launch. */
export function isRefused(run: Pick<AgentRun, "transcripts">, view: ProcessView): boolean {
  return refusedViews(run).has(view);
}

/** Every refused launch of the run, in transcript order. */
export function refusals(run: Pick<AgentRun, "transcripts">): Refusal[] {
  const refused = refusedViews(run);
  return run.transcripts.filter((t) => t.stdoutOnly !== true).flatMap((transcript) => processesOf(transcript).filter((view) => refused.has(view)).map((view) => ({ transcript, view })));
}

/** A launch that served: not refused, and at least one of its user turns got a terminal event. */
function served(view: ProcessView): boolean {
  return view.inputs.some((input) => input.kind === "user" && input.terminals.length > 0);
}

export interface FlagRefusal extends Refusal {
  flag: RefusalFlag;
  /** The flag's value on that launch. */
  value: string | undefined;
  /** Launches without the flag that served a turn. */
  servedWithout: number;
}

/**
 * Refusals tied to a flag: every launch carrying it was refused, while at least one launch
 * without it served a turn. Without such a launch (a run of the mcp scenario alone, or a CLI
 * that refuses everywhere) nothing is tied: the refusal is the start's.
 */
export function flagRefusals(run: Pick<AgentRun, "transcripts">): FlagRefusal[] {
  const all = run.transcripts.filter((t) => t.stdoutOnly !== true).flatMap((transcript) => processesOf(transcript).map((view) => ({ transcript, view })));
  const refused = refusedViews(run);
  return REFUSAL_FLAGS.flatMap((flag) => {
    const withFlag = all.filter(({ view }) => view.argv.includes(flag));
    if (withFlag.length === 0 || !withFlag.every(({ view }) => refused.has(view))) return [];
    const servedWithout = all.filter(({ view }) => !view.argv.includes(flag) && !refused.has(view) && served(view)).length;
    if (servedWithout === 0) return [];
    return withFlag.map(({ transcript, view }) => ({ transcript, view, flag, value: view.argv[view.argv.indexOf(flag) + 1], servedWithout }));
  });
}

/** The refusal of this process tied to a flag, if any. */
export function flagRefusalOf(run: Pick<AgentRun, "transcripts">, view: ProcessView): FlagRefusal | undefined {
  return flagRefusals(run).find((r) => r.view === view);
}

/** An exit the host had no hand in: it says how the CLI itself ends (not the kit's stop, nor an exit after the kit asked for one). */
export function ownExit(view: ProcessView): boolean {
  const exit = view.exit;
  const asked = askedToEndAt(view);
  return exit !== undefined && !exit.killedByKit && (asked === undefined || exit.at < asked);
}

/** " (exit code 1)" for an exit of the CLI's own; nothing when the host may have caused it (its status then changes from run to run). */
export function ownStatus(view: ProcessView): string {
  return ownExit(view) ? ` (exit ${exitStatus(view)})` : "";
}

/** How the process ended, in words: "code 1", "signal SIGTERM". */
export function exitStatus(view: ProcessView): string {
  const exit = view.exit;
  if (exit === undefined) return "no exit";
  return exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal ?? "?"}`;
}

const MAX_QUOTE = 200;

/** What a refused launch said: its error result, else its first stdout line, else that it wrote nothing; and its decisive stderr line. */
export function refusalWords(transcript: Transcript, view: ProcessView): string {
  const answer = errorAnswers(view)[0] ?? view.lines.find((line) => !line.blank);
  const text = answer?.event.line.trim() ?? "";
  const quoted = text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
  const said = answer === undefined ? "it wrote nothing on stdout" : `${answer.object?.type === "result" ? "it answered" : "it wrote"} ${quoted}`;
  const line = decisiveStderrLine(transcript, view.process);
  return `${said}${line !== undefined ? `; stderr says: ${line}` : "; nothing on stderr"}`;
}

/**
 * Why a scenario's clause judged nothing, when the scenario itself says it: it did not run, or
 * every launch of it was refused at start; `otherwise` (what the scenario did not reach) else.
 */
export function scenarioUnjudged(run: AgentRun, scenario: string, otherwise: string): Unjudged {
  const transcripts = run.transcripts.filter((t) => t.scenario === scenario && t.stdoutOnly !== true);
  if (transcripts.length === 0) return skip(scenarioMissing(run, scenario));
  const views = transcripts.flatMap((t) => processesOf(t));
  if (views.length > 0 && views.every((view) => isRefused(run, view))) return skip(`the ${scenario} scenario's launch was refused at start (see agent-cli/session/stays-up)`);
  return skip(otherwise);
}
