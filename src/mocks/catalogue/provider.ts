/**
 * The provider mock's faults (src/mocks/provider/ implements them, one module per group),
 * with what a correct host (aw-host, a gateway running policy providers) does about each,
 * in our own words, and the contract section it rests on.
 */
import type { ClauseSource } from "../../core/report/types.js";
import type { FaultEntry, FaultInfo, FaultParam, HostRule } from "./types.js";
import { entries, param } from "../run.js";

// Sections of the public contract (src/core/clauses/sources.ts).
const contract = (section: string): ClauseSource => ({ doc: "provider-protocol", section });
const TRANSPORT = contract("Transport contract");
const METHODS = contract("Three methods");
const INVOKE = contract("invoke");
const ADMISSION = contract("Offline admission");
const BOUNDARY = contract("Delivery boundary");

/** What a correct host does about each kind of misbehaviour (several faults share one). */
const R = {
  framing: { section: TRANSPORT, failure: true, does: "Refuses stdout that is not exactly one JSON object (a log line, a second document, a BOM, duplicate keys, numbers out of range, nesting past 32): a failed call under the step's on_error, never a policy decision." },
  outputLimit: { section: TRANSPORT, failure: true, does: "Reads at most 1 MiB of stdout (or its own smaller limit) and fails the call once it is passed." },
  exitStatus: { section: TRANSPORT, failure: true, does: "Takes a nonzero exit as a failed execution whatever stdout says: a block counts only with exit status zero." },
  correlation: { section: METHODS, failure: true, does: "Checks the response against its request: the same api_version and request_id (and for invoke the same input_digest); a mismatch is a failure, not an answer." },
  envelope: { section: METHODS, failure: true, does: "Checks the response envelope (status ok or error, no unknown fields, error_code form, no success fields on an error) and treats a bad one as a failed call." },
  errorResponse: { section: METHODS, failure: true, does: "Treats status error as a provider failure under on_error, never as a block." },
  description: { section: ADMISSION, does: "Admits a step only from a well-formed description (at most 64 operations, unique nonempty names, known events and effects) that supports it; otherwise admission fails with a reason before any invocation." },
  configEvidence: { section: ADMISSION, does: "Starts a step only after validate_config accepted that exact configuration, and keeps the association; an acceptance it cannot check is the provider's bug, not the host's." },
  effects: { section: METHODS, failure: true, does: "Applies only checked candidate effects: at most 64, each in allowed_effects with its allowed fields and code form; anything else makes the whole response invalid (a failure), not a partial decision." },
  replacement: { section: ADMISSION, failure: true, does: "Accepts replace_result only on tool.after, at most once, with string text and only when it supplied result_projection, rules of a later revision of the contract than the one cited; block only before the tool. Otherwise the response is invalid (a failure)." },
  untrustedText: { section: METHODS, does: "Treats reason codes, texts and error codes as untrusted: it does not copy them into shared logs or displays by default." },
  deadline: { section: BOUNDARY, does: "Enforces budget_ms with its own timer: once the deadline passes it kills the process (SIGTERM, then SIGKILL), reaps it and applies on_error." },
  processEnd: { section: BOUNDARY, does: "Takes the call as finished when the process exits, and bounds that wait too: a provider that answered but lingers is killed and reaped." },
  leftoverPipe: { section: BOUNDARY, does: "Does not wait for the end of stdout or stderr once the process exited: a grandchild holding a pipe must not stall the call (bounded reads, process-group kill)." },
  leftoverHidden: { section: BOUNDARY, does: "Nothing it can see: a grandchild in a new session holds none of its pipes and survives a process-group kill. Cleaning up is the provider's job." },
  crash: { section: TRANSPORT, failure: true, does: "Treats death by a signal as a failed execution under on_error, never as a decision." },
  robustness: { section: TRANSPORT, does: "Nothing, with a correct host: it never sends such a request (it checks its own). With a host that does, the provider answers instead of refusing with exit 2, so the host's bug goes unseen." },
  requestWhitespace: { section: contract("Standalone stdio example"), does: "May send the request with a trailing newline (JSON whitespace, not a second message); if a provider refuses that with an error response, the host applies on_error." },
  digestDialect: { section: INVOKE, does: "Binds each invocation with one serde_json float format; a provider built on another may refuse exponent-form floats, which the host sees as a failed execution." },
  admissionOnly: { section: ADMISSION, does: "Rejects at admission a step that needs ask, input replacement or a permission.request event: the v1alpha1 profile admits only observe and block before a tool, and observe after it (replace_result too, by a later revision of the contract than the one cited)." },
  validDecision: { section: METHODS, does: "Applies the decision: it is protocol-valid, only wrong for the policy (what `awp-conformance policy-test` catches)." },
  providerState: { section: TRANSPORT, does: "Nothing it can see: a provider that keeps state in its working directory or answers differently there is the provider's bug (the kit runs it in a fresh directory)." },
} as const satisfies Record<string, HostRule>;

