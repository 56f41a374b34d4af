import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { userTurns, type OutLine, type ProcessView } from "../analysis.js";
import type { Transcript } from "../types.js";
import { decisiveStderrLine, exitedAtStart } from "../causes.js";
import { allProcesses, captureOr, finding, judgeEach, notApplicable, show, skip, type AgentRun } from "./helpers.js";
import { gatedRefusal } from "./managed-tasks-own.js";
import { SESSION_ID } from "./output.js";

const ID = "agent-cli/session";

/** The session id is optional (resume needs one): a CLI that reports none has nothing to judge here. */
const NO_SESSION_ID = notApplicable("no event carried a session_id: the id is optional (the Desktop needs one only to resume the conversation)");

function withSessionId(lines: readonly OutLine[]): OutLine[] {
  return lines.filter((l) => l.object !== undefined && Object.hasOwn(l.object, "session_id"));
}

/** The first line of the session: of the first turn that produced output, or (a plain stdout capture) the first line. */
function firstOutput(transcript: Transcript, view: ProcessView): OutLine | undefined {
  if (transcript.stdoutOnly === true) return view.lines.find((l) => !l.blank);
  return userTurns(view).find((turn) => turn.output.length > 0)?.output[0];
}

export const sessionChecks: Check<AgentRun>[] = [
  {
    clause: `${ID}/stays-up`,
    judge: (run) =>
      judgeEach(
        // A managed-gated launch may refuse to start: agent-cli/managed-tasks/gated judges it.
        allProcesses(run).filter(({ transcript, item }) => transcript.stdoutOnly !== true && !gatedRefusal(transcript, item)),
        ({ transcript, item }) => {
          if (!exitedAtStart(item) || item.exit === undefined) return [];
          const exit = item.exit;
          const decisive = decisiveStderrLine(transcript, item.process);
          const status = exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal ?? "?"}`;
          const when = item.inputs.length === 0 || exit.at < (item.inputs[0]?.at ?? Infinity) ? "before its first input line" : "before answering its first turn";
          return [finding(`${ID}/stays-up`, { transcript, lines: item.lines.slice(-2), events: [{ event: exit, at: exit.at }], stderrOf: item.process }, `the process exited (${status}) ${when}${decisive !== undefined ? `; stderr says: ${decisive}` : ", with nothing on stderr"}`, { expected: "running until the conversation ends, answering each turn", seen: `exit ${status} ${Math.round(exit.t - (item.events.find(({ event }) => event.kind === "launch")?.event.t ?? 0))} ms after launch` })];
        },
        captureOr(run, "when the CLI's process started or exited", skip("no process was launched: see agent-cli/launch for why the kit did not start the CLI")),
      ),
  },
  {
    clause: `${ID}/init-event`,
    judge: (run) =>
      judgeEach(
        // A managed-gated launch may refuse to start with an error result: agent-cli/managed-tasks/gated judges it.
        allProcesses(run).filter(({ transcript, item }) => !gatedRefusal(transcript, item) && firstOutput(transcript, item) !== undefined),
        ({ transcript, item }) => {
          const head = firstOutput(transcript, item);
          const o = head?.object;
          if (o?.type === "system" && o.subtype === "init" && typeof o.session_id === "string") return [];
          return [finding(`${ID}/init-event`, { transcript, lines: head ? [head] : [] }, "the first turn does not open with system/init and a session_id", { expected: '{"type":"system","subtype":"init","session_id":...}', seen: show(head?.event.line) })];
        },
        skip("no turn produced output"),
      ),
  },
  {
    clause: `${ID}/id-form`,
    judge: (run) =>
      judgeEach(
        allProcesses(run).flatMap(({ transcript, item }) => withSessionId(item.lines).map((line) => ({ transcript, line }))),
        ({ transcript, line }) => {
          const id = line.object?.session_id;
          return typeof id === "string" && SESSION_ID.test(id) ? [] : [finding(`${ID}/id-form`, { transcript, lines: [line] }, "session_id does not match ^[A-Za-z0-9._:-]{1,256}$", { seen: show(id) })];
        },
        NO_SESSION_ID,
      ),
  },
  {
    clause: `${ID}/stable-id`,
    judge: (run) =>
      judgeEach(
        allProcesses(run).filter(({ item }) => withSessionId(item.lines).length > 0),
        ({ transcript, item }): Finding[] => {
          const lines = withSessionId(item.lines);
          const first = lines[0] as OutLine;
          const other = lines.find((l) => l.object?.session_id !== first.object?.session_id);
          return other === undefined ? [] : [finding(`${ID}/stable-id`, { transcript, lines: [first, other] }, "the session_id changed within one process", { expected: show(first.object?.session_id), seen: show(other.object?.session_id) })];
        },
        NO_SESSION_ID,
      ),
  },
];
