import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { callsIn, endedWithoutError, userText, type ProcessView, type Segment } from "../analysis.js";
import { errorAnswers, modelCause } from "../causes.js";
import type { Transcript, TranscriptEvent } from "../types.js";
import { finding, judgeEach, judgeSome, notApplicable, processesOf, scenarioMissing, show, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { flagRefusalOf, isRefused, ownStatus, refusalWords } from "./refusals.js";
import { allSegments } from "./turns.js";

const ID = "agent-cli/resume";
const ACCEPTS = `${ID}/accepts-id`;

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
  const first = processesOf(scenario)[0];
  const reported = first?.lines.some((l) => typeof l.object?.session_id === "string") ?? false;
  const answered = first?.inputs.some((i) => i.kind === "user" && i.terminals.length > 0) ?? false;
  if (first !== undefined && isRefused(run, first)) return skip("the resume scenario's first launch was refused at start, so the kit had no session to resume (see agent-cli/session/stays-up)");
  // Without an answered first turn, the kit cannot tell whether the CLI would have reported an id.
  if (first !== undefined && !reported && !answered) return skip("the resume scenario's first process answered no turn, so the kit had no session to resume (see agent-cli/turns/one-terminal-per-turn)");
  if (first !== undefined && !reported) return notApplicable("the first process reported no session_id, so there is nothing to resume: resume is optional in the contract");
  return skip("no process was relaunched with --resume: the resume scenario needs a valid session_id from its first process (see agent-cli/session)");
}

/** Why a clause about the resumed process's own turn has nothing to judge: its launch was refused, or nothing was resumed. */
function noResumedTurn(run: AgentRun): Unjudged {
  const refused = resumed(run).find((r) => isRefused(run, viewOf(r)));
  if (refused !== undefined) return skip(`the process launched with --resume ${refused.id} refused to start (see ${flagRefusalOf(run, viewOf(refused)) !== undefined ? ACCEPTS : "agent-cli/session/stays-up"})`);
  return none(run);
}


function viewOf(r: Resumed): ProcessView {
  return processesOf(r.transcript).find((v) => v.process === r.process) as ProcessView;
}

function resumedTurn(run: AgentRun, r: Resumed): Segment | undefined {
  return allSegments(run).find(({ transcript, segment }) => transcript === r.transcript && segment.process === r.process)?.segment;
}

/** accepts-id on one relaunch; undefined when its turn fails only for want of a working model (the run's cause). */
function judgeAccepts(run: AgentRun, r: Resumed, cause: string | undefined): Finding[] | undefined {
  const view = viewOf(r);
  const tied = flagRefusalOf(run, view);
  if (tied?.flag === "--resume") {
    const exit = view.exit;
    const served = `${tied.servedWithout} launch${tied.servedWithout === 1 ? "" : "es"} without it served turns`;
    return [finding(ACCEPTS, { transcript: r.transcript, lines: errorAnswers(view).slice(0, 1), ...(exit ? { events: [{ event: exit as TranscriptEvent, at: exit.at }] } : {}), stderrOf: r.process }, `launched with --resume ${r.id}, the CLI refused to start${ownStatus(view)} while ${served}; ${refusalWords(r.transcript, view)}`, { expected: "the id accepted, and the next turn answered with success", seen: `ended${ownStatus(view)} before serving a turn` })];
  }
  // Refused for another reason too (every launch was): session/stays-up judges it.
  if (isRefused(run, view)) return undefined;
  const turn = resumedTurn(run, r);
  const ok = endedWithoutError(turn?.terminal);
  if (ok) return [];
  if (cause !== undefined && turn?.terminal !== undefined) return undefined;
  return [finding(ACCEPTS, { transcript: r.transcript, lines: turn?.output.slice(-2) ?? [] }, `launched with --resume ${r.id}, the CLI did not answer a turn with success`, { seen: show(turn?.terminal?.object?.result) })];
}

export const resumeChecks: Check<AgentRun>[] = [
  {
    clause: ACCEPTS,
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      const relaunched = resumed(run);
      const refused = relaunched.some((r) => isRefused(run, viewOf(r)));
      return judgeSome(relaunched, (r) => judgeAccepts(run, r, cause), cause !== undefined && relaunched.length > 0 && !refused ? skip(cause) : noResumedTurn(run));
    },
  },
  {
    clause: `${ID}/keeps-id`,
    judge: (run) => {
      const live = resumed(run).filter((r) => !isRefused(run, viewOf(r)));
      return judgeEach(
        live.filter((r) => viewOf(r).lines.some((l) => typeof l.object?.session_id === "string")),
        (r) => {
          const line = viewOf(r).lines.find((l) => typeof l.object?.session_id === "string" && l.object.session_id !== r.id);
          return line === undefined ? [] : [finding(`${ID}/keeps-id`, { transcript: r.transcript, lines: [line] }, "the resumed process reports another session_id", { expected: show(r.id), seen: show(line.object?.session_id) })];
        },
        live.length > 0 ? notApplicable("the resumed process reported no session_id: the id is optional") : noResumedTurn(run),
      );
    },
  },
  {
    clause: `${ID}/history-restored`,
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      if (cause !== undefined) return skip(cause);
      return judgeEach(
        resumed(run).filter((r) => resumedTurn(run, r) !== undefined),
        (r) => {
          const earlier = allSegments(run).filter(({ transcript, segment }) => transcript === r.transcript && segment.process < r.process).map(({ segment }) => userText(segment.input?.message)).filter((t) => t !== "");
          const turn = resumedTurn(run, r);
          const first = turn ? callsIn(r.transcript, turn)[0] : undefined;
          const where = { transcript: r.transcript, lines: turn?.terminal ? [turn.terminal] : [], ...(turn?.input ? { events: [{ event: turn.input.event, at: turn.input.at }] } : {}) };
          if (first === undefined) return [finding(`${ID}/history-restored`, where, "the resumed turn made no model request to inspect")];
          const body = JSON.stringify(first.body ?? null);
          const missing = earlier.filter((text) => !body.includes(JSON.stringify(text).slice(1, -1)));
          return missing.length === 0 ? [] : [finding(`${ID}/history-restored`, where, "the first model request after --resume does not carry the earlier turn (the contract leaves this to the CLI)", { expected: show(missing[0]) })];
        },
        noResumedTurn(run),
      );
    },
  },
];
