/**
 * Every clause fault of the agent-cli mock (src/mocks/agent-cli/), and every broken launch configuration, with
 * the exact agent-cli clauses a run must fail. Runs are limited to the scenarios that show
 * the fault (clauses no scenario judged are skipped; the exact set is over judged clauses).
 */
import type { ScenarioName } from "../../src/core/agent-cli/scenarios.js";

/** How the kit is pointed at the candidate. */
export type Launch =
  /** The fake by absolute path on the command line (the default). */
  | "fake"
  /** --from-env, AWP_AGENT_CLI_EXECUTABLE relative to the kit's cwd (the repo root). */
  | "from-env-relative"
  /** --from-env, AWP_AGENT_CLI_EXECUTABLE the fake by absolute path. */
  | "from-env"
  /** A mode-0644 copy of the fake in a temp dir (a small file importing the real fake). */
  | "copy-0644"
  /** A symlink in a temp dir pointing at the fake. */
  | "symlink";

/** A part of a case the kit cannot get right yet: the test for it is expected to fail until src/ is fixed. */
export interface AgentCliCase {
  /** The fault name, or the launch clause a configuration breaks. */
  name: string;
  /** Passed to the fake as prefix arguments `--fault NAME`. */
  fault?: string;
  /** The exact failing clause ids. */
  fails: readonly string[];
  /**
   * The modes the case runs in. By default one, alternating along the table (agentCliCaseTests):
   * the fake answers alike in both (it consumes the compatibility flags), so a second run shows
   * nothing the first did not; the launch tests run the reference and the launch
   * configurations in both.
   */
  modes?: readonly ("awp-jsonl" | "stream-json")[];
  /** Clauses the run must skip, each with a pattern its reason must match (one root cause: the skip names it). */
  skips?: Readonly<Record<string, RegExp>>;
  scenarios: readonly ScenarioName[];
  /** Extra options for `awp-conformance run`. */
  options?: readonly string[];
  launch?: Launch;
  /** AWP_AGENT_CLI_PROTOCOL with --from-env (default awp-jsonl). */
  protocol?: string;
  /** Extra variables in the kit's own environment. */
  kitEnv?: Readonly<Record<string, string>>;
  /** Strings that must never appear in report.json (besides the fixture token). */
  secrets?: readonly string[];
  /** Text every finding of the failing clauses must hold (the fixture's refusal it quotes, say). */
  says?: string;
  /**
   * The fault must show inside the kit's quiet window after launch (--quiet-window): run it
   * with no other kit run of its file, so a loaded box does not push the fake's startup past
   * the first input line. Cases neither alone nor giving --quiet-window run with a short one.
   */
  alone?: boolean;
}

const out = (id: string): string => `agent-cli/output/${id}`;
const ses = (id: string): string => `agent-cli/session/${id}`;
const trn = (id: string): string => `agent-cli/turns/${id}`;
const inp = (id: string): string => `agent-cli/input/${id}`;
const res = (id: string): string => `agent-cli/resume/${id}`;
const lch = (id: string): string => `agent-cli/launch/${id}`;

