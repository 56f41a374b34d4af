/**
 * A simulated CLI with the managed-task bridge, recorded the way the kit's runner records the
 * managed-tasks and managed-gated scenarios (directives, model calls with bodies and rounds,
 * control-plane requests). Behaviours are knobs, so each test can break exactly one thing.
 */
import type { AgentRun } from "../../../src/core/agent-cli/checks/helpers.js";
import { AFTER_TAG, bridgeSetup, MANAGED_TOOL, MANAGED_TURNS, parseTaskPlan, taskBodyProblem, type ManagedTurn } from "../../../src/core/agent-cli/managed-tasks.js";
import type { ControlPlaneRequest, ModelApi, ModelCall, Transcript, TranscriptEvent } from "../../../src/core/agent-cli/types.js";

export const TOKEN = `awp-cp-${"ab12".repeat(12)}`;

export interface Behaviour {
  api: ModelApi;
  /** "json": the upstream reference's JSON tool result; "prose": words, as text blocks. */
  result: "json" | "prose";
  /** A control-plane failure: "follow-up" tells the model; "error" ends the turn with an error result. */
  onFailure: "follow-up" | "error";
  /** How the pending task's wait ends (default: a follow-up that says it timed out). */
  pendingEnd?: "follow-up" | "error";
  /** Milliseconds the CLI waits for the pending task after submitting it (default timeout_seconds + 0.5 s). */
  pendingWaitMs?: number;
  timeoutText?: string;
  argv?: (argv: string[]) => unknown;
  /** The idempotency key of a submission (default: one per turn, call id and arguments). */
  key?: (turn: string, id: string, round: number) => unknown;
  /** The id the tool result is tied to. */
  resultId?: (id: string) => string;
  /** Bytes of stdout kept in a tool result (default 65536). */
  cut?: number;
  /** Tool calls a turn may make before the CLI ends it with an error (default 4); "never": no limit. */
  callLimit?: number | "never";
  /** A second terminal event after the turn of this plan kind. */
  doubleTerminalOn?: string;
  /** Exit on its own after the terminal of the turn of this plan kind. */
  exitAfter?: string;
  stderr?: string;
  toolUseId?: (id: string) => string;
  toolUseInput?: (args: unknown) => unknown;
  bearer?: boolean;
  /** Submissions carry this task_type (default "command"). */
  taskType?: string;
  /** The tool is not offered (a bridge the CLI did not turn on). */
  noTool?: boolean;
  /** Rewrites the text of a tool result (turn tag given). */
  resultText?: (text: string, tag: string) => string;
  /** A repeated call (same id) is answered with the first result, without submitting again. */
  reuseRepeat?: boolean;
  /** Submissions follow another task API, which the kit's control plane refuses (the CLI tells its model the HTTP error). */
  ownApi?: OwnApi;
  /** Polls go to this path instead (the fixture answers 404; the CLI tells its model the HTTP error). */
  pollAs?: (id: string) => string;
}

/** A task API other than the kit's: where a submission goes, its body, and what the fixture answers. */
export interface OwnApi {
  method?: string;
  path: string;
  body: (argv: unknown, key: unknown) => unknown;
  status: number;
  outcome: ControlPlaneRequest["outcome"];
  answer: string;
}

/** POST {"kind":"command","argv":[...]} to /tasks: the fixture serves no such path (404). */
export const OWN_PATH: OwnApi = { path: "/tasks", body: (argv) => ({ kind: "command", argv }), status: 404, outcome: "not-found", answer: '{"error":"not_found","message":"no such path: /tasks"}' };
/** POST /v1/tasks with argv and the key at the top level: the fixture refuses the body (400). */
export const OWN_BODY: OwnApi = { path: "/v1/tasks", body: (argv, key) => ({ type: "command", argv, idempotency_key: key }), status: 400, outcome: "bad-request", answer: '{"error":"bad_request","message":"payload must be an object"}' };

export const OPENAI_JSON: Behaviour = { api: "openai", result: "json", onFailure: "follow-up" };
export const ANTHROPIC_BLOCKS: Behaviour = { api: "anthropic", result: "prose", onFailure: "error" };

type Msg = Record<string, unknown>;

export class Sim {
  readonly events: TranscriptEvent[] = [];
  now = 0;
  process = 0;
  alive = true;
  private modelSeq = 0;
  private cpSeq = 0;
  private inited = false;

  constructor(readonly b: Behaviour) {}

