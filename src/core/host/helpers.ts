import { SIGTERM_GRACE_MS } from "../agent-cli/checks/termination.js";
import type { Check } from "../report/judge.js";
import type { Evidence, Finding, Judgement } from "../report/types.js";
import { RECORD_HEARTBEAT_MS } from "./format.js";
import type { HostProcess, RecordEvent } from "./record.js";
import type { HostRun } from "./types.js";

/** The host waits this long between SIGTERM and SIGKILL (upstream facts); --shutdown-grace. */
export const DEFAULT_SHUTDOWN_GRACE_MS = SIGTERM_GRACE_MS;
/** The kit's allowance on top of a grace or a budget, for the host's timers and a loaded machine; --slack. */
export const DEFAULT_SLACK_MS = 1000;

/** How soon after an unbroken stdout run past 4 MiB began the host must signal the CLI (the kit's choice); --oversize-stop. */
export const OVERSIZE_STOP_MS = 2000;
/** A CLI that failed at start-up may be started again this many times in a row (the kit's choice); --start-retries. */
export const START_RETRIES = 2;
/** A launch this soon after a start-up failure counts as starting it again (the kit's choice); --retry-window. */
export const RETRY_WINDOW_MS = 5000;

/** The time bounds host clauses state, in ms (the defaults of --shutdown-grace, --slack, --oversize-stop and --retry-window). */
export const HOST_BOUNDS: Readonly<Record<string, readonly number[]>> = {
  "host/shutdown/kill-after-grace": [DEFAULT_SHUTDOWN_GRACE_MS, DEFAULT_SLACK_MS],
  "host/provider/deadline-enforced": [DEFAULT_SLACK_MS, RECORD_HEARTBEAT_MS],
  "host/provider-reactions/spawn-before-deadline": [DEFAULT_SLACK_MS],
  "host/agent-cli-reactions/oversize-stops-cli": [OVERSIZE_STOP_MS],
  "host/agent-cli-reactions/no-start-retry-loop": [RETRY_WINDOW_MS],
  "host/agent-cli-reactions/shutdown-stops-every-cli": [DEFAULT_SLACK_MS],
};

export type Unjudged = Extract<Judgement, { outcome: "skip" | "not-applicable" }>;
export const skip = (reason: string): Unjudged => ({ outcome: "skip", reason });
export const notApplicable = (reason: string): Unjudged => ({ outcome: "not-applicable", reason });

/** The reason of every clause when the record holds no process of the judged protocol. */
export function noLaunch(run: Pick<HostRun, "protocol">): Unjudged {
  return skip(`the record holds no ${run.protocol} process: point the host at the mock (awp-conformance-mock-${run.protocol}) with AWP_CONFORMANCE_MOCK_RECORD=FILE and let it ${run.protocol === "provider" ? "make a call" : "start a conversation"}`);
}

/** What is wrong with one process, before it becomes a finding. */
export interface Problem {
  message: string;
  expected?: string;
  seen?: string;
  /** The record events the problem is about (the launch line when none is given). */
  events?: readonly RecordEvent[];
}

const EXCERPT_CHARS = 300;

function excerptOf(event: RecordEvent): string {
  const { line: _line, v: _v, protocol: _protocol, pid: _pid, ...rest } = event;
  const text = JSON.stringify(event.event === "launch" ? { event: rest.event, argv: event.argv, parent: event.parent, stdin: event.stdin } : rest);
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function evidenceOf(event: RecordEvent): Evidence {
  return { stream: event.event === "stdin-line" ? "stdin" : "process", line: event.line, excerpt: excerptOf(event) };
}

/** A finding about one process, pointing at the record lines it is about. */
export function hostFinding(clause: string, process: HostProcess, problem: Problem): Finding {
  const events = problem.events !== undefined && problem.events.length > 0 ? problem.events : [process.launch];
  return {
    clause,
    message: problem.message,
    ...(problem.expected !== undefined ? { expected: problem.expected } : {}),
    ...(problem.seen !== undefined ? { seen: problem.seen } : {}),
    scenario: `${process.protocol} process ${process.pid} (launched at record line ${process.launch.line})`,
    evidence: events.slice(0, 4).map(evidenceOf),
    foundBy: "scenario",
  };
}

/**
 * A check that judges each process on its own: `judge` returns the process's problems, or
 * undefined when the clause does not arise for it. No process judged: `none(run)`.
 */
export function perProcess(clause: string, judge: (process: HostProcess, run: HostRun) => Problem[] | undefined, none: (run: HostRun) => Unjudged): Check<HostRun> {
  return {
    clause,
    judge: (run) => {
      let judged = 0;
      const findings: Finding[] = [];
      for (const process of run.processes) {
        const problems = judge(process, run);
        if (problems === undefined) continue;
        judged++;
        findings.push(...problems.map((problem) => hostFinding(clause, process, problem)));
      }
      return judged === 0 ? none(run) : { outcome: "judged", judged, findings };
    },
  };
}

/** Events of one kind of a process. */
export function eventsOf<K extends RecordEvent["event"]>(process: HostProcess, kind: K): Extract<RecordEvent, { event: K }>[] {
  return process.events.filter((e): e is Extract<RecordEvent, { event: K }> => e.event === kind);
}

/** The process's last line, launch included. */
export function lastEvent(process: HostProcess): RecordEvent {
  return process.events[process.events.length - 1] ?? process.launch;
}

export const quote = (text: string): string => JSON.stringify(text);
/** Arguments as a reader sees them: each quoted, or "(none)". */
export const shown = (args: readonly string[]): string => (args.length === 0 ? "(none)" : args.map(quote).join(" "));
