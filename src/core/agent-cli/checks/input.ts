import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { callsIn, isRecord, userText, type JsonRecord, type Segment } from "../analysis.js";
import { PROBE_BLOCK_TYPE } from "../scenarios.js";
import type { ModelCall, Transcript } from "../types.js";
import { finding, judgeEach, processesOf, show, skip, type AgentRun } from "./helpers.js";
import { allSegments } from "./turns.js";

const ID = "agent-cli/input";

type Seg = { transcript: Transcript; segment: Segment };

function blockTypes(segment: Segment): string[] {
  const content = segment.input?.message?.content;
  if (typeof content === "string") return ["text"];
  return Array.isArray(content) ? content.map((b) => (isRecord(b) ? String(b.type) : "?")) : [];
}

const isError = (segment: Segment): boolean => segment.terminal?.object?.type === "result" && segment.terminal.object.is_error === true;
const isSuccess = (segment: Segment): boolean => segment.terminal?.object?.type === "result" ? segment.terminal.object.is_error === false : segment.terminal !== undefined;
const bodyText = (calls: readonly ModelCall[]): string => calls.map((c) => JSON.stringify(c.body ?? null)).join("\n");

/** The payloads of a turn's blocks of one type (base64 data, or the probe block's marker). */
function payloads(segment: Segment, type: string): string[] {
  const content = segment.input?.message?.content;
  if (!Array.isArray(content)) return [];
  return content
    .filter((b): b is JsonRecord => isRecord(b) && b.type === type)
    .map((b) => (isRecord(b.source) && typeof b.source.data === "string" ? b.source.data : typeof b.marker === "string" ? b.marker : ""))
    .filter((p) => p !== "");
}

/**
 * A block was handled explicitly when the turn failed with an error result, or when the
 * model request shows it: its data, or a fallback naming its type or media type.
 */
function blockCheck(clause: string, select: (types: string[]) => boolean, type: string, words: (segment: Segment) => string[]): Check<AgentRun> {
  return {
    clause,
    judge: (run) =>
      judgeEach(
        allSegments(run).filter(({ transcript, segment }) => transcript.stdoutOnly !== true && segment.terminal !== undefined && select(blockTypes(segment))),
        ({ transcript, segment }): Finding[] => {
          if (isError(segment)) return [];
          const calls = callsIn(transcript, segment);
          const where = { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(segment.input ? { events: [{ event: segment.input.event, at: segment.input.at }] } : {}) };
          if (calls.length === 0) return [finding(clause, where, `the ${type} turn succeeded without asking the model anything`, { expected: "the block passed on, or an error result" })];
          // The kit's own prompt may name the block ("this image"): look past it.
          const prompt = JSON.stringify(userText(segment.input?.message)).slice(1, -1);
          const body = prompt === "" ? bodyText(calls) : bodyText(calls).split(prompt).join("");
          const shown = [...payloads(segment, type), ...words(segment)].some((w) => w !== "" && body.includes(w));
          return shown ? [] : [finding(clause, where, `the ${type} block was dropped silently: the turn succeeded and the model request shows no trace of it`, { expected: "the data or a visible fallback in the model request, or an error result", seen: show(calls[0]?.userText) })];
        },
        skip(`no ${type} turn was answered`),
      ),
  };
}

const mediaTypes = (segment: Segment, type: string): string[] => {
  const content = segment.input?.message?.content;
  return Array.isArray(content) ? content.filter((b): b is JsonRecord => isRecord(b) && b.type === type && isRecord(b.source)).map((b) => String((b.source as JsonRecord).media_type ?? "")) : [];
};

function turnsOf(run: AgentRun, scenario: string): Seg[] {
  return allSegments(run).filter(({ transcript }) => transcript.scenario === scenario);
}