  push(event: Record<string, unknown>, step = 10): void {
    this.now += step;
    this.events.push({ t: this.now, process: this.process, ...event } as TranscriptEvent);
  }

  out(value: unknown): void {
    this.push({ kind: "stdout", line: JSON.stringify(value) });
  }

  launch(): void {
    this.process++;
    this.inited = false;
    this.alive = true;
    this.push({ kind: "launch", argv: ["/opt/cli", "--model", "m"], cwd: "/w", envNames: ["AWP_CONTROL_PLANE_URL"] });
    if (this.b.stderr !== undefined) this.push({ kind: "stderr", text: this.b.stderr });
  }

  user(text: string): void {
    this.push({ kind: "send", line: JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text }] } }) });
    if (!this.inited) this.out({ type: "system", subtype: "init", session_id: "s-1", model: "m" });
    this.inited = true;
  }

  model(call: Partial<ModelCall>): ModelCall {
    const full: ModelCall = { seq: ++this.modelSeq, api: this.b.api, method: "POST", path: this.b.api === "openai" ? "/v1/chat/completions" : "/v1/messages", stream: true, authorized: true, userText: "", status: 200, replyText: "", outcome: "complete", startT: this.now + 10, toolsOffered: this.b.noTool === true ? [] : [MANAGED_TOOL], ...call };
    this.push({ kind: "model", call: full });
    return full;
  }

  cp(request: Partial<ControlPlaneRequest>, step = 10): ControlPlaneRequest {
    const full: ControlPlaneRequest = { seq: ++this.cpSeq, method: "GET", path: "/v1/tasks", authorized: this.b.bearer !== false, bodyBytes: 0, status: 200, outcome: "complete", startT: this.now + step, ...request };
    if (!full.authorized) Object.assign(full, { status: 401, outcome: "unauthorized" });
    this.push({ kind: "controlplane", request: full }, step);
    return full;
  }

  text(reply: string): void {
    this.out({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    this.out({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: reply } });
    this.out({ type: "content_block_stop", index: 0 });
  }

  result(error?: string): void {
    this.out(error === undefined ? { type: "result", subtype: "success", is_error: false, session_id: "s-1" } : { type: "result", subtype: "error", is_error: true, session_id: "s-1", result: error });
  }

  showToolUse(id: string, args: unknown): void {
    const shownId = this.b.toolUseId?.(id) ?? id;
    const input = this.b.toolUseInput?.(args) ?? args;
    if (this.b.api === "openai") {
      this.out({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: shownId, name: MANAGED_TOOL, input }] } });
      return;
    }
    this.out({ type: "content_block_start", index: 1, content_block: { type: "tool_use", id: shownId, name: MANAGED_TOOL, input: {} } });
    this.out({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: JSON.stringify(input) } });
    this.out({ type: "content_block_stop", index: 1 });
  }
}

type Outcome = { text: string } | { error: string };

