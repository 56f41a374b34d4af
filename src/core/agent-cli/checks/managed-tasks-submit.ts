/**
 * What the CLI sends the control plane: the task's argv as the model gave it, idempotency
 * keys, and requests that follow the control-plane API.
 */
import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { isRecord } from "../analysis.js";
import { MANAGED_TOOL } from "../managed-tasks.js";
import { finding, judgeEach, judgeSome, notApplicable, show, skip, type AgentRun } from "./helpers.js";
import { callCause } from "./managed-tasks-causes.js";
import { argvOf, eventAt, jsonEqual, managedTranscripts, managedTurns, turnName, type ManagedTurn, type Submission } from "./managed-tasks-view.js";

const ID = "agent-cli/managed-tasks";
const SHELLS = /^(?:.*[/\\])?(?:sh|bash|zsh|dash|ksh|ash|fish|cmd|cmd\.exe|powershell|powershell\.exe|pwsh)$/i;
const SHELL_FLAGS = ["-c", "/c", "/C", "-Command", "-command", "-lc", "-ic"];

const NO_SUBMISSION = skip(`the CLI submitted no task to the control plane after its model called ${MANAGED_TOOL}, so there is no submission to judge: see agent-cli/managed-tasks/result-framing for what its model got back`);

interface Submitted {
  turn: ManagedTurn;
  submission: Submission;
}

function submitted(run: AgentRun): Submitted[] {
  return managedTurns(run).flatMap((turn) => turn.submissions.map((submission) => ({ turn, submission })));
}

/** The submission and the model call it answers, as evidence. */
function where(turn: ManagedTurn, submission: Submission): { transcript: ManagedTurn["transcript"]; events: ReturnType<typeof eventAt> } {
  return { transcript: turn.transcript, events: [...(submission.call !== undefined ? eventAt(turn.transcript, submission.call.at) : []), ...eventAt(turn.transcript, submission.at)] };
}

/** What is wrong with a submission's argv against the model's, or undefined when they are equal. */
export function argvProblem(body: unknown, wanted: readonly unknown[]): string | undefined {
  if (!isRecord(body)) return "the submission's body is not a JSON object, so it carries no argv array";
  const argv = isRecord(body.payload) ? body.payload.argv : undefined;
  if (typeof argv === "string") return "argv was sent as one command string, not an array of strings";
  if (!Array.isArray(argv)) return argv === undefined ? "the submission carries no payload.argv" : `payload.argv is ${show(argv, 60)}, not an array of strings`;
  const bad = argv.findIndex((a) => typeof a !== "string");
  if (bad !== -1) return `payload.argv[${bad}] is ${show(argv[bad], 60)}, not a string`;
  const first = String(argv[0] ?? "");
  if (SHELLS.test(first) && !SHELLS.test(String(wanted[0] ?? "")) && argv.slice(1).some((a) => SHELL_FLAGS.includes(a as string))) return `the model's argv was wrapped in a shell (${show(argv.slice(0, 3), 80)}...)`;
  if (jsonEqual(argv, wanted)) return undefined;
  if (argv.length !== wanted.length) return `payload.argv has ${argv.length} element(s), the model asked for ${wanted.length}`;
  const at = argv.findIndex((a, i) => a !== wanted[i]);
  return `payload.argv[${at}] is ${show(argv[at], 80)}, the model asked for ${show(wanted[at], 80)}`;
}

const keyOf = (s: Submission): unknown => (isRecord(s.request.body) ? s.request.body.idempotency_key : undefined);
const validKey = (key: unknown): key is string => typeof key === "string" && key !== "";
/** One tool call: the same turn, id and arguments. */
const callIdentity = (turn: ManagedTurn, s: Submission): string | undefined => (s.call === undefined ? undefined : `${turn.transcript.scenario}\u0000${turn.segment.process}\u0000${turn.tag ?? ""}\u0000${s.call.id}\u0000${s.call.call.toolCall?.arguments ?? ""}`);

const answered = (status: number): boolean => status === 200 || status === 201;

