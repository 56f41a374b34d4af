/**
 * The Agent CLI transcript: everything that crossed the process boundary in one
 * scenario, in order, with timestamps. Live runs and golden files (schemas/golden.schema.json)
 * hold the same events, so the same checks judge both.
 */

import type { LeftoverSweep } from "../process-outcome.js";

export type AgentMode = "awp-jsonl" | "stream-json";

/** Which process of the scenario an event belongs to (1 = first launch, 2 = relaunch...). */
interface Base {
  /** Milliseconds since the scenario started. */
  t: number;
  process: number;
}

export interface LaunchEvent extends Base {
  kind: "launch";
  argv: string[];
  cwd: string;
  /** Names of the child environment variables, the kit's launch marker among them (values are never recorded). */
  envNames: string[];
}

/** A line the host wrote to stdin, without its trailing newline. */
export interface SendEvent extends Base {
  kind: "send";
  line: string;
}

/** One stdout line without its newline. */
export interface StdoutEvent extends Base {
  kind: "stdout";
  line: string;
  /** The line had no newline when the process exited. */
  partial?: true;
  /** The unbroken line passed the 4 MiB guard: `line` holds its first bytes only, `bytes` its size when the host stopped the runtime. */
  oversize?: true;
  bytes?: number;
}

export interface StderrEvent extends Base {
  kind: "stderr";
  text: string;
}

/** Something the host did to the process other than writing a line. */
export interface ActionEvent extends Base {
  kind: "action";
  action: "close-stdin" | "sigterm" | "sigkill" | "stop";
}

export interface ExitEvent extends Base {
  kind: "exit";
  code: number | null;
  signal: string | null;
  /** The kit (not the candidate) ended it: a deadline, a guard, or the end of the scenario. */
  killedByKit: boolean;
}

/** A bounded wait of the host ran out. */
export interface TimeoutEvent extends Base {
  kind: "timeout";
  waitingFor: string;
  afterMs: number;
}

/** The model fixture answered (or refused) one request from the candidate. */
export interface ModelEvent extends Base {
  kind: "model";
  call: ModelCall;
}

export interface NoteEvent extends Base {
  kind: "note";
  text: string;
}

/** How the note ends that the host records when it stops a process for the volume of its stdout (its own cap, or the run's). */
export const STDOUT_CAP_NOTE_END = ": no longer recorded, runtime stopped";

/** What that note names when the run's stdout budget (--output-budget), not the process's own cap, is what was passed. */
export const RUN_BUDGET_WHAT = "the run's budget for all its processes together (--output-budget)";

/** --output-budget: MiB of stdout the kit records from all processes of an agent-cli run (the kit's choice, to bound its memory). */
export const DEFAULT_OUTPUT_BUDGET_MIB = 4;

/**
 * After the process exited and the kit killed its process group: the kit's look for
 * processes of this launch still running outside the group (leftovers), which it ended.
 */
export interface LeftoversEvent extends Base, LeftoverSweep {
  kind: "leftovers";
}

/** The kit's control-plane fixture answered (or refused) one request from the candidate (managed-task bridge). */
export interface ControlPlaneEvent extends Base {
  kind: "controlplane";
  request: ControlPlaneRequest;
}

export type TranscriptEvent = LaunchEvent | SendEvent | StdoutEvent | StderrEvent | ActionEvent | ExitEvent | TimeoutEvent | ModelEvent | NoteEvent | LeftoversEvent | ControlPlaneEvent;

/** The arguments of a call of the managed-task tool (awp_run_managed_task), exactly as the model sends them. */
export interface TaskCallArgs {
  argv: string[];
  timeout_seconds?: number;
}

/**
 * What the control-plane fixture does with one submitted task. The plan travels in the
 * task's own argv (argv[0] "awp-conformance-task", then key=value elements), so the kit's
 * model decides it by the arguments of its tool call, and manual runs can script it too.
 */
export type TaskPlanKind =
  /** Polls answer "running" `polls` times, then "success" with exitCode/stdout/stderr. */
  | "succeed"
  /** Like succeed, but the final status is "failed". */
  | "fail"
  /** Every poll answers "pending", forever. */
  | "pending"
  /** The submission is answered HTTP 500 (JSON error body). */
  | "http-500"
  /** The submission is answered 200 with a text/plain body that is not JSON. */
  | "not-json"
  /** The submission is answered 307 with a Location on the fixture itself (loopback). */
  | "redirect"
  /** The submission is answered after delayMs (then like succeed). */
  | "slow"
  /** Like succeed, with `bytes` bytes of stdout (default 1 MiB). */
  | "huge-stdout"
  /** The submission is answered with an id that is not a task id. */
  | "bad-id"
  /** Polls answer a status outside the API's vocabulary. */
  | "bad-status";