/** Submits and polls the task as the control plane plays its plan; what the CLI tells its model. */
function runTask(sim: Sim, turn: ManagedTurn, id: string, round: number): Outcome {
  const b = sim.b;
  const plan = parseTaskPlan(turn.task.argv);
  const argv = b.argv?.(turn.task.argv) ?? turn.task.argv;
  const key = b.key !== undefined ? b.key(turn.tag, id, round) : `awp-key-${turn.tag}-${id}`;
  const body = { task_type: b.taskType ?? "command", payload: { argv }, ...(key !== undefined ? { idempotency_key: key } : {}) };
  const post = { method: "POST", path: "/v1/tasks", contentType: "application/json", body, bodyBytes: JSON.stringify(body).length, plan };
  const taskId = `6f1c2a3e-0000-4000-8000-${String(sim.events.length).padStart(12, "0")}`;
  const answer = (status: number, extra: Partial<ControlPlaneRequest> = {}): ControlPlaneRequest => sim.cp({ ...post, status, ...extra });
  const own = b.ownApi;
  if (own !== undefined) {
    const ownBody = own.body(argv, key);
    const refused = sim.cp({ method: own.method ?? "POST", path: own.path, contentType: "application/json", body: ownBody, bodyBytes: JSON.stringify(ownBody).length, status: own.status, outcome: own.outcome, answer: own.answer });
    return { error: `control_plane_http_${refused.status}` };
  }
  // The fixture refuses a body whose payload.argv is not a non-empty array of strings (400), reading no plan.
  if (taskBodyProblem(body) !== undefined) {
    const { plan: _unread, ...refused } = post;
    return { error: `control_plane_http_${sim.cp({ ...refused, status: 400, outcome: "bad-request", answer: '{"error":"bad_request","message":"payload.argv must be a non-empty array of strings"}' }).status}` };
  }
  if (plan.kind === "http-500") return { error: answer(500).authorized ? "control_plane_http_500" : "control_plane_http_401" };
  if (plan.kind === "not-json") return { error: answer(200, { answer: "not json" }).authorized ? "control_plane_response_not_json" : "control_plane_http_401" };
  if (plan.kind === "redirect") return { error: answer(307).authorized ? "control_plane_redirect_rejected" : "control_plane_http_401" };
  if (plan.kind === "slow") return { error: sim.cp({ ...post, status: 0, outcome: "aborted" }, 5000).authorized ? "control_plane_timeout" : "control_plane_http_401" };
  const submitted = answer(201, { taskId: plan.kind === "bad-id" ? "../not a task id" : taskId });
  if (!submitted.authorized) return { error: "control_plane_http_401" };
  if (plan.kind === "bad-id") return { error: "invalid_control_plane_task_id" };
  const poll = (taskStatus: string, step = 500): void => void sim.cp({ method: "GET", path: `/v1/tasks/${taskId}`, taskId, taskStatus, plan }, step);
  if (b.pollAs !== undefined) {
    sim.cp({ method: "GET", path: b.pollAs(taskId), status: 404, outcome: "not-found", answer: '{"error":"not_found","message":"no such path"}' }, 500);
    return { error: "control_plane_http_404" };
  }
  if (plan.kind === "bad-status") {
    poll("exploded");
    return { error: "invalid_control_plane_task_status" };
  }
  if (plan.kind === "pending") {
    const wait = b.pendingWaitMs ?? (turn.task.timeout_seconds ?? 60) * 1000 + 500;
    const start = sim.now;
    while (sim.now - start + 500 < wait) poll("pending");
    sim.now = start + wait;
    const text = b.timeoutText ?? (b.result === "json" ? JSON.stringify({ task_id: taskId, status: "timeout" }) : `Stopped waiting for task ${taskId}: it timed out (it may still run).`);
    return b.pendingEnd === "error" ? { error: "control_plane_timeout" } : { text };
  }
  poll("running");
  const status = plan.kind === "fail" ? "failed" : "success";
  poll(status);
  const stdout = plan.kind === "huge-stdout" ? "x".repeat(plan.bytes ?? 1024 * 1024).slice(0, b.cut ?? 65536) : (plan.stdout ?? "");
  const exit = plan.exitCode ?? 0;
  const stderr = plan.stderr ?? "";
  return { text: b.result === "json" ? JSON.stringify({ task_id: taskId, status, exit_code: exit, stdout, stderr }) : `Task ${taskId} ended with status ${status} and exit code ${exit}.\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}` };
}

function toolMessages(api: ModelApi, id: string, args: string, resultId: string, text: string): Msg[] {
  if (api === "openai") return [{ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: MANAGED_TOOL, arguments: args } }] }, { role: "tool", tool_call_id: resultId, content: text }];
  return [{ role: "assistant", content: [{ type: "tool_use", id, name: MANAGED_TOOL, input: JSON.parse(args) as unknown }] }, { role: "user", content: [{ type: "tool_result", tool_use_id: resultId, content: [{ type: "text", text }] }] }];
}

function bodyOf(sim: Sim, messages: readonly Msg[]): Msg {
  const tools = sim.b.noTool === true ? [] : sim.b.api === "openai" ? [{ type: "function", function: { name: MANAGED_TOOL, parameters: { type: "object" } } }] : [{ name: MANAGED_TOOL, input_schema: { type: "object" } }];
  return { model: "m", stream: true, messages, tools };
}

export function directiveText(turn: ManagedTurn): string {
  return `${turn.prompt} [[awp-fixture turn=${turn.tag} task=${encodeURIComponent(JSON.stringify(turn.task))}${turn.rounds !== undefined ? ` rounds=${turn.rounds}` : ""}]]`;
}

