import type { DigestDialectId, JsonValue } from "../json/index.js";
import type { ProcessOutcome } from "../process-outcome.js";
import type { InterruptSignal } from "../interrupt.js";

export const API_VERSION = "aw-provider/v1alpha1";
export const MAX_MESSAGE_BYTES = 1_048_576;
export const MAX_DEPTH = 32;

export type JsonObject = { [key: string]: JsonValue };

export const EVENT_NAMES = [
  "session.start", "input.submit", "tool.before", "tool.after", "permission.request",
  "compact.before", "compact.after", "subagent.start", "subagent.stop", "turn.stop",
  "session.end", "model.before_request", "runtime.observed", "runtime.exited",
  "security.violation", "coverage.changed",
] as const;
export const EFFECT_NAMES = ["observe", "block", "ask", "replace_input", "replace_result"] as const;
export type ToolEvent = "tool.before" | "tool.after";

/** Effects the v1alpha1 admission profile executes, per tool event. */
export const PROFILE_EFFECTS: Record<ToolEvent, readonly string[]> = {
  "tool.before": ["observe", "block"],
  "tool.after": ["observe", "replace_result"],
};

/** Kinds of hostile request; each is judged by the robustness clause of the same name. */
export type HostileKind =
  | "duplicate-keys"
  | "trailing-document"
  | "malformed-json"
  | "out-of-bounds"
  | "oversized-request"
  | "excessive-depth"
  | "out-of-range-integer"
  | "unknown-field"
  | "wrong-api-version"
  | "unknown-method"
  | "malformed-digest"
  | "mismatched-digest"
  | "result-before-tool"
  | "bad-config"
  | "malformed-config-revision"
  | "bad-request-id"
  | "bad-allowed-effects"
  | "bad-event-name"
  | "undeclared-operation";

/** Why the kit sent a request; checks select exchanges by it. */
export type Purpose =
  | "describe"
  | "config-valid"
  | "config-invalid"
  | "config-unknown-key"
  | "config-wrong-type"
  | "invoke"
  /** The same invocation with exponent floats, bound in each digest dialect. */
  | "dialect"
  /** The control of a hostile probe, when no request sent before was exactly it. */
  | "control"
  /** An accepted invocation again with budget_ms 1, a budget no process can meet (provider/transport/tight-budget). */
  | "tight-budget"
  /** A well-formed request again, with JSON whitespace around it. */
  | "whitespace"
  /** describe or validate_config again, in a fresh empty working directory and HOME. */
  | "fresh-dir"
  | `hostile:${HostileKind}`;

/** Flat process outcome, as the runner reports it. */
export type CallOutcome = ProcessOutcome;

/** One request, one process, one answer: the unit the provider checks judge. */
export interface ProviderExchange {
  seq: number;
  /** Human label, e.g. "invoke check tool.before [observe,block] tool=Bash". */
  scenario: string;
  purpose: Purpose;
  /** The method the request names (hostile requests may name a wrong one). */
  method: string;
  requestId: string;
  /** Exact bytes written to stdin. */
  request: Uint8Array;
  /** The request as the kit built it; absent when the bytes are not one JSON value. */
  requestValue?: JsonObject;
  /** For a hostile request (or a dialect probe): the seq of its well-formed control. */
  controlSeq?: number;
  /** For a hostile request: what its control is ("tool.input nested 32 levels, within the limit"). */
  controlLabel?: string;
  /** For an invocation: the digest dialect its input_digest was computed in. */
  digestDialect?: DigestDialectId;
  /**
   * Set on an invocation the Provider refused while it accepted the same request bound in
   * another dialect: a portability finding (provider/invoke/digest-dialects), not a failure.
   */
  dialectRefused?: true;
  /** For a "whitespace" or "fresh-dir" request: the seq of the same request sent plainly. */
  plainSeq?: number;
  /** For a "fresh-dir" request: the files and directories it left in its fresh cwd and HOME ("cwd/x", "home/.cache"). */
  leftFiles?: string[];
  timeoutMs: number;
  budgetMs?: number;
  outcome: CallOutcome;
  stdout: Uint8Array;
  stderr: Uint8Array;
  foundBy?: "scenario" | "fuzz";
}

export interface ProviderContext {
  /** The configuration used for invocations, and whether the user supplied it. */
  config: JsonObject;
  configGiven: boolean;
  invalidConfigsGiven: number;
  /** Strings the kit treats as secrets and redacts from evidence. */
  secrets: string[];
  notes: string[];
  /** The digest dialects the Provider accepted, and the one the kit bound its invocations in. */
  digestDialect?: { bound: DigestDialectId; accepted: DigestDialectId[] };
  /** --budget-slack: the least time past the tight-budget probe's budget_ms an answer still counts as on time (checks/budget.ts). */
  budgetSlackMs?: number;
  /** Set when the run reached --run-timeout (its value in ms): the kit sent nothing after it. */
  runTimedOut?: number;
  /** Set when the kit was interrupted (core/interrupt.ts): it sent nothing after it. */
  interrupted?: InterruptSignal;
}

export interface ProviderTranscript {
  argv: string[];
  context: ProviderContext;
  exchanges: ProviderExchange[];
}
