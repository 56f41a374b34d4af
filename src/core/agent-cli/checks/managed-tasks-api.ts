/**
 * The control-plane API as one root cause. A CLI whose bridge speaks another API than the
 * kit's control plane (another path, method or body, no key) has its requests refused; that
 * fails agent-cli/managed-tasks/control-plane-api once per kind of request it sent, saying
 * what it sent and what the control plane serves, and keeps each turn it happened in from the
 * task the turn probes: the clauses that need that task skip it, naming control-plane-api.
 */
import type { Check } from "../../report/judge.js";
import type { Finding, Judgement } from "../../report/types.js";
import { isRecord } from "../analysis.js";
import { MANAGED_TOOL, TASK_API, taskBodyProblem, TASKS_PATH } from "../managed-tasks.js";
import type { ControlPlaneRequest, TaskPlanKind, Transcript, TranscriptEvent } from "../types.js";
import { finding, show, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { callCause } from "./managed-tasks-causes.js";
import { isSubmission, managedTranscripts, type ManagedTurn } from "./managed-tasks-view.js";

const API = "agent-cli/managed-tasks/control-plane-api";
const ARGV = "agent-cli/managed-tasks/argv-not-shell";

/** The body has payload.argv, but not as a non-empty array of strings: how argv was passed is argv-not-shell's to judge. */
const argvMisshaped = (body: unknown): boolean => isRecord(body) && isRecord(body.payload) && body.payload.argv !== undefined && taskBodyProblem(body) !== undefined;

/** The control plane served the request as its task API: it read a task's plan (an accepted submission, a poll of a task it knows). */
export const served = (request: ControlPlaneRequest): boolean => request.plan !== undefined;

/** The control plane refused the request as outside its API: no key (401), a path it does not serve (404), another method (405), a body that is no task (400, 413). */
export const refused = (request: ControlPlaneRequest): boolean =>
  !served(request) && (request.outcome === "unauthorized" || request.outcome === "bad-request" || request.outcome === "not-found");

/** Plans whose probe is the answer to the submission; every other plan's is the answer to a poll. */
const PROBED_AT_SUBMISSION: readonly TaskPlanKind[] = ["http-500", "not-json", "redirect", "slow", "bad-id"];

/** The control plane served the request the turn's plan acts on: the submission, or (for a task it runs) a poll. */
function reached(turn: ManagedTurn): boolean {
  const atSubmission = PROBED_AT_SUBMISSION.includes(turn.plan.kind);
  return turn.requests.some(({ request }) => served(request) && (atSubmission ? isSubmission(request) : request.method.toUpperCase() === "GET"));
}

/** The control plane refused what the CLI sent in this turn as outside its API, so the task the turn probes never ran. */
export function apiBlocked(turn: ManagedTurn): boolean {
  return turn.requests.some(({ request }) => refused(request)) && !reached(turn);
}

const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The ids the control plane answered submissions with in a transcript. */
function answeredIds(transcript: Transcript): Set<string> {
  return new Set(transcript.events.flatMap((e) => (e.kind === "controlplane" && isSubmission(e.request) && e.request.taskId !== undefined ? [e.request.taskId] : [])));
}

/** A path with a task id in its last segment written as <id>, so every poll of one kind reads alike. */
export function pathShape(path: string, ids: ReadonlySet<string>): string {
  const at = path.lastIndexOf("/");
  const last = decoded(path.slice(at + 1));
  return at >= 0 && last !== "" && (ids.has(last) || UUID_LIKE.test(last) || path.startsWith(`${TASKS_PATH}/`)) ? `${path.slice(0, at + 1)}<id>` : path;
}

/**
 * The shape of a JSON value, TypeScript-like: `{kind: "command", argv: string[]}`. A short
 * word held by a property shows as itself (it names a kind); other strings by their type.
 */
export function shapeOf(value: unknown, depth = 0, literal = true): string {
  if (typeof value === "string") return literal && /^[A-Za-z][A-Za-z_-]{0,23}$/.test(value) ? JSON.stringify(value) : "string";
  if (value === null || typeof value !== "object") return value === null ? "null" : typeof value;
  if (depth >= 3) return Array.isArray(value) ? "[...]" : "{...}";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const kinds = [...new Set(value.slice(0, 32).map((v) => shapeOf(v, depth + 1, false)))];
    const shown = kinds.slice(0, 3).join(" | ") + (kinds.length > 3 ? " | ..." : "");
    return kinds.length === 1 && !shown.includes(" ") ? `${shown}[]` : `(${shown})[]`;
  }
  const keys = Object.keys(value);
  const fields = keys.slice(0, 8).map((k) => `${/^[A-Za-z_][\w-]{0,39}$/.test(k) ? k : show(k, 40)}: ${shapeOf((value as Record<string, unknown>)[k], depth + 1)}`);
  return `{${fields.join(", ")}${keys.length > 8 ? ", ..." : ""}}`;
}

