import type { Check } from "../../report/judge.js";
import type { Finding, Judgement } from "../../report/types.js";
import { callsIn, userText, type Segment } from "../analysis.js";
import { errorAnswers, modelCause, modelRefusal, type ModelRefusal } from "../causes.js";
import { PROBE_BLOCK_TYPE } from "../scenarios.js";
import type { ModelCall, Transcript, TranscriptEvent } from "../types.js";
import { blockCheck, blockTypes, shownText } from "./blocks.js";
import { finding, judgeEach, judgeSome, processesOf, scenarioHint, show, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { flagRefusals, isRefused, ownStatus, refusalWords, type FlagRefusal } from "./refusals.js";
import { allSegments, missingTerminal } from "./turns.js";

type Seg = { transcript: Transcript; segment: Segment };

const isSuccess = (segment: Segment): boolean => segment.terminal?.object?.type === "result" ? segment.terminal.object.is_error === false : segment.terminal !== undefined;
const bodyText = (calls: readonly ModelCall[]): string => calls.map((c) => JSON.stringify(c.body ?? null)).join("\n");

const ID = "agent-cli/input";
const MALFORMED = `${ID}/survives-malformed-line`;
const MCP = `${ID}/mcp-config`;

function turnsOf(run: AgentRun, scenario: string): Seg[] {
  return allSegments(run).filter(({ transcript }) => transcript.scenario === scenario);
}

/**
 * Why a scenario judged nothing, in words true of the run: it did not run, its launches were
 * refused at start, or the turn it needed went unanswered.
 */
function scenarioUnjudged(run: AgentRun, scenario: string, needed: string): Unjudged {
  const transcripts = run.transcripts.filter((t) => t.scenario === scenario && t.stdoutOnly !== true);
  if (transcripts.length === 0) return skip(`the ${scenario} scenario did not run: ${scenarioHint(run, scenario)}`);
  const views = transcripts.flatMap((t) => processesOf(t));
  if (views.length > 0 && views.every((view) => isRefused(run, view))) return skip(`the ${scenario} scenario's launch was refused at start (see agent-cli/session/stays-up)`);
  return skip(`${needed} in the ${scenario} scenario (see agent-cli/turns/one-terminal-per-turn for its turns)`);
}

/** survives-malformed-line on one transcript of the malformed scenario; undefined when it shows nothing to judge. */
function judgeMalformed(run: AgentRun, transcript: Transcript, cause: string | undefined): Finding[] | undefined {
  const views = processesOf(transcript);
  // A launch refused at start is judged by session/stays-up.
  if (views.length > 0 && views.every((view) => isRefused(run, view))) return undefined;
  // No malformed line was written (the turn before them went unanswered, or the process was gone): nothing to judge.
  if (!views.some((v) => v.inputs.some((i) => i.kind === "malformed"))) return undefined;
  const found: Finding[] = [];
  for (const view of views) {
    for (const input of view.inputs.filter((i) => i.kind === "malformed")) {
      const success = input.terminals.find((t) => t.object?.type === "result" && t.object.is_error !== true);
      if (success) found.push(finding(MALFORMED, { transcript, lines: [success], events: [{ event: input.event, at: input.at }] }, "a malformed line was answered with success", { expected: "no answer, or one error result" }));
    }
  }
  const lastMalformed = Math.max(-1, ...views.flatMap((v) => v.inputs.filter((i) => i.kind === "malformed").map((i) => i.at)));
  const next = turnsOf(run, "malformed").find(({ transcript: t, segment }) => t === transcript && (segment.input?.at ?? -1) > lastMalformed);
  if (next === undefined) {
    // The host could not even write the next turn: the process was gone.
    const view = views.at(-1);
    const exit = view?.exit;
    found.push(finding(MALFORMED, { transcript, lines: view?.lines.slice(-2) ?? [], ...(exit ? { events: [{ event: exit, at: exit.at }] } : {}), ...(view ? { stderrOf: view.process } : {}) }, "no valid turn could be written after the malformed lines: the process had exited", { expected: "the process keeps serving" }));
  } else if (!isSuccess(next.segment)) {
    // Answered, but without a working model no turn can succeed: that cause is the run's, not this clause's.
    if (cause !== undefined && next.segment.terminal !== undefined) return found.length > 0 ? found : undefined;
    found.push(finding(MALFORMED, { transcript, lines: next.segment.output.slice(-2), stderrOf: next.segment.process }, "the valid turn after the malformed lines was not answered with success", { expected: "a success result", seen: show(next.segment.terminal?.object?.result) }));
  }
  return found;
}

/** text-block when the fixture refused every model request: one finding, on the first refused request. */
function refusedText(refusal: ModelRefusal): Judgement {
  const { transcript, call, at } = refusal.first;
  const event = transcript.events[at];
  const what = `HTTP ${call.status} to ${call.method} ${call.path}${call.error !== undefined ? ` (${call.error})` : ""}`;
  const where = { transcript, ...(event !== undefined ? { events: [{ event, at }] } : {}), stderrOf: event?.process ?? 1 };
  return {
    outcome: "judged",
    judged: 1,
    findings: [finding(`${ID}/text-block`, where, `the kit's model fixture refused every request the CLI sent, the first with ${what}: no turn's text reached a model that answers it, so no turn could succeed`, { expected: "the turn's text in a request the model API accepts, then a success result", seen: what })],
  };
}

/** --mcp-config on one turn of the mcp scenario; undefined when the turn shows nothing to judge. */
function judgeMcpTurn(transcript: Transcript, segment: Segment, cause: string | undefined): Finding[] | undefined {
  const launchAt = transcript.events.findIndex((e) => e.kind === "launch" && e.process === segment.process);
  const argv = transcript.events[launchAt];
  const path = argv?.kind === "launch" ? argv.argv[argv.argv.indexOf("--mcp-config") + 1] : undefined;
  // A turn the kit gave up waiting for (or stopped) is judged by agent-cli/turns/one-terminal-per-turn.
  if (segment.terminal === undefined && missingTerminal(transcript, segment) !== "exited") return undefined;
  const where = { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(argv ? { events: [{ event: argv, at: launchAt }] } : {}) };
  if (path !== undefined && shownText(segment.output).includes(path)) return [finding(MCP, where, "the --mcp-config path shows up in the turn's text, as if it were prompt text", { seen: path })];
  // Without a working model no turn succeeds, flag or not: that cause is the run's.
  if (!isSuccess(segment)) return cause !== undefined && segment.terminal !== undefined ? undefined : [finding(MCP, { transcript, lines: segment.output.slice(-1) }, "launched with --mcp-config, the CLI did not answer the turn with success", { seen: show(segment.terminal?.object?.result) })];
  // Whether the path became prompt text shows in the model request; without one the kit cannot tell.
  if (cause !== undefined) return undefined;
  const leaked = path !== undefined && bodyText(callsIn(transcript, segment)).includes(path);
  return leaked ? [finding(MCP, where, "the --mcp-config path reached the model as prompt text", { seen: path })] : [];
}

/** A launch with --mcp-config refused while launches without it served: the flag is what it refused. */
function refusedMcp(refusal: FlagRefusal): Finding[] {
  const { transcript, view } = refusal;
  const launch = view.events.find(({ event }) => event.kind === "launch");
  const exit = view.exit;
  const events = [...(launch ? [launch] : []), ...(exit ? [{ event: exit as TranscriptEvent, at: exit.at }] : [])];
  const served = `${refusal.servedWithout} launch${refusal.servedWithout === 1 ? "" : "es"} without it served turns`;
  return [finding(MCP, { transcript, lines: errorAnswers(view).slice(0, 1), events, stderrOf: view.process }, `launched with --mcp-config, the CLI refused to start${ownStatus(view)} while ${served}; ${refusalWords(transcript, view)}`, { expected: "the flag and its value consumed (or ignored), and the turn answered", seen: `ended${ownStatus(view)} before serving a turn` })];
}

export const inputChecks: Check<AgentRun>[] = [
  {
    clause: MALFORMED,
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      return judgeSome(
        run.transcripts.filter((t) => t.scenario === "malformed" && t.stdoutOnly !== true),
        (transcript) => judgeMalformed(run, transcript, cause),
        cause !== undefined && turnsOf(run, "malformed").length > 0 ? skip(cause) : scenarioUnjudged(run, "malformed", "no malformed line was written: the turn before them was not answered"),
      );
    },
  },
  {
    clause: `${ID}/text-block`,
    judge: (run) => {
      const refusal = modelRefusal(run.transcripts);
      if (refusal !== undefined) return refusedText(refusal);
      const cause = modelCause(run.transcripts);
      if (cause !== undefined) return skip(cause);
      return judgeEach(
        turnsOf(run, "content").filter(({ segment }) => blockTypes(segment).every((t) => t === "text") && segment.terminal !== undefined),
        ({ transcript, segment }) => {
          const text = userText(segment.input?.message);
          const calls = callsIn(transcript, segment);
          if (!isSuccess(segment)) return [finding(`${ID}/text-block`, { transcript, lines: segment.terminal ? [segment.terminal] : [] }, "a plain text turn was not answered with success", { seen: show(segment.terminal?.object?.result) })];
          return calls.some((c) => c.userText.includes(text) || bodyText([c]).includes(JSON.stringify(text).slice(1, -1))) ? [] : [finding(`${ID}/text-block`, { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(segment.input ? { events: [{ event: segment.input.event, at: segment.input.at }] } : {}) }, "the turn's text never reached the model", { expected: show(text), seen: show(calls[0]?.userText) })];
        },
        scenarioUnjudged(run, "content", "no text-only turn was answered"),
      );
    },
  },
  blockCheck(`${ID}/image-block`, "image", "image"),
  blockCheck(`${ID}/document-block`, "document", "document"),
  blockCheck(`${ID}/unsupported-block`, PROBE_BLOCK_TYPE, "unsupported"),
  {
    clause: MCP,
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      const refused = flagRefusals(run).filter((r) => r.flag === "--mcp-config");
      const turns = turnsOf(run, "mcp").filter(({ transcript }) => transcript.stdoutOnly !== true);
      const items = [...refused.map((refusal) => ({ refusal })), ...turns.map((turn) => ({ turn }))];
      return judgeSome(
        items,
        (item): Finding[] | undefined => ("refusal" in item ? refusedMcp(item.refusal) : judgeMcpTurn(item.turn.transcript, item.turn.segment, cause)),
        cause !== undefined && turns.length > 0 ? skip(cause) : scenarioUnjudged(run, "mcp", "the turn launched with --mcp-config was not answered"),
      );
    },
  },
];
