/**
 * The start of the session: whether the CLI stays up (session/stays-up), and how it reports
 * a start it refuses (session/refusal-reported). A refusal is reported once per distinct
 * answer, with the launches that gave it, so a CLI that refuses everywhere gets one finding
 * however many scenarios launched it, and the same one on every run.
 */
import type { Check } from "../../report/judge.js";
import type { Finding, Judgement } from "../../report/types.js";
import type { ProcessView } from "../analysis.js";
import { errorAnswers, exitedAtStart } from "../causes.js";
import type { TranscriptEvent } from "../types.js";
import { allProcesses, captureOr, finding, notApplicable, skip, type AgentRun } from "./helpers.js";
import { gatedRefusal } from "./managed-tasks-own.js";
import { flagRefusalOf, ownExit, ownStatus, refusals, refusalWords, refusedViews, type Refusal } from "./refusals.js";
import { hasCode } from "./turn-results.js";

const ID = "agent-cli/session";
const STAYS_UP = `${ID}/stays-up`;
const REPORTED = `${ID}/refusal-reported`;

/** Why no launch could be judged: nothing was launched, or the run holds plain stdout captures only. */
function noLaunch(run: AgentRun): Judgement {
  return captureOr(run, "when the CLI's process started or exited", skip("no process was launched: see agent-cli/launch for why the kit did not start the CLI"));
}

/** The first refusal of a group that ended on its own, before the host asked (its status is the CLI's own), else the first. */
function representative(group: readonly Refusal[]): Refusal {
  return group.find(({ view }) => exitedAtStart(view) && ownExit(view)) ?? group.find(({ view }) => exitedAtStart(view)) ?? (group[0] as Refusal);
}

interface Verdict {
  message: string;
  expected: string;
  seen: string;
}

/**
 * Refusals grouped by what they said (never by when they ended: a process that ended just
 * after the kit asked it to carries another status each run), one finding per group that
 * `judge` finds wrong, judged on its representative and naming how many launches gave it.
 */
function grouped(clause: string, items: readonly Refusal[], judge: (rep: Refusal, launches: string) => Verdict | undefined): Finding[] {
  const groups = new Map<string, Refusal[]>();
  for (const item of items) {
    const key = refusalWords(item.transcript, item.view);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.values()].flatMap((group) => {
    const rep = representative(group);
    const scenarios = [...new Set(group.map((p) => p.transcript.scenario))];
    const verdict = judge(rep, group.length === 1 ? "the launch" : `each of ${group.length} launches (${scenarios.join(", ")})`);
    if (verdict === undefined) return [];
    const { transcript, view } = rep;
    const exit = view.exit;
    const where = { transcript, lines: view.lines.filter((l) => !l.blank).slice(0, 2), ...(exit ? { events: [{ event: exit as TranscriptEvent, at: exit.at }] } : {}), stderrOf: view.process };
    return [finding(clause, where, verdict.message, { expected: verdict.expected, seen: verdict.seen })];
  });
}

function judgeStaysUp(run: AgentRun): Judgement {
  // A managed-gated launch may refuse to start (agent-cli/managed-tasks/gated judges it); a refusal
  // tied to --mcp-config or --resume is that flag's clause's.
  const launched = allProcesses(run).filter(({ transcript, item }) => transcript.stdoutOnly !== true && !gatedRefusal(transcript, item) && flagRefusalOf(run, item) === undefined);
  if (launched.length === 0) {
    const any = allProcesses(run).some(({ transcript }) => transcript.stdoutOnly !== true);
    return any ? notApplicable("every launch was one the CLI may refuse (the managed-gated scenario's, judged by agent-cli/managed-tasks/gated) or one a flag's clause judges") : noLaunch(run);
  }
  const refused = refusedViews(run);
  const items = launched.filter(({ item }) => refused.has(item)).map(({ transcript, item }) => ({ transcript, view: item }));
  const findings = grouped(STAYS_UP, items, ({ transcript, view }, launches) => {
    return { message: `${launches} ended${ownStatus(view)} before serving a turn; ${refusalWords(transcript, view)}`, expected: "running until the conversation ends, answering each turn", seen: `ended${ownStatus(view)} before serving a turn` };
  });
  return { outcome: "judged", judged: launched.length, findings };
}

/** What is wrong with how a refused launch reported itself, or nothing. */
function reportProblems(view: ProcessView): string[] {
  const problems: string[] = [];
  const answer = errorAnswers(view)[0]?.object;
  if (answer === undefined) problems.push("it wrote no error result on stdout");
  else if (!hasCode(answer)) problems.push("its error result names no machine-readable code");
  // Only an exit the host had no hand in says how the CLI ends a refused start.
  if (ownExit(view) && view.exit?.code === 0) problems.push("it exited with status 0");
  return problems;
}

function judgeReported(run: AgentRun): Judgement {
  if (!run.transcripts.some((t) => t.stdoutOnly !== true) || allProcesses(run).length === 0) return noLaunch(run);
  const refused = refusals(run);
  if (refused.length === 0) return notApplicable("no launch refused to start: every process the kit launched asked its model, served a turn, or was still up when the kit asked it to end");
  const findings = grouped(REPORTED, refused, ({ transcript, view }, launches) => {
    const found = reportProblems(view);
    if (found.length === 0) return undefined;
    return { message: `${launches} refused to start, and ${found.join(", and ")}`, expected: '{"type":"result","subtype":"startup_error","is_error":true,"result":"<code>"} on stdout, then a non-zero exit status', seen: `${refusalWords(transcript, view)}${ownStatus(view)}` };
  });
  return { outcome: "judged", judged: refused.length, findings };
}

export const startChecks: Check<AgentRun>[] = [
  { clause: STAYS_UP, judge: judgeStaysUp },
  { clause: REPORTED, judge: judgeReported },
];
