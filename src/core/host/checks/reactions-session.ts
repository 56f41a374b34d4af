/**
 * How an agent-cli host runs conversations across processes, judged from the mock's record:
 * one process per conversation, no replay of a failed turn, every CLI stopped before the host
 * ends, and no loop of starts after a start-up failure.
 */
import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { conversationsOf, endOf, failedTurns, resumedId, sessionIds, userLines } from "../conversations.js";
import { eventsOf, hostFinding, notApplicable, perProcess, RETRY_WINDOW_MS, skip, START_RETRIES, type Problem, type Unjudged } from "../helpers.js";
import type { HostProcess } from "../record.js";
import type { HostRun } from "../types.js";

const ID = "host/agent-cli-reactions";

const ms = (value: number): number => Math.round(value);
const byLaunch = (processes: readonly HostProcess[]): HostProcess[] => [...processes].sort((a, b) => a.launch.at - b.launch.at);
const judged = (count: number, findings: Finding[]): { outcome: "judged"; judged: number; findings: Finding[] } => ({ outcome: "judged", judged: count, findings });

const oneProcess: Check<HostRun> = {
  clause: `${ID}/one-process-per-conversation`,
  judge: (run) => {
    const shared = conversationsOf(run.processes).filter((c) => c.length > 1);
    if (shared.length === 0) {
      return notApplicable("no two launches of the record belong to one conversation: let the host resume a conversation (the mock gives a session id on the first turn; a later launch with --resume ID joins it)");
    }
    const findings = shared.flatMap((conversation) => {
      const ordered = byLaunch(conversation);
      return ordered.flatMap((later, j) =>
        ordered.slice(0, j).flatMap((earlier) => {
          if (later.launch.at >= endOf(earlier)) return [];
          const id = sessionIds(later).find((s) => sessionIds(earlier).includes(s)) ?? "";
          const message = `the host started this CLI for session ${JSON.stringify(id)} while pid ${earlier.pid} of the same conversation was still running (the record shows it alive ${ms(endOf(earlier) - later.launch.at)} ms after this launch)`;
          return [hostFinding(`${ID}/one-process-per-conversation`, later, { message, expected: "one process per conversation: the earlier one gone before another starts", events: [later.launch] })];
        }),
      );
    });
    return judged(shared.length, findings);
  },
};

const noReplay: Check<HostRun> = {
  clause: `${ID}/no-replay-after-failure`,
  judge: (run) => {
    let failures = 0;
    let count = 0;
    const findings: Finding[] = [];
    for (const conversation of conversationsOf(run.processes)) {
      const lines = conversation.flatMap((process) => userLines(process).map((line) => ({ process, line })));
      for (const process of conversation) {
        for (const failed of failedTurns(process)) {
          failures++;
          const result = eventsOf(process, "result").find((r) => r.input === failed.index);
          const failedAt = result?.at ?? endOf(process);
          const after = lines.filter((l) => l.line.at > failedAt);
          if (after.length === 0) continue;
          count++;
          const replay = after.find((l) => l.line.sha256 === failed.sha256);
          if (replay === undefined) continue;
          const how = result === undefined ? "ended before its terminal event" : "got an error result";
          const where = replay.process === process ? "to the same CLI" : `to pid ${replay.process.pid}`;
          findings.push(hostFinding(noReplay.clause, replay.process, { message: `the turn written as stdin line ${failed.index + 1} of pid ${process.pid} ${how}, and the host wrote the same line again ${where}`, expected: "one stdin write per accepted send: a failed turn is shown failed, not sent again", events: [failed, ...(result === undefined ? [] : [result]), replay.line] }));
        }
      }
    }
    if (count > 0) return judged(count, findings);
    if (failures > 0) return skip("the record cannot tell: no turn was written in a conversation after one of its turns failed; let the host send another message after the failure");
    return notApplicable("no turn of the record failed: give the mock --fault exit-mid-turn (it ends the 2nd turn) or error-after-stream and let the host send a third message");
  },
};

/**
 * A host that signals its CLI's group and exits at once (or a shell between them that the same
 * signal ends) makes the signal and the end of stdin reach the mock together, and the mock may read
 * them in either order: a signal up to --slack after host-gone counts as sent before it.
 */
function stopsProblems(process: HostProcess, run: HostRun): Problem[] | undefined {
  const gone = eventsOf(process, "host-gone")[0];
  const signalled = eventsOf(process, "signal").some((s) => gone === undefined || s.at <= gone.at + run.bounds.slackMs);
  if (gone === undefined) return signalled ? [] : undefined;
  if (signalled) return [];
  return [{ message: "the host exited while this CLI was running and had not signalled it: stdin ended because the host went away", expected: "SIGTERM (then SIGKILL after the grace) to every live CLI before the host exits", events: [gone] }];
}

/** A CLI that ended by itself before the host wrote it anything, asked nothing of it (no signal, stdin open). */
function failedAtStart(process: HostProcess): boolean {
  const exit = eventsOf(process, "exit")[0];
  if (exit === undefined) return false;
  const before = process.events.slice(0, process.events.indexOf(exit));
  return !before.some((e) => e.event === "stdin-line" || e.event === "signal" || e.event === "stdin-end");
}

/** What a start again repeats: the arguments without the resume pair, the folder and the environment. */
function startKey(process: HostProcess): string {
  const args = process.launch.mockArgs;
  const at = resumedId(process) === undefined ? -1 : args.indexOf("--resume");
  return JSON.stringify([at === -1 ? args : [...args.slice(0, at), ...args.slice(at + 2)], process.launch.cwd, process.launch.env]);
}

const noStartLoop: Check<HostRun> = {
  clause: `${ID}/no-start-retry-loop`,
  judge: (run) => {
    const limit = run.bounds.startRetries ?? START_RETRIES;
    const window = run.bounds.retryWindowMs ?? RETRY_WINDOW_MS;
    const ordered = byLaunch(run.processes);
    const counted = new Set<HostProcess>();
    const findings: Finding[] = [];
    let heads = 0;
    for (const head of ordered.filter(failedAtStart)) {
      if (counted.has(head)) continue;
      heads++;
      const chain = [head];
      for (let last = head; failedAtStart(last); ) {
        const next = ordered.find((p) => !chain.includes(p) && p.launch.at >= endOf(last) && p.launch.at - endOf(last) <= window && startKey(p) === startKey(head));
        if (next === undefined) break;
        chain.push(next);
        last = next;
      }
      for (const p of chain) counted.add(p);
      if (chain.length - 1 <= limit) continue;
      const message = `the CLI failed at start-up and the host started it again ${chain.length - 1} times in a row, each within ${window} ms of the last failure`;
      findings.push(hostFinding(noStartLoop.clause, head, { message, expected: `at most ${limit} starts again (--start-retries); a start-up failure is shown, not retried in a loop`, seen: `pids ${chain.map((p) => p.pid).join(", ")}`, events: chain.slice(0, 4).map((p) => p.launch) }));
    }
    return heads > 0 ? judged(heads, findings) : notApplicable("no CLI of the record failed at start-up: give the mock --fault exit-at-start:code=1 (or refused-launch) and let the host start a conversation");
  },
};

const stopsNone = (): Unjudged => notApplicable("no CLI of the record was signalled by the host or outlived it: quit the host through its own shutdown path while a conversation is open");

export const reactionSessionChecks: Check<HostRun>[] = [oneProcess, noReplay, perProcess(`${ID}/shutdown-stops-every-cli`, stopsProblems, stopsNone), noStartLoop];
