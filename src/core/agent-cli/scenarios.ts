/**
 * The scenarios the kit drives, by name, and the clauses each one can judge. The runner
 * implements them; checks find transcripts by these names (golden files carry them too).
 */
import type { InterruptSignal } from "../interrupt.js";

export const SCENARIOS = {
  basic: { judges: ["agent-cli/output", "agent-cli/session", "agent-cli/turns", "agent-cli/fidelity", "agent-cli/consistency", "agent-cli/secrets", "agent-cli/termination/stdin-eof", "agent-cli/termination/clean-exit-status", "agent-cli/termination/no-leftover-processes"], about: "two turns, then the end of stdin (after the long quiet window)" },
  queued: { judges: ["agent-cli/turns/terminal-in-order", "agent-cli/turns/one-terminal-per-turn"], about: "three turns written back to back" },
  content: { judges: ["agent-cli/input/text-block", "agent-cli/input/image-block", "agent-cli/input/document-block", "agent-cli/input/unsupported-block"], about: "text, image, document and unknown blocks" },
  malformed: { judges: ["agent-cli/input/survives-malformed-line"], about: "lines that are not user messages, then a valid turn" },
  tools: { judges: ["agent-cli/turns/tool-use", "agent-cli/consistency"], about: "the model calls a tool the CLI offered" },
  mcp: { judges: ["agent-cli/input/mcp-config"], about: "launched with --mcp-config" },
  resume: { judges: ["agent-cli/resume"], about: "a turn, exit, relaunch with --resume, a turn" },
  "failures-error": { judges: ["agent-cli/failures/model-error"], about: "the model answers HTTP 500, then a good turn (own process, --stall-timeout)" },
  "failures-stall": { judges: ["agent-cli/failures/model-stall"], about: "the model stream stalls, then a good turn (own process, --stall-timeout)" },
  shutdown: { judges: ["agent-cli/termination/shutdown-line", "agent-cli/termination/clean-exit-status"], about: 'a turn, then {"type":"shutdown"}' },
  "sigterm-idle": { judges: ["agent-cli/termination/sigterm-idle"], about: "a turn, then SIGTERM" },
  "sigterm-mid-turn": { judges: ["agent-cli/termination/sigterm-mid-turn"], about: "SIGTERM while the reply streams" },
  "managed-tasks": {
    judges: [
      "agent-cli/managed-tasks/argv-not-shell",
      "agent-cli/managed-tasks/idempotency-key",
      "agent-cli/managed-tasks/idempotency-resubmission",
      "agent-cli/managed-tasks/result-framing",
      "agent-cli/managed-tasks/bounded-output",
      "agent-cli/managed-tasks/wait-limit",
      "agent-cli/managed-tasks/control-plane-failures",
      "agent-cli/managed-tasks/call-limit",
      "agent-cli/managed-tasks/key-not-leaked",
      "agent-cli/managed-tasks/tool-use-shown",
      "agent-cli/managed-tasks/control-plane-api",
    ],
    about: "with the bridge configured, the model calls awp_run_managed_task: a task that succeeds (the call repeated), a 1 MiB output, a task that never finishes, each control-plane failure, a call in every round, then a plain turn",
  },
  "managed-gated": { judges: ["agent-cli/managed-tasks/gated", "agent-cli/session/refusal-reported"], about: "one launch each without the bridge's opt-in, URL or key; the model would call awp_run_managed_task if offered" },
} as const;

export type ScenarioName = keyof typeof SCENARIOS;
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

/**
 * The failure probes: each runs in a process of its own, starts first and runs beside the
 * other scenarios outside the --jobs limit, and waits --stall-timeout for its failing turn.
 */
export const FAILURE_PROBES: readonly ScenarioName[] = ["failures-error", "failures-stall"];

/** Names `--scenario` also takes, each standing for several scenarios. */
export const SCENARIO_ALIASES: Readonly<Record<string, readonly ScenarioName[]>> = {
  failures: FAILURE_PROBES,
};

/** The scenarios a `--scenario` value names (an alias expands), or undefined when it names none. */
export function expandScenario(name: string): readonly ScenarioName[] | undefined {
  if ((SCENARIO_NAMES as readonly string[]).includes(name)) return [name as ScenarioName];
  return SCENARIO_ALIASES[name];
}

/** The transcript name of a fuzzed session (one launch driven by generated steps, judged on the fuzzed clauses). */
export const FUZZ_SCENARIO = "fuzz";

/** Block type the kit sends as an "unsupported" content block. */
export const PROBE_BLOCK_TYPE = "awp_conformance_probe";

/**
 * The kit's own time bounds (the contract sets none of these) and their defaults; each is an
 * option of `run`. The clause texts quote these defaults (test/core/agent-cli/bounds.test.ts).
 */
export interface KitBounds {
  /** --turn-timeout: every wait for an ordinary turn's terminal event. */
  turnTimeoutMs: number;
  /** --stall-timeout: the wait for the terminal event of a failure probe's failing turn. */
  stallTimeoutMs: number;
  /** --quiet-window: how long the basic scenario watches stdout after launch before its first line. */
  quietWindowMs: number;
  /** --shutdown-timeout: how long after {"type":"shutdown"} the process may take to exit. */
  shutdownTimeoutMs: number;
  /** --order-skew: how early the next turn's model request may be seen before this turn's terminal line (terminal-in-order). */
  orderSkewMs: number;
}

export const DEFAULT_BOUNDS: Readonly<KitBounds> = {
  turnTimeoutMs: 30_000,
  stallTimeoutMs: 180_000,
  quietWindowMs: 3_000,
  shutdownTimeoutMs: 1_000,
  orderSkewMs: 250,
};

/** The quiet window of every launch but the basic scenario's first (output then still fails). */
export const SHORT_QUIET_MS = 100;

/** The run's bounds, or the defaults (judging recorded transcripts). */
export function boundsOf(run: { bounds?: KitBounds }): KitBounds {
  return run.bounds ?? DEFAULT_BOUNDS;
}

/**
 * Why the kit ran none of a scenario's later steps. unanswered: a turn the kit awaited got
 * no terminal event within its bound (the scenario stops there); never-answered: the run
 * concluded the CLI answers nothing and stopped the scenario (or never started it);
 * run-timeout: --run-timeout was reached; interrupted: the kit was (SIGINT, SIGTERM).
 */
export type StopCause = "unanswered" | "never-answered" | "run-timeout" | "interrupted";

export interface ScenarioStop {
  scenario: ScenarioName;
  cause: StopCause;
  /** unanswered: which turn, e.g. "turn 1 (basic-1)" or "turn 4 (the unsupported-block turn)". */
  turn?: string;
  /** unanswered: how long the kit waited for it, and under which option. */
  waitedMs?: number;
  bound?: "--turn-timeout" | "--stall-timeout";
  /** False when the scenario never started. */
  started: boolean;
  /** interrupted: the signal the kit got. */
  signal?: InterruptSignal;
}
