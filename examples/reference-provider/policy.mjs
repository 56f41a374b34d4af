// policy.mjs: the sample policy, applied to a request that already passed
// every protocol check (strict JSON, envelope shape, admission, digest).
//
// From here on every answer is a structured response with exit status 0,
// including errors: a response with status "error" is the provider saying
// "I could not decide", which the host treats as a provider failure, never as
// a block. Responses carry exactly the fields the response schema allows:
//   describe        api_version, request_id, status "ok", operations
//   validate_config api_version, request_id, status "ok"
//   invoke          api_version, request_id, status "ok", input_digest (echoed), effects
//   any error       api_version, request_id, status "error", error_code
//
// Private configuration (the provider owns this schema; the host does not):
//   { "blocked_tools": [non-empty strings], "redact_terms"?: [non-empty strings] }
// Any other key, or any other type, makes the configuration invalid.

import { API_VERSION, isObject } from "./request.mjs";

/** What `describe` declares; the host admits nothing beyond this. */
export const OPERATIONS = [
  // Blocks listed tools before they run; otherwise just observes the call.
  { name: "check", events: ["tool.before", "tool.after"], effects: ["observe", "block"] },
  // Replaces configured secrets in the text view of a finished tool's result.
  { name: "redact", events: ["tool.after"], effects: ["observe", "replace_result"] },
];

const REDACTED = "[redacted]";

/** Returns the parsed configuration, or null when it is invalid. */
export function readConfig(config) {
  if (!isObject(config)) return null;
  for (const key of Object.keys(config)) {
    if (key !== "blocked_tools" && key !== "redact_terms") return null;
  }
  if (!isNameList(config.blocked_tools)) return null;
  const hasTerms = Object.hasOwn(config, "redact_terms");
  if (hasTerms && !isNameList(config.redact_terms)) return null;
  return { blockedTools: config.blocked_tools, redactTerms: hasTerms ? config.redact_terms : [] };
}

function isNameList(value) {
  return Array.isArray(value) && value.every((item) => typeof item === "string" && item !== "");
}

/**
 * True once the invocation's budget_ms has run out. The budget is the time the host gives the
 * call, counted from its start, process start-up included; `elapsed` is the milliseconds since
 * this process started (performance.now() counts from it).
 */
function budgetSpent(request, elapsed) {
  const budget = Number(request.budget_ms?.value ?? request.budget_ms);
  return Number.isFinite(budget) && elapsed() > budget;
}

/**
 * Builds the one response object for a valid request. `elapsed` tells the milliseconds since
 * the process started (a parameter so a test can stand in for the clock).
 */
export function respond(request, elapsed = () => performance.now()) {
  const envelope = { api_version: API_VERSION, request_id: request.request_id };
  const failure = (errorCode) => ({ ...envelope, status: "error", error_code: errorCode });

  if (request.method === "describe") return { ...envelope, status: "ok", operations: OPERATIONS };
  if (request.method === "validate_config") {
    return readConfig(request.config) ? { ...envelope, status: "ok" } : failure("invalid_config");
  }

  // invoke: the configuration must be valid, and the operation must exist and
  // declare this event (the host should never ask otherwise, but a provider
  // must not trust that).
  const config = readConfig(request.config);
  const operation = OPERATIONS.find((candidate) => candidate.name === request.operation);
  if (config === null || operation === undefined || !operation.events.includes(request.event.name)) {
    return failure("invalid_operation_or_config");
  }
  const decide = operation.name === "check" ? check : redact;
  const outcome = decide(request.event, request.allowed_effects, config);
  if (outcome.errorCode !== undefined) return failure(outcome.errorCode);
  // A decision made after the budget ran out is one the host no longer waits for: say so
  // (deadline_exceeded, as upstream providers do) instead of answering ok late.
  if (budgetSpent(request, elapsed)) return failure("deadline_exceeded");
  // Echo input_digest byte for byte: it binds this answer to that exact request.
  return { ...envelope, status: "ok", input_digest: request.input_digest, effects: outcome.effects };
}

// Effects may only use types listed in allowed_effects. A block the policy
// wants but may not return is an error, not a silent allow.
function check(event, allowed, config) {
  const tool = event.tool.native_name;
  if (event.name === "tool.before" && config.blockedTools.includes(tool)) {
    if (!allowed.includes("block")) return { errorCode: "block_not_admitted" };
    const block = { type: "block", reason_code: "tool_policy", text: `${tool} is blocked by the configured policy` };
    return { effects: [block] };
  }
  return { effects: observe(allowed, "tool_seen") };
}

// At most one replace_result, and only when the adapter supplied the text
// view (result_projection) that the replacement stands in for.
function redact(event, allowed, config) {
  const projection = Object.hasOwn(event.tool, "result_projection") ? event.tool.result_projection : null;
  const terms = config.redactTerms;
  if (allowed.includes("replace_result") && projection !== null &&
      terms.some((term) => projection.text.includes(term))) {
    return { effects: [{ type: "replace_result", text: redactText(projection.text, terms) }] };
  }
  return { effects: observe(allowed, "result_seen") };
}

function observe(allowed, reasonCode) {
  return allowed.includes("observe") ? [{ type: "observe", reason_code: reasonCode }] : [];
}

// One left-to-right pass, longest term first at each position, so text that
// was already replaced is never scanned again (a term such as "act" cannot
// eat into an earlier "[redacted]").
function redactText(text, terms) {
  const alternatives = [...terms]
    .sort((a, b) => b.length - a.length)
    .map((term) => term.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
  return text.replace(new RegExp(alternatives.join("|"), "g"), REDACTED);
}
