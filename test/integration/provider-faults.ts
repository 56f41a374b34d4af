/** Every clause fault of the provider mock (src/mocks/provider/) and the exact clauses it must fail. */
export interface FaultCase {
  fault: string;
  fails: string[];
  /** Extra CLI options (budgets for timing faults). */
  options?: string[];
}

const t = (id: string): string => `provider/transport/${id}`;
const e = (id: string): string => `provider/envelope/${id}`;
const d = (id: string): string => `provider/describe/${id}`;
const v = (id: string): string => `provider/validate-config/${id}`;
const i = (id: string): string => `provider/invoke/${id}`;
const r = (id: string): string => `provider/robustness/${id}`;

export const TRANSPORT_AND_ENVELOPE: FaultCase[] = [
  { fault: "stdout-not-object", fails: [t("single-json-object")] },
  { fault: "trailing-document", fails: [t("no-trailing-data")] },
  { fault: "log-on-stdout", fails: [t("diagnostics-on-stderr")] },
  { fault: "bom", fails: [t("utf8")] },
  { fault: "huge-response", fails: [t("size-limit")] },
  // A deep or out-of-range value needs a field to live in; the only free one is an unknown field.
  { fault: "deep-response", fails: [t("depth-limit"), e("no-unknown-fields")] },
  { fault: "big-number", fails: [t("numbers-in-range"), e("no-unknown-fields")] },
  { fault: "duplicate-key", fails: [t("no-duplicate-keys")] },
  { fault: "refuse-request-whitespace", fails: [t("request-whitespace")] },
  { fault: "exit-nonzero-on-block", fails: [t("exit-zero-on-success")] },
  { fault: "exit-nonzero-on-reject", fails: [t("valid-request-exits-zero")] },
  // The timing faults' bounds are short to keep the run quick, yet every other call of the run
  // must fit in them on a loaded 2-core box, where a Node start alone has taken over half a second.
  { fault: "linger-after-unknown-key", fails: [t("terminates")], options: ["--timeout", "3000"] },
  { fault: "slow-invoke", fails: [t("within-budget")], options: ["--budget", "3000"] },
  // budget_ms 1 answered ok after 3 s: past the budget and the kit's allowance (--budget-slack 1000 ms, or the run's longest describe call).
  { fault: "ignore-budget", fails: [t("tight-budget")] },
  // A grandchild in a new session left running after every call (src/mocks/daemon.ts).
  { fault: "leave-daemon-stdout", fails: [t("no-leftover-processes")] },
  { fault: "leave-daemon-stderr", fails: [t("no-leftover-processes")] },
  { fault: "leave-daemon-no-fds", fails: [t("no-leftover-processes")] },
  { fault: "wrong-api-version", fails: [e("echoes-api-version")] },
  { fault: "wrong-request-id", fails: [e("echoes-request-id")] },
  { fault: "status-failure", fails: [e("status-value")] },
  { fault: "extra-field", fails: [e("no-unknown-fields")] },
  { fault: "bad-error-code", fails: [e("error-code-form")] },
  { fault: "error-with-effects", fails: [e("error-without-success-fields")] },
];

export const METHODS: FaultCase[] = [
  { fault: "describe-error", fails: [d("answers-ok")] },
  { fault: "too-many-operations", fails: [d("operation-count")] },
  { fault: "operation-extra-field", fails: [d("operation-shape")] },
  { fault: "duplicate-operation-name", fails: [d("operation-names")] },
  { fault: "unknown-event", fails: [d("operation-events")] },
  { fault: "unknown-effect", fails: [d("operation-effects")] },
  { fault: "no-admissible-operation", fails: [d("admissible-operation")] },
  { fault: "describe-depends-on-cwd", fails: [d("same-answer-twice")] },
  { fault: "write-state-file", fails: [d("leaves-no-files")] },
  { fault: "reject-all-configs", fails: [v("accepts-valid-config")] },
  { fault: "config-ok-extra", fails: [v("ok-shape")] },
  { fault: "accept-invalid-configs", fails: [v("rejects-invalid-config")] },
  { fault: "accept-unknown-keys", fails: [v("rejects-unknown-setting")] },
  { fault: "loose-redact-terms", fails: [v("rejects-wrong-typed-setting")] },
  { fault: "reason-quotes-input", fails: [i("private-data-stays-private")] },
  { fault: "invoke-error", fails: [i("answers-ok")] },
  { fault: "wrong-digest", fails: [i("echoes-input-digest")] },
  { fault: "zmij-only", fails: [i("digest-dialects")] },
  { fault: "too-many-effects", fails: [i("effect-count")] },
  { fault: "effect-extra-field", fails: [i("effect-shape")] },
  { fault: "observe-not-admitted", fails: [i("effect-admitted")] },
  { fault: "bad-reason-code", fails: [i("reason-code-form")] },
  { fault: "block-after-tool", fails: [i("block-before-tool")] },
  { fault: "replace-before-tool", fails: [i("replace-result-after-tool")] },
  { fault: "double-replace", fails: [i("replace-result-once")] },
  { fault: "replace-without-text", fails: [i("replace-result-text")] },
  { fault: "replace-without-projection", fails: [i("replace-result-needs-projection")] },
  { fault: "empty-block-text", fails: [i("block-text")] },
  { fault: "observe-with-text", fails: [i("text-only-on-block-or-replace")] },
];

export const ROBUSTNESS: FaultCase[] = [
  { fault: "accept-duplicate-keys", fails: [r("rejects-duplicate-keys")] },
  { fault: "accept-trailing-document", fails: [r("rejects-trailing-document")] },
  { fault: "accept-malformed-json", fails: [r("rejects-malformed-json")] },
  { fault: "accept-out-of-bounds", fails: [r("rejects-out-of-bounds")] },
  { fault: "accept-oversized", fails: [r("rejects-oversized-request")] },
  { fault: "accept-deep", fails: [r("rejects-excessive-depth")] },
  { fault: "accept-big-integers", fails: [r("rejects-out-of-range-integer")] },
  { fault: "accept-unknown-fields", fails: [r("rejects-unknown-field")] },
  { fault: "accept-any-api-version", fails: [r("rejects-wrong-api-version")] },
  { fault: "accept-unknown-method", fails: [r("rejects-unknown-method")] },
  { fault: "accept-bad-config", fails: [r("rejects-bad-config")] },
  { fault: "accept-malformed-config-revision", fails: [r("rejects-malformed-config-revision")] },
  { fault: "accept-bad-request-id", fails: [r("rejects-bad-request-id")] },
  { fault: "accept-bad-allowed-effects", fails: [r("rejects-bad-allowed-effects")] },
  { fault: "accept-bad-event-name", fails: [r("rejects-bad-event-name")] },
  { fault: "accept-undeclared-operation", fails: [r("rejects-undeclared-operation")] },
  { fault: "accept-malformed-digest", fails: [r("rejects-malformed-digest")] },
  { fault: "accept-mismatched-digest", fails: [r("rejects-mismatched-digest")] },
  { fault: "accept-result-before-tool", fails: [r("rejects-result-before-tool")] },
  { fault: "hang-on-trailing", fails: [r("no-hang")], options: ["--timeout", "3000"] },
  { fault: "crash-on-deep", fails: [r("no-signal-death")] },
];