const DAEMON_MS = param("ms", "count", 600_000, "how long the grandchild lives");
const code = (value: number): FaultParam => param("code", "count", value, "exit status");
const FRESH_DIR = "shows only in an empty working directory, as the kit gives it";

/** Faults on answers and on the process. */
const ANSWERS: readonly FaultEntry[] = [
  // ---- transport
  { name: "stdout-not-object", group: "transport", does: "Answers an error as a JSON array ([\"code\"]) instead of an object.", host: R.framing },
  { name: "trailing-document", group: "transport", does: "Writes a second JSON document ({}) after the response.", host: R.framing },
  { name: "log-on-stdout", group: "transport", does: "Writes a plain-text log line on stdout before the response.", host: R.framing },
  { name: "bom", group: "transport", does: "Starts stdout with a UTF-8 byte order mark.", host: R.framing },
  { name: "huge-response", group: "transport", does: "Pads error responses with `bytes` spaces, past the 1 MiB limit.", host: R.outputLimit, params: [param("bytes", "count", 1_100_000, "spaces added")] },
  { name: "deep-response", group: "transport", does: "Adds to error responses a field nested `depth` arrays deep.", host: R.framing, params: [param("depth", "count", 40, "nesting depth")] },
  { name: "big-number", group: "transport", does: "Adds to error responses an integer past u64 (18446744073709551616).", host: R.framing },
  { name: "duplicate-key", group: "transport", does: "Writes the status key twice.", host: R.framing },
  { name: "refuse-request-whitespace", group: "transport", does: "Answers invalid_request to a request with whitespace (a newline too) before or after the object.", host: R.requestWhitespace },
  { name: "exit-nonzero-on-block", group: "transport", does: "Exits with `code` after answering with a block.", host: R.exitStatus, params: [code(1)] },
  { name: "exit-nonzero-on-reject", group: "transport", does: "Exits with `code` after answering with an error response.", host: R.exitStatus, params: [code(1)] },

  // ---- process: time, exit, signals, leftovers
  {
    name: "slow-invoke", group: "process", host: R.deadline,
    does: "Answers the selected invocations only after `ms`.",
    params: [
      param("ms", "delay", "budget+300", "the delay: ms, or budget+N for N ms past the request's budget_ms"),
      param("id", "text", "invoke-1", "which invocations: a request_id, or * for all; with request ids not of the kit's invoke-N form, every invocation"),
    ],
  },
  { name: "ignore-budget", group: "process", does: "Ignores budget_ms: an invocation whose budget_ms is under `ms` still takes `ms` and is answered ok, after its budget ran out.", host: R.deadline, params: [param("ms", "count", 3000, "how long such an invocation takes")] },
  { name: "hang", group: "process", does: "Reads the request and never answers; stays up until it is killed.", host: R.deadline },
  { name: "linger", group: "process", does: "Answers, then stays up `ms` before exiting (0: until it is killed).", host: R.processEnd, params: [param("ms", "count", 0, "how long it stays after answering; 0 is until killed")] },
  { name: "linger-after-unknown-key", group: "process", does: "Answers, then never exits, when the configuration holds x_awp_conformance_unknown.", host: R.processEnd, kitOnly: "the kit's unknown-setting probe triggers it" },
  { name: "ignore-sigterm", group: "process", does: "Ignores SIGTERM (SIGKILL still ends it); with hang or slow-invoke it tests the host's kill path.", host: R.deadline },
  { name: "leave-daemon-stdout", group: "process", does: "Starts a grandchild in a new session that holds the provider's stdout open for `ms` after it exits (its environment emptied).", host: R.leftoverPipe, params: [DAEMON_MS] },
  { name: "leave-daemon-stderr", group: "process", does: "Starts a grandchild in a new session that holds the provider's stderr open for `ms` after it exits.", host: R.leftoverPipe, params: [DAEMON_MS] },
  { name: "leave-daemon-no-fds", group: "process", does: "Starts a grandchild in a new session that holds none of the provider's pipes and lives `ms`.", host: R.leftoverHidden, params: [DAEMON_MS] },

  // ---- envelope
  { name: "wrong-api-version", group: "envelope", does: "Answers with api_version aw-provider/v1alpha2.", host: R.correlation },
  { name: "wrong-request-id", group: "envelope", does: "Answers with the request_id plus \"-x\".", host: R.correlation },
  { name: "status-failure", group: "envelope", does: "Error responses carry status \"failure\".", host: R.envelope },
  { name: "extra-field", group: "envelope", does: "Adds an unknown field (x_debug) to the describe answer.", host: R.envelope },
  { name: "bad-error-code", group: "envelope", does: "Error codes hold a space (\"invalid config\").", host: R.envelope },
  { name: "error-with-effects", group: "envelope", does: "Error responses also carry effects.", host: R.envelope },

  // ---- describe
  { name: "describe-error", group: "describe", does: "Answers describe with an error (not_ready).", host: R.errorResponse },
  { name: "too-many-operations", group: "describe", does: "Declares 65 operations.", host: R.description },
  { name: "operation-extra-field", group: "describe", does: "The first operation has an unknown field.", host: R.description },
  { name: "duplicate-operation-name", group: "describe", does: "Declares the first operation twice.", host: R.description },
  { name: "unknown-event", group: "describe", does: "The first operation lists the event tool.during.", host: R.description },
  { name: "unknown-effect", group: "describe", does: "The first operation lists the effect allow.", host: R.description },
  { name: "no-admissible-operation", group: "describe", does: "Declares only an operation on session.start.", host: R.description },
  { name: "describe-depends-on-cwd", group: "describe", does: "In an empty working directory, leaves the redact operation out of describe.", host: R.providerState, kitOnly: FRESH_DIR },
  { name: "write-state-file", group: "describe", does: "Writes .provider-state.json on describe and validate_config, in an empty working directory only.", host: R.providerState, kitOnly: FRESH_DIR },
  { name: "inadmissible-operation", group: "describe", does: "Also declares an approve operation with ask and replace_input on tool.before and permission.request (protocol-valid, not admissible).", host: R.admissionOnly },

  // ---- validate_config
  { name: "reject-all-configs", group: "validate-config", does: "Refuses every configuration (invalid_config).", host: R.configEvidence },
  { name: "config-ok-extra", group: "validate-config", does: "Accepted configurations are answered with an operations field too.", host: R.envelope },
  { name: "accept-invalid-configs", group: "validate-config", does: "Accepts any configuration without blocked_tools.", host: R.configEvidence },
  { name: "accept-unknown-keys", group: "validate-config", does: "Ignores the unknown setting x_awp_conformance_unknown.", host: R.configEvidence, kitOnly: "the kit's unknown-setting probe triggers it" },
  { name: "loose-redact-terms", group: "validate-config", does: "Accepts redact_terms of the wrong type (a string).", host: R.configEvidence },

  // ---- invoke
  { name: "invoke-error", group: "invoke", does: "Answers every invocation with an error (scan_error).", host: R.errorResponse },
  { name: "wrong-digest", group: "invoke", does: "Echoes an input_digest with its last hex digit changed.", host: R.correlation },
  { name: "zmij-only", group: "invoke", does: "Verifies the digest in the zmij float format only (serde_json 1.0.147+): refuses an invocation with exponent floats bound the other way.", host: R.digestDialect },
  { name: "too-many-effects", group: "invoke", does: "Answers 65 observe effects when observe is admitted.", host: R.effects },
  { name: "effect-extra-field", group: "invoke", does: "Every effect carries an unknown field (severity).", host: R.effects },
  { name: "observe-not-admitted", group: "invoke", does: "Adds an observe effect where observe is not admitted.", host: R.effects },
  { name: "bad-reason-code", group: "invoke", does: "Reason codes hold a space (\"tool policy\").", host: R.effects },
  { name: "block-after-tool", group: "invoke", does: "Blocks listed tools on tool.after too.", host: R.replacement },
  { name: "replace-before-tool", group: "invoke", does: "Adds a replace_result on tool.before.", host: R.replacement },
  { name: "double-replace", group: "invoke", does: "Repeats every replace_result.", host: R.replacement },
  { name: "replace-without-text", group: "invoke", does: "replace_result effects carry no text.", host: R.replacement },
  { name: "replace-without-projection", group: "invoke", does: "Answers replace_result when it is admitted but no result_projection came.", host: R.replacement },
  { name: "empty-block-text", group: "invoke", does: "Block effects carry an empty text.", host: R.effects },
  { name: "observe-with-text", group: "invoke", does: "Observe effects carry a text.", host: R.effects },
  { name: "reason-quotes-input", group: "invoke", does: "Quotes the tool input's private_token in its observe reason_code.", host: R.untrustedText, kitOnly: "needs a private_token in the tool input, as the kit's canary sends" },
  { name: "accept-undeclared-operation", group: "invoke", does: "Runs any operation it is asked for: an unknown name falls back to check.", host: R.robustness },
  { name: "wrong-decision", group: "invoke", does: "Never blocks: a block becomes an observe when observe is admitted, else no effect (protocol-valid, wrong for the policy).", host: R.validDecision },
];

