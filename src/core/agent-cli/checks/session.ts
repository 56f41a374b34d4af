import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { userTurns, type OutLine } from "../analysis.js";
import { allProcesses, finding, judgeEach, notApplicable, show, skip, type AgentRun } from "./helpers.js";
import { isRefused } from "./refusals.js";
import { startChecks } from "./session-start.js";
import { gatedRefusal } from "./managed-tasks-own.js";
import { SESSION_ID } from "./output.js";

const ID = "agent-cli/session";

/** The session id is optional (resume needs one): a CLI that reports none has nothing to judge here. */
const NO_SESSION_ID = notApplicable("no event carried a session_id: the id is optional (the Desktop needs one only to resume the conversation)");

function withSessionId(lines: readonly OutLine[]): OutLine[] {
  return lines.filter((l) => l.object !== undefined && Object.hasOwn(l.object, "session_id"));
}

export const sessionChecks: Check<AgentRun>[] = [
  ...startChecks,
  {
    clause: `${ID}/init-event`,
    judge: (run) =>
      judgeEach(
        // A launch refused at start (a managed-gated one may be) answers no turn: session/stays-up, or agent-cli/managed-tasks/gated, judges it.
        allProcesses(run).flatMap(({ transcript, item }) => {
          if (gatedRefusal(transcript, item) || isRefused(run, item)) return [];
          // A plain stdout capture has no input lines: its first line is the session's first event.
          const head = transcript.stdoutOnly === true ? item.lines.find((l) => !l.blank) : userTurns(item).find((turn) => turn.output.length > 0)?.output[0];
          return head === undefined ? [] : [{ transcript, head }];
        }),
        ({ transcript, head }) => {
          const o = head.object;
          if (o?.type === "system" && o.subtype === "init" && typeof o.session_id === "string") return [];
          return [finding(`${ID}/init-event`, { transcript, lines: [head] }, "the first turn does not open with system/init and a session_id", { expected: '{"type":"system","subtype":"init","session_id":...}', seen: show(head.event.line) })];
        },
        skip("no process wrote anything for a turn"),
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