/** How the request's body reads: " with a body {...}", " with a body that is not JSON", or nothing. */
function bodyPhrase(request: ControlPlaneRequest): string {
  if (request.body !== undefined) return ` with a body ${shapeOf(request.body)}`;
  if (request.bodyBytes > 0) return " with a body that is not JSON";
  return isSubmission(request) ? " with no body" : "";
}

/** What breaks the task API in one request (stable words, so requests alike group into one finding). */
function problemsOf(request: ControlPlaneRequest, answeredBefore: readonly string[]): string[] {
  const problems: string[] = [];
  if (!request.authorized) problems.push("no Authorization: Bearer <the control-plane key>");
  const method = request.method.toUpperCase();
  if (isSubmission(request)) {
    if (method !== "POST") problems.push(`${method} is not how a task is submitted (POST)`);
    if (request.path !== TASKS_PATH) problems.push(`the path is ${request.path.slice(0, 120)}, not ${TASKS_PATH}`);
    if (!/^application\/json\b/i.test(request.contentType ?? "")) problems.push(`content-type ${show(request.contentType ?? null, 60)}, not application/json`);
    const body = request.body;
    if (!isRecord(body)) problems.push(body === undefined && request.bodyBytes === 0 ? "no JSON body" : "its body is not a JSON object");
    else {
      if (body.task_type === undefined) problems.push('no task_type "command"');
      else if (body.task_type !== "command") problems.push(`task_type is ${show(body.task_type, 60)}, not "command"`);
      // payload.argv present but not an array of strings: argv-not-shell's finding, not this clause's.
      if (!isRecord(body.payload) || body.payload.argv === undefined) problems.push("no payload.argv array of strings");
    }
  } else if (method === "GET") {
    const raw = request.path.startsWith(`${TASKS_PATH}/`) ? request.path.slice(TASKS_PATH.length + 1) : undefined;
    if (raw === undefined || !answeredBefore.includes(decoded(raw))) problems.push("a poll of no task the control plane answered");
  } else {
    problems.push(`${method} is not part of the API (POST ${TASKS_PATH}, GET ${TASKS_PATH}/<id>)`);
  }
  return problems;
}

/** The message of a refusal the control plane answered (its JSON "message"), if any. */
function refusalMessage(request: ControlPlaneRequest): string | undefined {
  if (!refused(request) || request.answer === undefined) return undefined;
  try {
    const answer = JSON.parse(request.answer) as unknown;
    return isRecord(answer) && typeof answer.message === "string" ? answer.message.slice(0, 120) : undefined;
  } catch {
    return undefined;
  }
}

interface Sent {
  transcript: Transcript;
  event: TranscriptEvent;
  at: number;
  request: ControlPlaneRequest;
}

/** One finding for requests alike: what they sent, what breaks the API, what the control plane answered. */
function groupFinding(group: readonly Sent[], head: string, problems: readonly string[]): Finding {
  const first = group[0] as Sent;
  const statuses = [...new Set(group.map(({ request }) => (request.status === 0 ? "nothing (the CLI left first)" : String(request.status))))];
  const why = group.map(({ request }) => refusalMessage(request)).find((m) => m !== undefined);
  const count = group.length === 1 ? "1 request" : `${group.length} requests`;
  const { request } = first;
  const seen = `${request.method} ${request.path}${request.body !== undefined ? ` ${show(request.body, 200)}` : ""} -> ${request.status}${request.answer !== undefined ? ` ${request.answer.slice(0, 160)}` : ""}`;
  return finding(API, { transcript: first.transcript, events: group.slice(0, 3).map(({ event, at }) => ({ event, at })) }, `${count} ${head}: ${problems.join("; ")}; the control plane answered ${statuses.join(", ")}${why !== undefined ? ` (${why})` : ""}`, { expected: `the task API the kit's control plane serves: ${TASK_API}`, seen });
}