export const OUTPUT_SESSION_TURN_FAULTS: readonly AgentCliCase[] = [
  { name: "early-output", fault: "early-output", fails: [out("silent-before-input")], scenarios: ["basic"], alone: true },
  { name: "init-after-startup", fault: "init-after-startup", fails: [out("silent-before-input")], scenarios: ["basic"], options: ["--quiet-window", "3000"] },
  { name: "log-on-stdout", fault: "log-on-stdout", fails: [out("json-object-lines")], scenarios: ["basic"] },
  { name: "partial-last-line", fault: "partial-last-line", fails: [out("no-partial-line")], scenarios: ["basic"] },
  { name: "huge-line", fault: "huge-line", fails: [out("line-size")], scenarios: ["tools"] },
  { name: "untyped-event", fault: "untyped-event", fails: [out("typed-events")], scenarios: ["basic"] },
  // A refusal with nothing on stdout (and exit 0 for exit-at-start) also breaks how a refused start is reported.
  { name: "exit-at-start", fault: "exit-at-start", fails: [ses("stays-up"), ses("refusal-reported")], scenarios: ["basic"], alone: true },
  { name: "refused-launch", fault: "refused-launch", fails: [ses("stays-up"), ses("refusal-reported")], scenarios: ["basic", "malformed", "mcp"] },
  { name: "no-init", fault: "no-init", fails: [ses("init-event")], scenarios: ["basic"] },
  { name: "bad-session-id", fault: "bad-session-id", fails: [ses("id-form")], scenarios: ["basic"] },
  { name: "changing-session-id", fault: "changing-session-id", fails: [ses("stable-id")], scenarios: ["basic"] },
  { name: "double-result", fault: "double-result", fails: [trn("one-terminal-per-turn")], scenarios: ["basic"] },
  { name: "prefetch-next-turn", fault: "prefetch-next-turn", fails: [trn("terminal-in-order")], scenarios: ["queued"] },
  { name: "exit-mid-turn", fault: "exit-mid-turn", fails: [trn("no-exit-mid-turn")], scenarios: ["basic"] },
  { name: "success-with-is-error", fault: "success-with-is-error", fails: [trn("result-shape")], scenarios: ["basic"] },
  { name: "error-text", fault: "error-text", fails: [trn("error-code")], scenarios: ["failures-error"] },
  { name: "error-code-dotted", fault: "error-code-dotted", fails: [trn("error-code-form")], scenarios: ["failures-error"] },
  { name: "error-code-in-subtype", fault: "error-code-in-subtype", fails: [trn("error-code-in-result")], scenarios: ["failures-error"] },
  // Not a fault: every terminal form the contract allows ends a turn for every clause (message_stop like a success result).
  { name: "message-stop-ends-turns", fault: "message-stop-ends-turns", fails: [], scenarios: ["basic", "failures-error", "failures-stall", "malformed", "resume"] },
  { name: "negative-usage", fault: "negative-usage", fails: [trn("usage-counts")], scenarios: ["basic"] },
  { name: "delta-before-start", fault: "delta-before-start", fails: [trn("text-blocks")], scenarios: ["basic"] },
  { name: "hide-tool-use", fault: "hide-tool-use", fails: [trn("tool-use")], scenarios: ["tools"] },
];

export const INPUT_RESUME_LIFECYCLE_FAULTS: readonly AgentCliCase[] = [
  { name: "exit-on-malformed", fault: "exit-on-malformed", fails: [inp("survives-malformed-line")], scenarios: ["malformed"] },
  { name: "drop-text", fault: "drop-text", fails: [inp("text-block")], scenarios: ["content"] },
  { name: "drop-image", fault: "drop-image", fails: [inp("image-block")], scenarios: ["content"] },
  { name: "drop-document", fault: "drop-document", fails: [inp("document-block")], scenarios: ["content"] },
  { name: "drop-unsupported", fault: "drop-unsupported", fails: [inp("unsupported-block")], scenarios: ["content"] },
  { name: "mcp-path-as-prompt", fault: "mcp-path-as-prompt", fails: [inp("mcp-config")], scenarios: ["mcp"] },
  // Refused only with the flag: the basic scenario's launch (without it) serves, so the flag's clause fails, not session/stays-up.
  { name: "refuse-mcp-config", fault: "refuse-mcp-config", fails: [inp("mcp-config")], scenarios: ["basic", "mcp"] },
  { name: "refuse-resume", fault: "refuse-resume", fails: [res("accepts-id")], scenarios: ["resume"] },
  { name: "error-after-resume", fault: "error-after-resume", fails: [res("accepts-id")], scenarios: ["resume"] },
  { name: "new-id-on-resume", fault: "new-id-on-resume", fails: [res("keeps-id")], scenarios: ["resume"] },
  { name: "forget-history", fault: "forget-history", fails: [res("history-restored")], scenarios: ["resume"] },
  { name: "truncate-stream", fault: "truncate-stream", fails: ["agent-cli/fidelity/streamed-text"], scenarios: ["basic"] },
  { name: "truncate-result", fault: "truncate-result", fails: ["agent-cli/fidelity/result-text"], scenarios: ["basic"] },
  { name: "leak-key", fault: "leak-key", fails: ["agent-cli/secrets/token-not-echoed"], scenarios: ["basic"] },
  { name: "success-on-http-error", fault: "success-on-http-error", fails: ["agent-cli/failures/model-error"], scenarios: ["failures-error"] },
  { name: "success-on-timeout", fault: "success-on-timeout", fails: ["agent-cli/failures/model-stall"], scenarios: ["failures-stall"] },
  { name: "ignore-shutdown", fault: "ignore-shutdown", fails: ["agent-cli/termination/shutdown-line"], scenarios: ["shutdown"] },
  { name: "ignore-sigterm-idle", fault: "ignore-sigterm-idle", fails: ["agent-cli/termination/sigterm-idle"], scenarios: ["sigterm-idle"] },
  { name: "ignore-sigterm-mid-turn", fault: "ignore-sigterm-mid-turn", fails: ["agent-cli/termination/sigterm-mid-turn"], scenarios: ["sigterm-mid-turn"] },
  { name: "ignore-eof", fault: "ignore-eof", fails: ["agent-cli/termination/stdin-eof"], scenarios: ["basic"], options: ["--turn-timeout", "3000"] },
  { name: "exit-nonzero-on-shutdown", fault: "exit-nonzero-on-shutdown", fails: ["agent-cli/termination/clean-exit-status"], scenarios: ["shutdown"] },
  { name: "exit-nonzero-on-eof", fault: "exit-nonzero-on-eof", fails: ["agent-cli/termination/clean-exit-status"], scenarios: ["basic"] },
  // A grandchild in a new session left running after every launch (src/mocks/daemon.ts).
  { name: "leave-daemon-stdout", fault: "leave-daemon-stdout", fails: ["agent-cli/termination/no-leftover-processes"], scenarios: ["basic"] },
  { name: "leave-daemon-stderr", fault: "leave-daemon-stderr", fails: ["agent-cli/termination/no-leftover-processes"], scenarios: ["basic"] },
  { name: "leave-daemon-no-fds", fault: "leave-daemon-no-fds", fails: ["agent-cli/termination/no-leftover-processes"], scenarios: ["basic"] },
];

