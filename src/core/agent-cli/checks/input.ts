import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { callsIn, endedWithoutError, userText, type Segment } from "../analysis.js";
import { exitedAtStart, modelCause } from "../causes.js";
import { PROBE_BLOCK_TYPE } from "../scenarios.js";
import type { ModelCall, Transcript } from "../types.js";
import { blockCheck, blockTypes, shownText } from "./blocks.js";
import { finding, judgeEach, judgeSome, processesOf, ran, scenarioMissing, show, skip, type AgentRun } from "./helpers.js";
import { allSegments, missingTerminal } from "./turns.js";

type Seg = { transcript: Transcript; segment: Segment };

const isSuccess = (segment: Segment): boolean => endedWithoutError(segment.terminal);
const bodyText = (calls: readonly ModelCall[]): string => calls.map((c) => JSON.stringify(c.body ?? null)).join("\n");

const ID = "agent-cli/input";

function turnsOf(run: AgentRun, scenario: string): Seg[] {
  return allSegments(run).filter(({ transcript }) => transcript.scenario === scenario);
}


export const inputChecks: Check<AgentRun>[] = [
  {
    clause: `${ID}/survives-malformed-line`,
    judge: (run) =>
      judgeSome(
        run.transcripts.filter((t) => t.scenario === "malformed" && t.stdoutOnly !== true),
        (transcript): Finding[] | undefined => {
          const clause = `${ID}/survives-malformed-line`;
          const views = processesOf(transcript);
          // A process that never served its first turn was refused at start (session/stays-up).
          if (views.length > 0 && views.every(exitedAtStart)) return undefined;
          // No malformed line was written (the turn before them went unanswered, or the process was gone): nothing to judge.
          if (!views.some((v) => v.inputs.some((i) => i.kind === "malformed"))) return undefined;
          const found: Finding[] = [];
          for (const view of views) {
            for (const input of view.inputs.filter((i) => i.kind === "malformed")) {
              const success = input.terminals.find((t) => t.object?.type === "result" && t.object.is_error !== true);
              if (success) found.push(finding(clause, { transcript, lines: [success], events: [{ event: input.event, at: input.at }] }, "a malformed line was answered with success", { expected: "no answer, or one error result" }));
            }
          }
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
        skip(scenarioMissing(run, "malformed")),
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
          if (!isSuccess(segment)) return [finding(`${ID}/text-block`, { transcript, lines: segment.terminal ? [segment.terminal] : [] }, "a plain text turn was not answered with success", { seen: show(segment.terminal?.object?.result) })];
          return calls.some((c) => c.userText.includes(text) || bodyText([c]).includes(JSON.stringify(text).slice(1, -1))) ? [] : [finding(`${ID}/text-block`, { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(segment.input ? { events: [{ event: segment.input.event, at: segment.input.at }] } : {}) }, "the turn's text never reached the model", { expected: show(text), seen: show(calls[0]?.userText) })];
        },
        skip(ran(run, "content") ? "no text-only turn was answered in the content scenario (see agent-cli/turns for unanswered turns)" : scenarioMissing(run, "content")),
      );
    },
  },
  blockCheck(`${ID}/image-block`, "image", "image"),
  blockCheck(`${ID}/document-block`, "document", "document"),
  blockCheck(`${ID}/unsupported-block`, PROBE_BLOCK_TYPE, "unsupported"),
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
