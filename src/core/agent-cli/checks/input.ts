import type { Check } from "../../report/judge.js";
import type { Finding, Judgement } from "../../report/types.js";
import { callsIn, endedWithoutError, userText, type ProcessView, type Segment } from "../analysis.js";
import { errorAnswers, modelCause, modelRefusal, refusedCallText, type ModelRefusal } from "../causes.js";
import { FUZZ_SCENARIO, PROBE_BLOCK_TYPE } from "../scenarios.js";
import type { ModelCall, Transcript, TranscriptEvent } from "../types.js";
import { blockCheck, blockTypes, shownText } from "./blocks.js";
import { finding, judgeEach, judgeSome, processesOf, show, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { refusalFinding, refusedIn } from "./refused.js";
import { flagRefusals, isRefused, ownStatus, refusalWords, scenarioUnjudged, type FlagRefusal } from "./refusals.js";
import { allSegments, missingTerminal } from "./turns.js";

type Seg = { transcript: Transcript; segment: Segment };

const isSuccess = (segment: Segment): boolean => endedWithoutError(segment.terminal);
const bodyText = (calls: readonly ModelCall[]): string => calls.map((c) => JSON.stringify(c.body ?? null)).join("\n");

const ID = "agent-cli/input";
const MALFORMED = `${ID}/survives-malformed-line`;
const MCP = `${ID}/mcp-config`;

function turnsOf(run: AgentRun, scenario: string): Seg[] {
  return allSegments(run).filter(({ transcript }) => transcript.scenario === scenario);
}

/** Why a clause of this file judged nothing in `scenario` (refusals.ts), the turn it needed going unanswered when the scenario ran. */
function unanswered(run: AgentRun, scenario: string, needed: string): Unjudged {
  return scenarioUnjudged(run, scenario, `${needed} in the ${scenario} scenario (see agent-cli/turns/one-terminal-per-turn for its turns)`);
}

/** The generator drew no malformed line for the session (the kit's draw, not the CLI's doing). */
const NO_FUZZED_MALFORMED = skip("the generated steps held no malformed line (more --fuzz-runs make one likely)");

/** Every malformed line answered with a success result (no answer, or one error result, is what may come back). */
function successAnswers(transcript: Transcript, views: readonly ProcessView[]): Finding[] {
  return views.flatMap((view) =>
    view.inputs.flatMap((input) => {
      const success = input.kind === "malformed" ? input.terminals.find((t) => endedWithoutError(t)) : undefined;
      return success ? [finding(MALFORMED, { transcript, lines: [success], events: [{ event: input.event, at: input.at }] }, "a malformed line was answered with success", { expected: "no answer, or one error result" })] : [];
    }),
  );
}

/**
 * A fuzzed session's malformed lines (undefined when it wrote none), judged by the rule the
 * malformed scenario follows: none answered with success, and the process still there for the
 * next line. It fails when the process exited on its own after a malformed line, with no turn
 * pending and before the host wrote anything more or ended it (an exit during a later turn is
 * agent-cli/turns/no-exit-mid-turn). A turn after one is generated (its blocks may rightly be
 * refused), so its answer is judged by the turn clauses, not here.
 */
function fuzzedMalformed(transcript: Transcript): Finding[] | undefined {
  const views = processesOf(transcript);
  if (!views.some((v) => v.inputs.some((i) => i.kind === "malformed"))) return undefined;
  const found = successAnswers(transcript, views);
  for (const view of views) {
    const exit = view.exit;
    if (exit === undefined || exit.killedByKit) continue;
    const last = view.inputs.filter((i) => i.at < exit.at).at(-1);
    const hostSince = view.events.some(({ event, at }) => event.kind === "action" && at > (last?.at ?? Infinity) && at < exit.at);
    const turnPending = view.inputs.some((i) => i.kind === "user" && i.at < exit.at && i.terminals.length === 0);
    if (last?.kind !== "malformed" || hostSince || turnPending) continue;
    found.push(finding(MALFORMED, { transcript, lines: view.lines.slice(-2), events: [{ event: last.event, at: last.at }, { event: exit, at: exit.at }], stderrOf: view.process }, "the process exited on its own after a malformed line, with no turn pending", { expected: "the process keeps serving: it is there for the next line" }));
  }
  return found;
}

/** survives-malformed-line on one transcript of the malformed scenario; undefined when it shows nothing to judge. */
function judgeMalformed(run: AgentRun, transcript: Transcript, cause: string | undefined): Finding[] | undefined {
  const views = processesOf(transcript);
  // A launch refused at start is judged by session/stays-up.
  if (views.length > 0 && views.every((view) => isRefused(run, view))) return undefined;
  // No malformed line was written (the turn before them went unanswered, or the process was gone): nothing to judge.
  if (!views.some((v) => v.inputs.some((i) => i.kind === "malformed"))) return undefined;
  const found = successAnswers(transcript, views);
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
  const what = refusedCallText(call);
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
      const fuzzed = run.transcripts.some((t) => t.scenario === FUZZ_SCENARIO);
      return judgeSome(
        run.transcripts.filter((t) => (t.scenario === "malformed" || t.scenario === FUZZ_SCENARIO) && t.stdoutOnly !== true),
        (transcript) => (transcript.scenario === FUZZ_SCENARIO ? fuzzedMalformed(transcript) : judgeMalformed(run, transcript, cause)),
        fuzzed ? NO_FUZZED_MALFORMED : cause !== undefined && turnsOf(run, "malformed").length > 0 ? skip(cause) : unanswered(run, "malformed", "no malformed line was written: the turn before them was not answered"),
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
          if (!isSuccess(segment)) {
            const refused = refusedIn(transcript, segment);
            if (refused.length > 0) return [refusalFinding(`${ID}/text-block`, transcript, segment, "plain text", refused)];
            return [finding(`${ID}/text-block`, { transcript, lines: segment.terminal ? [segment.terminal] : [] }, "a plain text turn was not answered with success", { seen: show(segment.terminal?.object?.result) })];
          }
          return calls.some((c) => c.userText.includes(text) || bodyText([c]).includes(JSON.stringify(text).slice(1, -1))) ? [] : [finding(`${ID}/text-block`, { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(segment.input ? { events: [{ event: segment.input.event, at: segment.input.at }] } : {}) }, "the turn's text never reached the model", { expected: show(text), seen: show(calls[0]?.userText) })];
        },
        unanswered(run, "content", "no text-only turn was answered"),
      );
    },
  },
  blockCheck(`${ID}/image-block`, "image", "image", true),
  blockCheck(`${ID}/document-block`, "document", "document", true),
  blockCheck(`${ID}/unsupported-block`, PROBE_BLOCK_TYPE, "unsupported", false),
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
        cause !== undefined && turns.length > 0 ? skip(cause) : unanswered(run, "mcp", "the turn launched with --mcp-config was not answered"),
      );
    },
  },
];
