import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { callsIn, endedWithoutError, userText, type ProcessView, type Segment } from "../analysis.js";
import { exitedAtStart, modelCause } from "../causes.js";
import { FUZZ_SCENARIO, PROBE_BLOCK_TYPE } from "../scenarios.js";
import type { ModelCall, Transcript } from "../types.js";
import { blockCheck, blockTypes, shownText } from "./blocks.js";
import { refusalFinding, refusedIn } from "./refused.js";
import { finding, judgeEach, judgeSome, processesOf, ran, scenarioMissing, show, skip, type AgentRun } from "./helpers.js";
import { allSegments, missingTerminal } from "./turns.js";

type Seg = { transcript: Transcript; segment: Segment };

const isSuccess = (segment: Segment): boolean => endedWithoutError(segment.terminal);
const bodyText = (calls: readonly ModelCall[]): string => calls.map((c) => JSON.stringify(c.body ?? null)).join("\n");

const ID = "agent-cli/input";

function turnsOf(run: AgentRun, scenario: string): Seg[] {
  return allSegments(run).filter(({ transcript }) => transcript.scenario === scenario);
}

/** The generator drew no malformed line for the session (the kit's draw, not the CLI's doing). */
const NO_FUZZED_MALFORMED = skip("the generated steps held no malformed line (more --fuzz-runs make one likely)");

/** Every malformed line answered with a success result (no answer, or one error result, is what may come back). */
function successAnswers(transcript: Transcript, views: readonly ProcessView[]): Finding[] {
  return views.flatMap((view) =>
    view.inputs.flatMap((input) => {
      const success = input.kind === "malformed" ? input.terminals.find((t) => endedWithoutError(t)) : undefined;
      return success ? [finding(`${ID}/survives-malformed-line`, { transcript, lines: [success], events: [{ event: input.event, at: input.at }] }, "a malformed line was answered with success", { expected: "no answer, or one error result" })] : [];
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
    found.push(finding(`${ID}/survives-malformed-line`, { transcript, lines: view.lines.slice(-2), events: [{ event: last.event, at: last.at }, { event: exit, at: exit.at }], stderrOf: view.process }, "the process exited on its own after a malformed line, with no turn pending", { expected: "the process keeps serving: it is there for the next line" }));
  }
  return found;
}

export const inputChecks: Check<AgentRun>[] = [
  {
    clause: `${ID}/survives-malformed-line`,
    judge: (run) =>
      judgeSome(
        run.transcripts.filter((t) => (t.scenario === "malformed" || t.scenario === FUZZ_SCENARIO) && t.stdoutOnly !== true),
        (transcript): Finding[] | undefined => {
          if (transcript.scenario === FUZZ_SCENARIO) return fuzzedMalformed(transcript);
          const clause = `${ID}/survives-malformed-line`;
          const views = processesOf(transcript);
          // A process that never served its first turn was refused at start (session/stays-up).
          if (views.length > 0 && views.every(exitedAtStart)) return undefined;
          // No malformed line was written (the turn before them went unanswered, or the process was gone): nothing to judge.
          if (!views.some((v) => v.inputs.some((i) => i.kind === "malformed"))) return undefined;
          const found = successAnswers(transcript, views);
          const lastMalformed = Math.max(-1, ...views.flatMap((v) => v.inputs.filter((i) => i.kind === "malformed").map((i) => i.at)));
          const after = turnsOf({ ...run, transcripts: [transcript] }, "malformed").filter(({ segment }) => (segment.input?.at ?? -1) > lastMalformed);
          const next = after[0];
          if (next === undefined) {
            // The host could not even write the next turn: the process was gone.
            const view = views.at(-1);
            const exit = view?.exit;
            found.push(finding(clause, { transcript, lines: view?.lines.slice(-2) ?? [], ...(exit ? { events: [{ event: exit, at: exit.at }] } : {}), ...(view ? { stderrOf: view.process } : {}) }, "no valid turn could be written after the malformed lines: the process had exited", { expected: "the process keeps serving" }));
          } else if (!isSuccess(next.segment)) {
            found.push(finding(clause, { transcript, lines: next.segment.output.slice(-2), stderrOf: next.segment.process }, "the valid turn after the malformed lines was not answered with success", { expected: "a success result", seen: show(next.segment.terminal?.object?.result) }));
          }
          return found;
        },
        run.transcripts.some((t) => t.scenario === FUZZ_SCENARIO) ? NO_FUZZED_MALFORMED : skip(scenarioMissing(run, "malformed")),
      ),
  },
  {
    clause: `${ID}/text-block`,
    judge: (run) => {
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
        skip(ran(run, "content") ? "no text-only turn was answered in the content scenario (see agent-cli/turns for unanswered turns)" : scenarioMissing(run, "content")),
      );
    },
  },
  blockCheck(`${ID}/image-block`, "image", "image", true),
  blockCheck(`${ID}/document-block`, "document", "document", true),
  blockCheck(`${ID}/unsupported-block`, PROBE_BLOCK_TYPE, "unsupported", false),
  {
    clause: `${ID}/mcp-config`,
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      return judgeSome(
        turnsOf(run, "mcp").filter(({ transcript }) => transcript.stdoutOnly !== true),
        ({ transcript, segment }): Finding[] | undefined => {
          const launchAt = transcript.events.findIndex((e) => e.kind === "launch" && e.process === segment.process);
          const argv = transcript.events[launchAt];
          const path = argv?.kind === "launch" ? argv.argv[argv.argv.indexOf("--mcp-config") + 1] : undefined;
          // A turn the kit gave up waiting for (or stopped) is judged by agent-cli/turns/one-terminal-per-turn.
          if (segment.terminal === undefined && missingTerminal(transcript, segment) !== "exited") return undefined;
          if (!isSuccess(segment)) return [finding(`${ID}/mcp-config`, { transcript, lines: segment.output.slice(-1) }, "launched with --mcp-config, the CLI did not answer the turn with success", { seen: show(segment.terminal?.object?.result) })];
          const where = { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(argv ? { events: [{ event: argv, at: launchAt }] } : {}) };
          if (path !== undefined && shownText(segment.output).includes(path)) return [finding(`${ID}/mcp-config`, where, "the --mcp-config path shows up in the turn's text, as if it were prompt text", { seen: path })];
          // Whether the path became prompt text shows in the model request; without one the kit cannot tell.
          if (cause !== undefined) return undefined;
          const leaked = path !== undefined && bodyText(callsIn(transcript, segment)).includes(path);
          return leaked ? [finding(`${ID}/mcp-config`, where, "the --mcp-config path reached the model as prompt text", { seen: path })] : [];
        },
        skip(cause ?? (ran(run, "mcp") ? "no turn of the --mcp-config scenario was answered or ended by an exit (see agent-cli/turns/one-terminal-per-turn)" : scenarioMissing(run, "mcp"))),
      );
    },
  },
];