const accepts = (name: string, what: string): FaultEntry => ({ name, group: "robustness", does: `Accepts ${what} instead of refusing it (exit 2).`, host: R.robustness });
const FUZZ = "only requests the fuzzer generates trigger it";

/** Faults on requests the mock should refuse, and crashes. */
const ROBUSTNESS: readonly FaultEntry[] = [
  accepts("accept-duplicate-keys", "a request with duplicate keys (the last one wins)"),
  accepts("accept-malformed-json", "a request with a byte order mark or invalid UTF-8"),
  accepts("accept-out-of-bounds", "over-long ids, a budget_ms out of range or an over-long session_id"),
  accepts("accept-trailing-document", "a request followed by a second document (it reads the first)"),
  accepts("accept-oversized", "a request over 1 MiB (it reads up to 4 MiB)"),
  accepts("accept-deep", "a request nested deeper than 32"),
  accepts("accept-big-integers", "integers outside i64/u64"),
  accepts("accept-unknown-fields", "unknown envelope fields"),
  accepts("accept-any-api-version", "any api_version"),
  { ...accepts("accept-unknown-method", "an unknown method"), does: "Answers an unknown method as describe instead of refusing it (exit 2)." },
  { ...accepts("accept-bad-config", "a missing or non-object config"), does: "Reads a missing or non-object config as the empty policy instead of refusing the request (exit 2)." },
  accepts("accept-malformed-config-revision", "a config_revision that is not 64 lowercase hex digits"),
  accepts("accept-bad-request-id", "a request_id with a space, or over 128 characters"),
  accepts("accept-bad-allowed-effects", "allowed_effects empty, duplicated or out of the vocabulary"),
  { ...accepts("accept-bad-event-name", "an invocation for another event"), does: "Takes an invocation for any other event as tool.before instead of refusing it (exit 2)." },
  accepts("accept-malformed-digest", "an input_digest not of the sha256:<64 hex> form"),
  accepts("accept-mismatched-digest", "an input_digest that does not match the request"),
  accepts("accept-result-before-tool", "a tool.before event with a non-null result"),
  { name: "hang-on-trailing", group: "robustness", does: "On a request with trailing data, reports the rejection on stderr but never exits.", host: R.processEnd },
  { name: "crash-on-deep", group: "robustness", does: "Dies of SIGSEGV on a request nested deeper than 32.", host: R.crash },

  // ---- bugs only the fuzzer finds
  { name: "crash-on-long-tool-name", group: "fuzz only", does: "Dies of SIGSEGV on an invocation whose tool name passes `chars` characters.", host: R.crash, kitOnly: FUZZ, params: [param("chars", "count", 200, "tool name length that triggers it")] },
  { name: "crash-on-nesting-20", group: "fuzz only", does: "Dies of SIGSEGV on an invocation whose tool input is nested `depth` deep or more.", host: R.crash, kitOnly: FUZZ, params: [param("depth", "count", 20, "nesting that triggers it")] },
  { name: "crash-on-input-over-50-members", group: "fuzz only", does: "Dies of SIGSEGV on an invocation whose tool input object has more than `members` members.", host: R.crash, kitOnly: FUZZ, params: [param("members", "count", 50, "member count that triggers it")] },
];

export const PROVIDER_CATALOGUE: readonly FaultInfo[] = entries("provider", [...ANSWERS, ...ROBUSTNESS]);