function judgeApi(run: AgentRun): Judgement {
  const transcripts = managedTranscripts(run);
  const sent: Sent[] = transcripts.flatMap((transcript) => transcript.events.flatMap((event, at) => (event.kind === "controlplane" ? [{ transcript, event, at, request: event.request }] : [])));
  if (sent.length === 0) return skip(`the CLI sent the control plane no request though its model called ${MANAGED_TOOL}: see agent-cli/managed-tasks/result-framing for what its model got back`);
  const groups = new Map<string, { group: Sent[]; head: string; problems: string[] }>();
  const ids = new Map(transcripts.map((t) => [t, answeredIds(t)]));
  for (const item of sent) {
    const { transcript, event, at, request } = item;
    const before = transcript.events.slice(0, at).flatMap((e) => (e.kind === "controlplane" && e.process === event.process && isSubmission(e.request) && (e.request.status === 200 || e.request.status === 201) && e.request.taskId !== undefined ? [e.request.taskId] : []));
    const problems = problemsOf(request, before);
    if (problems.length === 0) continue;
    const head = `${request.method} ${pathShape(request.path, ids.get(transcript) ?? new Set())}${bodyPhrase(request)}`;
    const key = `${transcripts.indexOf(transcript)}\u0000${head}\u0000${problems.join("\u0000")}`;
    const known = groups.get(key);
    if (known === undefined) groups.set(key, { group: [item], head, problems });
    else known.group.push(item);
  }
  return { outcome: "judged", judged: sent.length, findings: [...groups.values()].map(({ group, head, problems }) => groupFinding(group, head, problems)) };
}

/** The clause whose finding a refusal is: argv-not-shell's for a payload.argv of the wrong form, else control-plane-api's. */
const refusalClause = (request: ControlPlaneRequest): string => (request.outcome === "bad-request" && argvMisshaped(request.body) ? ARGV : API);

/** Why the turns' tasks never ran, for a clause that needs one: what the control plane refused, naming the clause that judges it. */
export function blockedReason(turns: readonly ManagedTurn[]): string {
  const tags = [...new Set(turns.map((turn) => turn.tag ?? "(untagged)"))];
  const refusals = turns.flatMap((turn) => turn.requests.filter(({ request }) => refused(request)).map(({ request }) => ({ request, ids: answeredIds(turn.transcript) })));
  const kinds = [...new Set(refusals.map(({ request, ids }) => `${request.method} ${pathShape(request.path, ids)} (${request.status})`))];
  const clauses = [...new Set(refusals.map(({ request }) => refusalClause(request)))];
  return `the kit's control plane refused what the CLI sent in ${tags.length === 1 ? "turn" : "turns"} ${tags.slice(0, 4).join(", ")}${tags.length > 4 ? ", ..." : ""} as outside its task API: ${kinds.slice(0, 3).join("; ")}${kinds.length > 3 ? "; ..." : ""}, so what the kit scripted there for this clause (a task's answer or its failure) never reached the CLI: see ${clauses.join(" and ")}, and docs/control-plane.md for the API the control plane serves`;
}

/** The cases of turns whose task ran; when turns were blocked, the reason to skip with if none is judged names control-plane-api. */
export function withoutBlocked<T extends { turn: ManagedTurn }>(cases: readonly T[], none: Unjudged): { cases: T[]; none: Unjudged } {
  const blocked = [...new Set(cases.filter((c) => apiBlocked(c.turn)).map((c) => c.turn))];
  return { cases: cases.filter((c) => !apiBlocked(c.turn)), none: blocked.length > 0 ? skip(blockedReason(blocked)) : none };
}

export const apiChecks: Check<AgentRun>[] = [{ clause: API, judge: (run) => callCause(run) ?? judgeApi(run) }];
