import type { Check } from "../../report/judge.js";
import { callsIn, endedWithoutError, userText } from "../analysis.js";
import { modelCause } from "../causes.js";
import type { Transcript } from "../types.js";
import { finding, judgeEach, notApplicable, processesOf, scenarioMissing, show, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { allSegments } from "./turns.js";

const ID = "agent-cli/resume";

interface Resumed {
  transcript: Transcript;
  id: string;
  process: number;
}

/** Relaunches with --resume, with the id they were given. */
function resumed(run: AgentRun): Resumed[] {
  return run.transcripts
    .filter((t) => t.stdoutOnly !== true)
    .flatMap((transcript) =>
      processesOf(transcript).flatMap((view) => {
        const at = view.argv.indexOf("--resume");
        const id = at >= 0 ? view.argv[at + 1] : undefined;
        return id === undefined ? [] : [{ transcript, id, process: view.process }];
      }),
    );
}

/**
 * Nothing was resumed: not applicable when the first process reported no session id (resume
 * is optional), skipped when it did but no relaunch happened.
 */
function none(run: AgentRun): Unjudged {
  const scenario = run.transcripts.find((t) => t.scenario === "resume" && t.stdoutOnly !== true);
  if (scenario === undefined) return skip(scenarioMissing(run, "resume"));
  const first = scenario === undefined ? undefined : processesOf(scenario)[0];
  const reported = first?.lines.some((l) => typeof l.object?.session_id === "string") ?? false;
  const answered = first?.inputs.some((i) => i.kind === "user" && i.terminals.length > 0) ?? false;
  // Without an answered first turn, the kit cannot tell whether the CLI would have reported an id.
  if (first !== undefined && !reported && !answered) return skip("the resume scenario's first process answered no turn, so the kit had no session to resume (see agent-cli/turns/one-terminal-per-turn)");
  if (first !== undefined && !reported) return notApplicable("the first process reported no session_id, so there is nothing to resume: resume is optional in the contract");
  return skip("no process was relaunched with --resume: the resume scenario needs a valid session_id from its first process (see agent-cli/session)");
}

function resumedTurn(run: AgentRun, r: Resumed) {
  return allSegments({ ...run, transcripts: [r.transcript] }).find(({ segment }) => segment.process === r.process)?.segment;
}

export const resumeChecks: Check<AgentRun>[] = [
  {
    clause: `${ID}/accepts-id`,
    judge: (run) =>
      judgeEach(
        resumed(run),
        (r) => {
          const turn = resumedTurn(run, r);
          const ok = endedWithoutError(turn?.terminal);
          return ok ? [] : [finding(`${ID}/accepts-id`, { transcript: r.transcript, lines: turn?.output.slice(-2) ?? [] }, `launched with --resume ${r.id}, the CLI did not answer a turn with success`, { seen: show(turn?.terminal?.object?.result) })];
        },
        none(run),
      ),
  },
  {
    clause: `${ID}/keeps-id`,
    judge: (run) =>
      judgeEach(
        resumed(run).filter((r) => processesOf(r.transcript).find((v) => v.process === r.process)?.lines.some((l) => typeof l.object?.session_id === "string")),
        (r) => {
          const line = processesOf(r.transcript).find((v) => v.process === r.process)?.lines.find((l) => typeof l.object?.session_id === "string" && l.object.session_id !== r.id);
          return line === undefined ? [] : [finding(`${ID}/keeps-id`, { transcript: r.transcript, lines: [line] }, "the resumed process reports another session_id", { expected: show(r.id), seen: show(line.object?.session_id) })];
        },
        resumed(run).length === 0 ? none(run) : notApplicable("the resumed process reported no session_id: the id is optional"),
      ),
  },
  {
    clause: `${ID}/history-restored`,
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      if (cause !== undefined) return skip(cause);
      return judgeEach(
        resumed(run).filter((r) => resumedTurn(run, r) !== undefined),
        (r) => {
          const earlier = allSegments({ ...run, transcripts: [r.transcript] }).filter(({ segment }) => segment.process < r.process).map(({ segment }) => userText(segment.input?.message)).filter((t) => t !== "");
          const turn = resumedTurn(run, r);
          const first = turn ? callsIn(r.transcript, turn)[0] : undefined;
          const where = { transcript: r.transcript, lines: turn?.terminal ? [turn.terminal] : [], ...(turn?.input ? { events: [{ event: turn.input.event, at: turn.input.at }] } : {}) };
          if (first === undefined) return [finding(`${ID}/history-restored`, where, "the resumed turn made no model request to inspect")];
          const body = JSON.stringify(first.body ?? null);
          const missing = earlier.filter((text) => !body.includes(JSON.stringify(text).slice(1, -1)));
          return missing.length === 0 ? [] : [finding(`${ID}/history-restored`, where, "the first model request after --resume does not carry the earlier turn (the contract leaves this to the CLI)", { expected: show(missing[0]) })];
        },
        none(run),
      );
    },
  },
];