export const inputChecks: Check<AgentRun>[] = [
  {
    clause: `${ID}/survives-malformed-line`,
    judge: (run) =>
      judgeEach(
        run.transcripts.filter((t) => t.scenario === "malformed" && t.stdoutOnly !== true),
        (transcript): Finding[] => {
          const clause = `${ID}/survives-malformed-line`;
          const found: Finding[] = [];
          for (const view of processesOf(transcript)) {
            for (const input of view.inputs.filter((i) => i.kind === "malformed")) {
              const success = input.terminals.find((t) => t.object?.type === "result" && t.object.is_error !== true);
              if (success) found.push(finding(clause, { transcript, lines: [success], events: [{ event: input.event, at: input.at }] }, "a malformed line was answered with success", { expected: "no answer, or one error result" }));
            }
          }
          const lastMalformed = Math.max(-1, ...processesOf(transcript).flatMap((v) => v.inputs.filter((i) => i.kind === "malformed").map((i) => i.at)));
          const after = turnsOf({ ...run, transcripts: [transcript] }, "malformed").filter(({ segment }) => (segment.input?.at ?? -1) > lastMalformed);
          const next = after[0];
          if (next === undefined) {
            // The host could not even write the next turn: the process was gone.
            const view = processesOf(transcript).at(-1);
            const exit = view?.exit;
            found.push(finding(clause, { transcript, lines: view?.lines.slice(-2) ?? [], ...(exit ? { events: [{ event: exit, at: exit.at }] } : {}), ...(view ? { stderrOf: view.process } : {}) }, "no valid turn could be written after the malformed lines: the process had exited", { expected: "the process keeps serving" }));
          } else if (!isSuccess(next.segment)) {
            found.push(finding(clause, { transcript, lines: next.segment.output.slice(-2), stderrOf: next.segment.process }, "the valid turn after the malformed lines was not answered with success", { expected: "a success result", seen: show(next.segment.terminal?.object?.result) }));
          }
          return found;
        },
        skip("the malformed-input scenario did not run"),
      ),
  },
  {
    clause: `${ID}/text-block`,
    judge: (run) =>
      judgeEach(
        turnsOf(run, "content").filter(({ segment }) => blockTypes(segment).every((t) => t === "text") && segment.terminal !== undefined),
        ({ transcript, segment }) => {
          const text = userText(segment.input?.message);
          const calls = callsIn(transcript, segment);
          if (!isSuccess(segment)) return [finding(`${ID}/text-block`, { transcript, lines: segment.terminal ? [segment.terminal] : [] }, "a plain text turn was not answered with success", { seen: show(segment.terminal?.object?.result) })];
          return calls.some((c) => c.userText.includes(text) || bodyText([c]).includes(JSON.stringify(text).slice(1, -1))) ? [] : [finding(`${ID}/text-block`, { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(segment.input ? { events: [{ event: segment.input.event, at: segment.input.at }] } : {}) }, "the turn's text never reached the model", { expected: show(text), seen: show(calls[0]?.userText) })];
        },
        skip("no text-only turn was answered in the content scenario"),
      ),
  },
  blockCheck(`${ID}/image-block`, (types) => types.includes("image"), "image", (s) => ["image", ...mediaTypes(s, "image")]),
  blockCheck(`${ID}/document-block`, (types) => types.includes("document"), "document", (s) => ["document", ...mediaTypes(s, "document")]),
  blockCheck(`${ID}/unsupported-block`, (types) => types.includes(PROBE_BLOCK_TYPE), PROBE_BLOCK_TYPE, () => [PROBE_BLOCK_TYPE]),
  {
    clause: `${ID}/mcp-config`,
    judge: (run) =>
      judgeEach(
        turnsOf(run, "mcp").filter(({ transcript }) => transcript.stdoutOnly !== true),
        ({ transcript, segment }) => {
          const launchAt = transcript.events.findIndex((e) => e.kind === "launch" && e.process === segment.process);
          const argv = transcript.events[launchAt];
          const path = argv?.kind === "launch" ? argv.argv[argv.argv.indexOf("--mcp-config") + 1] : undefined;
          if (!isSuccess(segment)) return [finding(`${ID}/mcp-config`, { transcript, lines: segment.output.slice(-1) }, "launched with --mcp-config, the CLI did not answer the turn with success", { seen: show(segment.terminal?.object?.result) })];
          const leaked = path !== undefined && bodyText(callsIn(transcript, segment)).includes(path);
          const where = { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(argv ? { events: [{ event: argv, at: launchAt }] } : {}) };
          return leaked ? [finding(`${ID}/mcp-config`, where, "the --mcp-config path reached the model as prompt text", { seen: path })] : [];
        },
        skip("the --mcp-config scenario did not run"),
      ),
  },
];