const con = (id: string): string => `agent-cli/consistency/${id}`;

/** What the CLI tells the host disagreeing with what its model did (src/mocks/agent-cli/faults-consistency.ts). */
export const CONSISTENCY_FAULTS: readonly AgentCliCase[] = [
  { name: "last-round-usage", fault: "last-round-usage", fails: [con("usage-matches-model")], scenarios: ["tools"] },
  { name: "invented-tool-id", fault: "invented-tool-id", fails: [con("tool-use-ids")], scenarios: ["tools"] },
  { name: "overlapping-blocks", fault: "overlapping-blocks", fails: [con("block-sequence")], scenarios: ["basic"] },
  { name: "error-after-stream", fault: "error-after-stream", fails: [con("streamed-turn-succeeds")], scenarios: ["basic"] },
];

const SECRET_ARG = "sk-test-1234567890abcdef";

/** Launch clauses: the fake without a fault, run with a configuration that breaks one clause. */
export const LAUNCH_CONFIGS: readonly AgentCliCase[] = [
  { name: "absolute-executable", fails: [lch("absolute-executable")], scenarios: ["basic"], launch: "from-env-relative" },
  { name: "regular-executable", fails: [lch("regular-executable")], scenarios: ["basic"], launch: "copy-0644" },
  { name: "not-a-symlink", fails: [lch("not-a-symlink")], scenarios: ["basic"], launch: "symlink" },
  { name: "args-limits", fails: [lch("args-limits")], scenarios: ["basic"], options: ["--args-json", JSON.stringify(Array.from({ length: 129 }, (_, i) => `a${i}`))] },
  { name: "env-limits", fails: [lch("env-limits")], scenarios: ["basic"], options: ["--env-json", JSON.stringify({ "1BAD": "x" })] },
  { name: "model-id", fails: [lch("model-id")], scenarios: ["basic"], options: ["--model", "m".repeat(300)] },
  { name: "protocol-name", fails: [lch("protocol-name")], scenarios: ["basic"], launch: "from-env", protocol: "jsonl-v2" },
  { name: "remote-url-opt-in", fails: [lch("remote-url-opt-in")], scenarios: ["basic"], options: ["--env", "AWP_FAKE_UNUSED=https://models.example.com/v1"] },
  {
    name: "no-plain-http-remote", fails: [lch("no-plain-http-remote")], scenarios: ["basic"],
    options: ["--env", "AWP_FAKE_UNUSED=http://models.example.com/v1"], kitEnv: { AWP_AGENT_REMOTE_API_OPT_IN: "1" },
  },
  { name: "no-secrets-in-args", fails: [lch("no-secrets-in-args")], scenarios: ["basic"], options: ["--args-json", JSON.stringify(["--api-key", SECRET_ARG])], secrets: [SECRET_ARG] },
];

const mt = (id: string): string => `agent-cli/managed-tasks/${id}`;

/** The clauses that need a task the control plane ran, skipped naming control-plane-api after `refusal` (what the control plane refused). */
const needATask = (refusal: RegExp): Record<string, RegExp> =>
  Object.fromEntries(["result-framing", "bounded-output", "wait-limit", "control-plane-failures"].map((id) => [mt(id), new RegExp(`refused what the CLI sent .*${refusal.source}.*see agent-cli/managed-tasks/control-plane-api`)]));

