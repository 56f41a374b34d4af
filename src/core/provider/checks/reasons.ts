import { invocableOperations, planInvocations, probeTools } from "../plan.js";
import { readResponse, responseObject } from "../response.js";
import type { ProviderExchange, ProviderTranscript } from "../types.js";

/**
 * Skip reasons shared by every clause that could not be judged for the same cause, worded as
 * what the user can add or change. Clauses skipped for one cause carry the very same string,
 * so reports can group them.
 */

/** How a call ended, in a few words: "error_code invalid_config", "exit status 2", "killed at the deadline". */
export function howAnswered(e: ProviderExchange): string {
  const o = e.outcome;
  if (o.spawnError !== undefined) return `could not start: ${o.spawnError.code}`;
  if (o.timedOut) return "killed at the deadline";
  if (o.signal !== null) return `killed by ${o.signal}`;
  if (o.exitCode !== 0) return `exit status ${o.exitCode}`;
  const response = responseObject(e);
  if (response === undefined) return "no response object on stdout";
  const code = typeof response.error_code === "string" ? response.error_code.slice(0, 128) : undefined;
  return response.status === "error" && code !== undefined ? `error_code ${code}` : `status ${JSON.stringify(response.status)}`;
}

const accepted = (e: ProviderExchange | undefined): boolean => e !== undefined && responseObject(e)?.status === "ok";

/** Why the valid configuration is missing: undefined when validate_config accepted it (or was not part of this transcript). */
export function configBlocker(t: ProviderTranscript): string | undefined {
  const validate = t.exchanges.find((e) => e.purpose === "config-valid");
  if (validate === undefined || accepted(validate)) return undefined;
  if (!t.context.configGiven) {
    return `the default configuration {} was rejected by validate_config (${howAnswered(validate)}): give a configuration the Provider accepts with --config-json or --config-file`;
  }
  return `the configuration given with --config-json/--config-file was rejected by validate_config (${howAnswered(validate)}): give one the Provider accepts`;
}

/** Why describe gave nothing to check or invoke: undefined when it was answered ok (or not part of this transcript). */
export function describeBlocker(t: ProviderTranscript): string | undefined {
  const describe = t.exchanges.find((e) => e.purpose === "describe");
  if (describe === undefined || accepted(describe)) return undefined;
  return `describe was not answered ok (${howAnswered(describe)}), so the kit knew no operations to check or invoke: make describe answer ok (see provider/describe/answers-ok)`;
}

/** Why no invocation was answered ok, when the cause lies before the invocations; undefined when one was. */
export function invocationBlocker(t: ProviderTranscript): string | undefined {
  const invocations = t.exchanges.filter((e) => e.method === "invoke" && (e.purpose === "invoke" || e.purpose === "control" || e.purpose === "dialect"));
  if (invocations.some(accepted)) return undefined;
  const config = configBlocker(t);
  if (config !== undefined) return config;
  const notDescribed = describeBlocker(t);
  if (notDescribed !== undefined) return notDescribed;
  const describe = t.exchanges.find((e) => e.purpose === "describe");
  if (describe !== undefined && planInvocations(invocableOperations(readResponse(describe.stdout).object), probeTools(t.context.config)).invocations.length === 0) {
    return "describe declares no operation pairing tool.before or tool.after with an effect the v1alpha1 profile admits, so nothing could be invoked: declare one (see provider/describe/admissible-operation)";
  }
  if (invocations.length === 0) return "no invocation was sent: select a provider/invoke clause (the requests are only sent when a selected clause needs them)";
  return NO_OK_INVOCATION;
}

/** Why the effect clauses judged nothing in a run whose invocations were all refused (a fuzzed request alone says nothing of the configuration: provider-run.ts). */
export const NO_OK_INVOCATION = "no invocation was answered ok, so the kit saw no effects to judge: give a configuration under which the Provider answers invocations ok (see provider/invoke/answers-ok and provider/transport/valid-request-exits-zero)";

export const NO_INVALID_CONFIGS = "no --invalid-config-file was given: add a file of configurations the Provider must reject (a JSON array of objects)";