function managedTurn(sim: Sim, turn: ManagedTurn): void {
  const b = sim.b;
  const text = directiveText(turn);
  sim.user(text);
  const messages: Msg[] = [{ role: "user", content: b.api === "openai" ? text : [{ type: "text", text }] }];
  const rounds = turn.rounds ?? "A";
  const directive = { turn: turn.tag, task: turn.task, ...(turn.rounds !== undefined ? { taskRounds: turn.rounds } : {}) };
  const limit = b.callLimit === "never" ? 8 : (b.callLimit ?? 4);
  const kind = parseTaskPlan(turn.task.argv).kind;
  const answers = new Map<string, Outcome>();
  for (let round = 0; ; round++) {
    const letter = rounds === "*" ? String(round) : rounds[round];
    const args = JSON.stringify(turn.task);
    if (letter === undefined || b.noTool === true) {
      const reply = `Done with ${turn.tag}.`;
      sim.model({ directive, round, body: bodyOf(sim, messages), userText: text, replyText: reply });
      sim.text(reply);
      sim.result();
      break;
    }
    const id = `${b.api === "openai" ? "call" : "toolu"}_awp_${turn.tag}_${letter}`;
    sim.model({ directive, round, body: bodyOf(sim, messages), userText: text, toolCall: { id, name: MANAGED_TOOL, arguments: args } });
    if (round >= limit) {
      if (b.callLimit === "never") {
        sim.push({ kind: "timeout", waitingFor: `the terminal event of turn ${turn.tag}`, afterMs: 30_000 }, 20_000);
        sim.push({ kind: "action", action: "stop" });
        sim.push({ kind: "exit", code: null, signal: "SIGTERM", killedByKit: true });
        sim.alive = false;
        return;
      }
      sim.result("managed_tool_call_limit");
      break;
    }
    sim.showToolUse(id, JSON.parse(args));
    const earlier = b.reuseRepeat === true ? answers.get(id) : undefined;
    const outcome = earlier ?? runTask(sim, turn, id, round);
    answers.set(id, outcome);
    const failed = "error" in outcome;
    if (failed && (kind === "pending" ? b.pendingEnd === "error" : b.onFailure === "error")) {
      sim.result(outcome.error);
      break;
    }
    const plain = "error" in outcome ? (b.result === "json" ? JSON.stringify({ error: outcome.error }) : `The task could not run: ${outcome.error}`) : outcome.text;
    const resultText = b.resultText?.(plain, turn.tag) ?? plain;
    messages.push(...toolMessages(b.api, id, args, b.resultId?.(id) ?? id, resultText));
  }
  if (b.doubleTerminalOn === kind) sim.result("second_terminal");
  if (b.exitAfter === kind) {
    sim.push({ kind: "exit", code: 1, signal: null, killedByKit: false });
    sim.alive = false;
  }
}

/** The managed-tasks scenario of one simulated CLI. */
export function managedTranscript(b: Behaviour): Transcript {
  const sim = new Sim(b);
  sim.launch();
  for (const turn of MANAGED_TURNS) if (sim.alive) managedTurn(sim, turn);
  if (sim.alive) {
    const text = `Say hello. [[awp-fixture turn=${AFTER_TAG}]]`;
    sim.user(text);
    sim.model({ directive: { turn: AFTER_TAG }, round: 0, body: bodyOf(sim, [{ role: "user", content: text }]), userText: text, replyText: "Hello." });
    sim.text("Hello.");
    sim.result();
    sim.push({ kind: "action", action: "close-stdin" });
    sim.push({ kind: "exit", code: 0, signal: null, killedByKit: false });
  }
  return { scenario: "managed-tasks", mode: "awp-jsonl", events: sim.events };
}

/** The launch configuration the kit would have been given, with the contract's variable names. */
export const BRIDGE_CONFIG = { prefixArgs: [], env: { AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: "{{fixture.controlplane}}", AWP_CONTROL_PLANE_API_KEY: "{{fixture.controlplane_token}}" } };

export function managedRun(transcripts: Transcript[], options: { configured?: boolean; offline?: boolean; outputLimit?: number; waitSlackMs?: number } = {}): AgentRun {
  const setup = options.configured === false ? undefined : bridgeSetup(BRIDGE_CONFIG);
  const live = options.offline !== true;
  return {
    mode: "awp-jsonl",
    transcripts,
    turnTimeoutMs: 30_000,
    offline: !live,
    ...(live ? { managed: { ...(setup !== undefined ? { setup, token: TOKEN } : {}), outputLimit: options.outputLimit ?? 262_144, waitSlackMs: options.waitSlackMs ?? 10_000 } } : {}),
  };
}