/** The managed-task faults (src/mocks/agent-cli/faults-managed.ts), one clause each (every fake run has the bridge on: REFERENCE_ENV). */
export const MANAGED_TASK_FAULTS: readonly AgentCliCase[] = [
  { name: "managed-ignore-gate", fault: "managed-ignore-gate", fails: [mt("gated")], scenarios: ["managed-gated"] },
  { name: "managed-argv-string", fault: "managed-argv-string", fails: [mt("argv-not-shell")], scenarios: ["managed-tasks"] },
  { name: "managed-same-key", fault: "managed-same-key", fails: [mt("idempotency-key")], scenarios: ["managed-tasks"] },
  { name: "managed-key-per-submission", fault: "managed-key-per-submission", fails: [mt("idempotency-resubmission")], scenarios: ["managed-tasks"] },
  { name: "managed-result-no-id", fault: "managed-result-no-id", fails: [mt("result-framing")], scenarios: ["managed-tasks"] },
  { name: "managed-uncut-output", fault: "managed-uncut-output", fails: [mt("bounded-output")], scenarios: ["managed-tasks"] },
  { name: "managed-timeout-untold", fault: "managed-timeout-untold", fails: [mt("wait-limit")], scenarios: ["managed-tasks"] },
  { name: "managed-double-result-on-500", fault: "managed-double-result-on-500", fails: [mt("control-plane-failures")], scenarios: ["managed-tasks"] },
  { name: "managed-no-call-limit", fault: "managed-no-call-limit", fails: [mt("call-limit")], scenarios: ["managed-tasks"], options: ["--turn-timeout", "4000"] },
  { name: "managed-leak-key", fault: "managed-leak-key", fails: [mt("key-not-leaked")], scenarios: ["managed-tasks"] },
  { name: "managed-hide-tool-use", fault: "managed-hide-tool-use", fails: [mt("tool-use-shown")], scenarios: ["managed-tasks"] },
  { name: "managed-task-type-shell", fault: "managed-task-type-shell", fails: [mt("control-plane-api")], scenarios: ["managed-tasks"] },
  // Another task API is one root cause: control-plane-api fails; what needs a task the control plane ran is skipped.
  { name: "managed-other-task-path", fault: "managed-other-task-path", fails: [mt("control-plane-api")], scenarios: ["managed-tasks"], skips: needATask(/POST \/tasks \(404\)/) },
  { name: "managed-other-task-body", fault: "managed-other-task-body", fails: [mt("control-plane-api")], scenarios: ["managed-tasks"], skips: needATask(/POST \/v1\/tasks \(400\)/) },
];

/**
 * A CLI written against the Anthropic Messages API (src/mocks/agent-cli/faults-anthropic.ts):
 * its good path passes the content scenario; each request the real API refuses, which the
 * kit's model fixture refuses too, fails the clause of the turn or block it breaks, quoting
 * the refusal (issue 26, "a model stand-in more lenient than the real one").
 */
export const MODEL_API_FAULTS: readonly AgentCliCase[] = [
  { name: "anthropic-messages", fault: "anthropic-messages", fails: [], scenarios: ["content"] },
  { name: "anthropic-no-version", fault: "anthropic-no-version", fails: [inp("text-block")], scenarios: ["content"], says: "HTTP 400: anthropic-version: header is required" },
  { name: "anthropic-no-max-tokens", fault: "anthropic-no-max-tokens", fails: [inp("text-block")], scenarios: ["content"], says: "HTTP 400: max_tokens: Field required" },
  { name: "anthropic-bearer", fault: "anthropic-bearer", fails: [inp("text-block")], scenarios: ["content"], says: "HTTP 401: x-api-key header is required" },
  { name: "anthropic-empty-text", fault: "anthropic-empty-text", fails: [inp("text-block")], scenarios: ["content"], says: "HTTP 400: messages: text content blocks must be non-empty" },
  { name: "anthropic-unknown-block", fault: "anthropic-unknown-block", fails: [inp("text-block")], scenarios: ["content"], says: "Input tag 'markdown' found using 'type' does not match any of the expected tags" },
  { name: "anthropic-image-url", fault: "anthropic-image-url", fails: [inp("image-block")], scenarios: ["content"], says: "Input tag 'image_url'" },
  { name: "anthropic-file-part", fault: "anthropic-file-part", fails: [inp("document-block")], scenarios: ["content"], says: "Input tag 'file'" },
];
