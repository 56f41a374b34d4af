/**
 * What the CLI sends the control plane: the task's argv as the model gave it, and idempotency
 * keys. Both are judged on what the CLI sent: in a body of the task API's shape where the API
 * puts them, in a body of another shape wherever the kit can find them (where it cannot, the
 * body's shape is agent-cli/managed-tasks/control-plane-api's finding, and the clause skips).
 */
import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { isRecord } from "../analysis.js";
import { MANAGED_TOOL, taskBodyProblem } from "../managed-tasks.js";
import { finding, judgeSome, notApplicable, show, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { callCause } from "./managed-tasks-causes.js";
import { argvOf, eventAt, jsonEqual, managedTurns, turnName, type ManagedTurn, type Submission } from "./managed-tasks-view.js";

const ID = "agent-cli/managed-tasks";
const SHELLS = /^(?:.*[/\\])?(?:sh|bash|zsh|dash|ksh|ash|fish|cmd|cmd\.exe|powershell|powershell\.exe|pwsh)$/i;
const SHELL_FLAGS = ["-c", "/c", "/C", "-Command", "-command", "-lc", "-ic"];

const NO_SUBMISSION = skip(`the CLI submitted no task to the control plane after its model called ${MANAGED_TOOL}, so there is no submission to judge: see agent-cli/managed-tasks/result-framing for what its model got back`);
const OWN_SHAPE = "the CLI's submissions do not have the task API's shape (see agent-cli/managed-tasks/control-plane-api)";
const NO_ARGV_FOUND = skip(`${OWN_SHAPE}, and none carries anything the kit can take for the argv (a property argv, an array equal to the model's argv, or a command line holding it), so how the argv was passed cannot be told`);
const NO_KEY_FOUND = skip(`${OWN_SHAPE}, and none has a property named idempotency_key or idempotencyKey, so whether and where they carry an idempotency key cannot be told`);

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

/** A place in a JSON body ("payload.argv") and the value there. */
interface Located {
  where: string;
  value: unknown;
}

/** Every property of a JSON object, breadth first, with its path (bounded: 4 levels, 256 properties). */
function properties(body: unknown): Located[] {
  const found: Located[] = [];
  const queue: (Located & { depth: number })[] = [{ where: "", value: body, depth: 0 }];
  for (let next = queue.shift(); next !== undefined && found.length < 256; next = queue.shift()) {
    if (!isRecord(next.value) || next.depth >= 4) continue;
    for (const [name, value] of Object.entries(next.value)) {
      const where = next.where === "" ? name : `${next.where}.${name}`;
      found.push({ where, value });
      queue.push({ where, value, depth: next.depth + 1 });
    }
  }
  return found;
}

const lastName = (where: string): string => where.slice(where.lastIndexOf(".") + 1);
/** The body has the task API's shape (the control plane reads the task from its payload.argv). */
const apiShaped = (body: unknown): boolean => taskBodyProblem(body) === undefined;

/**
 * Where a submission carries the model's argv: payload.argv when the body has it; in a body of
 * another shape, a property named argv, else an array equal to the model's argv, else a string
 * holding its first two elements (a command line). Undefined: nothing the kit can take for it.
 */
export function locateArgv(body: unknown, wanted: readonly unknown[]): Located | undefined {
  if (!isRecord(body)) return undefined;
  if (isRecord(body.payload) && body.payload.argv !== undefined) return { where: "payload.argv", value: body.payload.argv };
  const all = properties(body);
  const [program, first] = wanted;
  const commandLine = (value: unknown): boolean => typeof value === "string" && typeof program === "string" && value.includes(program) && (typeof first !== "string" || value.includes(first));
  return all.find((p) => lastName(p.where) === "argv") ?? all.find((p) => Array.isArray(p.value) && jsonEqual(p.value, wanted)) ?? all.find((p) => commandLine(p.value));
}

/** What is wrong with a submission's argv against the model's, or undefined when they are equal. */
export function argvProblem(body: unknown, wanted: readonly unknown[]): string | undefined {
  if (!isRecord(body)) return "the submission's body is not a JSON object, so it carries no argv array";
  const located = locateArgv(body, wanted);
  if (located === undefined) return "the submission carries no payload.argv";
  const { where, value: argv } = located;
  if (typeof argv === "string") return `argv was sent as one command string (${where}), not an array of strings`;
  if (!Array.isArray(argv)) return `${where} is ${show(argv, 60)}, not an array of strings`;
  const bad = argv.findIndex((a) => typeof a !== "string");
  if (bad !== -1) return `${where}[${bad}] is ${show(argv[bad], 60)}, not a string`;
  const program = String(argv[0] ?? "");
  if (SHELLS.test(program) && !SHELLS.test(String(wanted[0] ?? "")) && argv.slice(1).some((a) => SHELL_FLAGS.includes(a as string))) return `the model's argv was wrapped in a shell (${show(argv.slice(0, 3), 80)}...)`;
  if (jsonEqual(argv, wanted)) return undefined;
  if (argv.length !== wanted.length) return `${where} has ${argv.length} element(s), the model asked for ${wanted.length}`;
  const at = argv.findIndex((a, i) => a !== wanted[i]);
  return `${where}[${at}] is ${show(argv[at], 80)}, the model asked for ${show(wanted[at], 80)}`;
}

/** A body of another shape than the API's with no property the kit can take for the key. */
const UNKNOWN_KEY: unique symbol = Symbol("unknown key");

/**
 * A submission's idempotency key: its idempotency_key (absent: undefined) when the body has one
 * or has the API's shape; in a body of another shape, a property named idempotency_key or
 * idempotencyKey at any depth, else UNKNOWN_KEY.
 */
function keyOf(s: Submission): unknown {
  const body = s.request.body;
  if (isRecord(body) && Object.hasOwn(body, "idempotency_key")) return body.idempotency_key;
  if (apiShaped(body)) return undefined;
  const named = properties(body).find((p) => /^idempotency[-_]?key$/i.test(lastName(p.where)));
  return named === undefined ? UNKNOWN_KEY : named.value;
}

/** The skip when nothing was judged: the body's shape when some submission could not be read, else `none`. */
const unreadOr = (unread: boolean, shape: Unjudged, none: Unjudged): Unjudged => (unread ? shape : none);
const validKey = (key: unknown): key is string => typeof key === "string" && key !== "";
/** One tool call: the same turn, id and arguments. */
const callIdentity = (turn: ManagedTurn, s: Submission): string | undefined => (s.call === undefined ? undefined : `${turn.transcript.scenario}\u0000${turn.segment.process}\u0000${turn.tag ?? ""}\u0000${s.call.id}\u0000${s.call.call.toolCall?.arguments ?? ""}`);

export const submitChecks: Check<AgentRun>[] = [
  {
    clause: `${ID}/argv-not-shell`,
    judge: (run) => {
      const cause = callCause(run);
      if (cause !== undefined) return cause;
      const items = submitted(run).filter(({ submission }) => Array.isArray(argvOf(submission.call?.args)));
      const wantedOf = (s: Submission): unknown[] => argvOf(s.call?.args) as unknown[];
      const readable = ({ submission }: Submitted): boolean => apiShaped(submission.request.body) || locateArgv(submission.request.body, wantedOf(submission)) !== undefined;
      return judgeSome(
        items,
        ({ turn, submission }): Finding[] | undefined => {
          if (!readable({ turn, submission })) return undefined;
          const wanted = wantedOf(submission);
          const problem = argvProblem(submission.request.body, wanted);
          return problem === undefined ? [] : [finding(`${ID}/argv-not-shell`, where(turn, submission), `${turnName(turn)}: ${problem}`, { expected: `payload.argv ${show(wanted, 200)}`, seen: show(locateArgv(submission.request.body, wanted)?.value, 200) })];
        },
        unreadOr(items.some((item) => !readable(item)), NO_ARGV_FOUND, NO_SUBMISSION),
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
      return judgeSome(
        all,
        ({ turn, submission }): Finding[] | undefined => {
          const key = keyOf(submission);
          if (key === UNKNOWN_KEY) return undefined;
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
        unreadOr(all.some(({ submission }) => keyOf(submission) === UNKNOWN_KEY), NO_KEY_FOUND, NO_SUBMISSION),
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
      const repeated = [...groups.values()].filter((g) => g.length > 1);
      return judgeSome(
        repeated,
        (group): Finding[] | undefined => {
          const keys = group.map(({ submission }) => keyOf(submission));
          // A missing key is agent-cli/managed-tasks/idempotency-key's finding.
          if (!keys.every(validKey)) return undefined;
          if (keys.every((k) => k === keys[0])) return [];
          const [first, second] = [group[0] as Submitted, group[keys.findIndex((k) => k !== keys[0])] ?? (group[1] as Submitted)];
          return [finding(`${ID}/idempotency-resubmission`, { transcript: first.turn.transcript, events: [...where(first.turn, first.submission).events, ...eventAt(second.turn.transcript, second.submission.at)] }, `${turnName(first.turn)}: the same tool call (${first.submission.call?.id ?? "?"}, same arguments) was submitted ${group.length} times with different idempotency keys`, { expected: "the same key for a resubmission of the same session/turn/tool call", seen: keys.map((k) => show(k, 80)).join(", ") })];
        },
        unreadOr(
          repeated.some((group) => group.some(({ submission }) => keyOf(submission) === UNKNOWN_KEY)),
          NO_KEY_FOUND,
          notApplicable("the CLI never submitted the same tool call twice with keys to compare (the kit's model repeats one call in the mt-succeed turn; a CLI may answer the repeat without submitting again)"),
        ),
      );
    },
  },
];