export const submitChecks: Check<AgentRun>[] = [
  {
    clause: `${ID}/argv-not-shell`,
    judge: (run) => {
      const cause = callCause(run);
      if (cause !== undefined) return cause;
      return judgeEach(
        submitted(run).filter(({ submission }) => Array.isArray(argvOf(submission.call?.args))),
        ({ turn, submission }): Finding[] => {
          const wanted = argvOf(submission.call?.args) as unknown[];
          const problem = argvProblem(submission.request.body, wanted);
          const argv = isRecord(submission.request.body) && isRecord(submission.request.body.payload) ? submission.request.body.payload.argv : undefined;
          return problem === undefined ? [] : [finding(`${ID}/argv-not-shell`, where(turn, submission), `${turnName(turn)}: ${problem}`, { expected: `payload.argv ${show(wanted, 200)}`, seen: show(argv, 200) })];
        },
        NO_SUBMISSION,
      );
    },
  },
  {
    clause: `${ID}/idempotency-key`,
    judge: (run) => {
      const cause = callCause(run);
      if (cause !== undefined) return cause;
      const all = submitted(run);
      const firstCall = new Map<string, { identity: string; turn: ManagedTurn; submission: Submission }>();
      return judgeEach(
        all,
        ({ turn, submission }): Finding[] => {
          const key = keyOf(submission);
          if (!validKey(key)) return [finding(`${ID}/idempotency-key`, where(turn, submission), `${turnName(turn)}: the submission carries ${key === undefined ? "no idempotency_key" : `idempotency_key ${show(key, 60)}, not a non-empty string`}`, { expected: "a non-empty string idempotency_key on every submission" })];
          const identity = callIdentity(turn, submission);
          if (identity === undefined) return [];
          const earlier = firstCall.get(key);
          if (earlier === undefined) {
            firstCall.set(key, { identity, turn, submission });
            return [];
          }
          if (earlier.identity === identity) return [];
          return [finding(`${ID}/idempotency-key`, where(turn, submission), `${turnName(turn)}: call ${submission.call?.id ?? "?"} was submitted with the same idempotency_key as call ${earlier.submission.call?.id ?? "?"} (${turnName(earlier.turn)}), a different tool call`, { expected: "a different key for each tool call", seen: show(key, 120) })];
        },
        NO_SUBMISSION,
      );
    },
  },
  {
    clause: `${ID}/idempotency-resubmission`,
    judge: (run) => {
      const cause = callCause(run);
      if (cause !== undefined) return cause;
      const groups = new Map<string, Submitted[]>();
      for (const s of submitted(run)) {
        const identity = callIdentity(s.turn, s.submission);
        if (identity !== undefined) groups.set(identity, [...(groups.get(identity) ?? []), s]);
      }
      return judgeSome(
        [...groups.values()].filter((g) => g.length > 1),
        (group): Finding[] | undefined => {
          const keys = group.map(({ submission }) => keyOf(submission));
          // A missing key is agent-cli/managed-tasks/idempotency-key's finding.
          if (!keys.every(validKey)) return undefined;
          if (keys.every((k) => k === keys[0])) return [];
          const [first, second] = [group[0] as Submitted, group[keys.findIndex((k) => k !== keys[0])] ?? (group[1] as Submitted)];
          return [finding(`${ID}/idempotency-resubmission`, { transcript: first.turn.transcript, events: [...where(first.turn, first.submission).events, ...eventAt(second.turn.transcript, second.submission.at)] }, `${turnName(first.turn)}: the same tool call (${first.submission.call?.id ?? "?"}, same arguments) was submitted ${group.length} times with different idempotency keys`, { expected: "the same key for a resubmission of the same session/turn/tool call", seen: keys.map((k) => show(k, 80)).join(", ") })];
        },
        notApplicable("the CLI never submitted the same tool call twice with keys to compare (the kit's model repeats one call in the mt-succeed turn; a CLI may answer the repeat without submitting again)"),
      );
    },
  },
  {
    clause: `${ID}/control-plane-api`,
    judge: (run) => {
      const cause = callCause(run);
      if (cause !== undefined) return cause;
      const requests = managedTranscripts(run).flatMap((transcript) => transcript.events.flatMap((event, at) => (event.kind === "controlplane" ? [{ transcript, event, at, request: event.request }] : [])));
      return judgeEach(
        requests,
        ({ transcript, event, at, request }): Finding[] => {
          const problems: string[] = [];
          if (!request.authorized) problems.push("it carried no Authorization: Bearer <the control-plane key> (answered 401)");
          if (request.method === "POST") {
            if (request.path !== "/v1/tasks") problems.push(`a POST to ${request.path}, not /v1/tasks`);
            if (!/^application\/json\b/i.test(request.contentType ?? "")) problems.push(`content-type ${show(request.contentType ?? null, 60)}, not application/json`);
            if (!isRecord(request.body)) problems.push("its body is not a JSON object");
            else if (request.body.task_type !== "command") problems.push(`task_type is ${show(request.body.task_type, 60)}, not "command"`);
          } else if (request.method === "GET") {
            const ids = transcript.events.slice(0, at).flatMap((e) => (e.kind === "controlplane" && e.process === event.process && e.request.method === "POST" && answered(e.request.status) && e.request.taskId !== undefined ? [e.request.taskId] : []));
            const raw = request.path.startsWith("/v1/tasks/") ? request.path.slice("/v1/tasks/".length) : undefined;
            let asked = raw;
            try {
              asked = raw === undefined ? undefined : decodeURIComponent(raw);
            } catch {
              // Kept as sent: it matches no id.
            }
            if (asked === undefined || !ids.includes(asked)) problems.push(`GET ${request.path} asks about no task the control plane answered (${ids.length === 0 ? "it answered none" : `it answered ${ids.slice(-3).map((id) => show(id, 60)).join(", ")}`})`);
          } else {
            problems.push(`${request.method} ${request.path} is not part of the API (POST /v1/tasks, GET /v1/tasks/<id>)`);
          }
          return problems.length === 0 ? [] : [finding(`${ID}/control-plane-api`, { transcript, events: [{ event, at }] }, `control-plane request #${request.seq}: ${problems.join("; ")}`, { expected: "Bearer key; POST /v1/tasks with a JSON command task; GET /v1/tasks/<an id it answered>" })];
        },
        skip(`the CLI sent the control plane no request though its model called ${MANAGED_TOOL}: see agent-cli/managed-tasks/result-framing for what its model got back`),
      );
    },
  },
];