export interface TaskPlan {
  kind: TaskPlanKind;
  exitCode?: number;
  stdout?: string;
  stderr?: string;
  /** succeed/fail/slow/huge-stdout: polls answered "running" before the final status (default 1). */
  polls?: number;
  /** slow: milliseconds before the submission is answered. */
  delayMs?: number;
  /** huge-stdout: size of stdout in bytes. */
  bytes?: number;
}

/** One HTTP request the control-plane fixture received, and what it answered. */
export interface ControlPlaneRequest {
  seq: number;
  /** performance.now() when the fixture received the request (same process as the kit). */
  receivedAt?: number;
  /** When the fixture received the request, in ms since the scenario started (set by the kit). */
  startT?: number;
  method: string;
  /** Path without the query string. */
  path: string;
  /** The request carried `Authorization: Bearer <the fixture's key>`. */
  authorized: boolean;
  /** The request's content-type header, if any. */
  contentType?: string;
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body?: unknown;
  bodyBytes: number;
  /** POST /v1/tasks: the id the fixture answered; GET /v1/tasks/<id>: the id asked about. */
  taskId?: string;
  /** The plan of the task the request is about (read from its argv at submission). */
  plan?: TaskPlan;
  /** HTTP status the fixture answered with (0: the client left before the answer). */
  status: number;
  /** GET: the task status the fixture answered ("pending", "running", "success"...). */
  taskStatus?: string;
  /** The body the fixture answered, cut to 4 KiB (a huge stdout is shown by its size). */
  answer?: string;
  outcome: "complete" | "aborted" | "unauthorized" | "bad-request" | "not-found";
}

/** What the fixture's scripted model was asked to do for one request. */
export interface Directive {
  /** Tag tying model calls to the kit's turn. */
  turn?: string;
  /** Exact reply text. */
  reply?: string;
  /** A deterministic reply of this many bytes. */
  bytes?: number;
  /** Answer the first call with a call of this tool. */
  tool?: string;
  /** Answer with this HTTP status and a JSON error body. */
  status?: number;
  /** Send the response head, then nothing, until the client gives up or the fixture stops. */
  stall?: boolean;
  /** Milliseconds between streamed chunks. */
  slowMs?: number;
  /** Answer with a call of awp_run_managed_task with these arguments, only when the CLI's request offered that tool. */
  task?: TaskCallArgs;
  /**
   * With `task`: the tool-call id of each round of the turn, one letter per round ("A": one
   * call, then text; "AAB": the same call twice, then a new one, then text); "*": a new call
   * in every round, never text. Default "A".
   */
  taskRounds?: string;
}

export type ModelApi = "openai" | "anthropic";

/** Token counts as the contract's result carries them. */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

/** One request the fixture received, and what it answered. */
export interface ModelCall {
  seq: number;
  /** performance.now() when the fixture received the request (same process as the kit). */
  receivedAt?: number;
  /** When the fixture received the request, in ms since the scenario started (set by the kit). */
  startT?: number;
  api: ModelApi;
  method: string;
  /** Path without the query string. */
  path: string;
  stream: boolean;
  /** The request carried the fixture token (always true when no token is required). */
  authorized: boolean;
  /** The parsed JSON body (undefined when it was not JSON). */
  body?: unknown;
  /** Concatenated text of the last user message, as the fixture read it. */
  userText: string;
  directive?: Directive;
  /** HTTP status the fixture answered with. */
  status: number;
  /** The message of the fixture's error answer (a refusal, or a scripted error status). */
  error?: string;
  /** The assistant text the fixture returned ("" for tool calls and errors). */
  replyText: string;
  toolCall?: { id: string; name: string; arguments: string };
  /** Names of the tools the request offered the model, in order ([] when none); absent when the body was not a valid request. */
  toolsOffered?: string[];
  /** The directive asked for a tool call and the fixture answered with text instead: why (no tool offered, none the kit may call). */
  toolSkipped?: string;
  /** Tool rounds already in this turn when the request came (0: the turn's first request). */
  round?: number;
  /**
   * The token counts the fixture's answer reported to the client (set when a successful
   * answer is written; absent when the answer reported none: an OpenAI stream without
   * stream_options.include_usage, an error, a stall).
   */
  usage?: TokenUsage;
  /**
   * Why the fixture refused the request (outcome bad-request or unauthorized): "HTTP 400: <the
   * API's error message> (<the documentation page of the rule>)". The fixture refuses what the
   * real API refuses; absent for requests it answered or failed on purpose.
   */
  refusal?: string;
  /** complete: the whole reply was sent; stalled: left hanging; aborted: the client went away first. */
  outcome: "complete" | "error" | "stalled" | "aborted" | "unauthorized" | "bad-request";
}

/** One scenario as recorded: what the checks judge. */
export interface Transcript {
  scenario: string;
  mode: AgentMode;
  events: TranscriptEvent[];
  /** A plain stdout capture (no host side): clauses that need the host's actions are skipped. */
  stdoutOnly?: boolean;
}
