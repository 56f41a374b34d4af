/**
 * Which generated cases a host could send to both providers. A host invokes only an operation a
 * provider declared, on an event it declared, admitting effects it declared: a case built from
 * the candidate's description that the other provider does not declare would be refused by the
 * other for that reason alone, a difference no host would ever see. Such cases are not sent to
 * the other side (counted as not compared); the difference in the descriptions is reported once,
 * on the fixed describe call.
 */
import { invocableOperations, type OperationDecl } from "../../core/provider/plan.js";
import { readResponse } from "../../core/provider/response.js";
import type { JsonObject, ProviderTranscript } from "../../core/provider/types.js";
import type { ProviderCase } from "../types.js";

/** The operations a provider's describe answer declares (none when it did not answer ok). */
export function declaredOperations(describe: ProviderTranscript): OperationDecl[] {
  const exchange = describe.exchanges.find((e) => e.method === "describe");
  if (exchange === undefined || exchange.outcome.exitCode !== 0) return [];
  const response = readResponse(exchange.stdout).object;
  return response?.status === "ok" ? invocableOperations(response) : [];
}

/** The invocation a case stands on: a valid case's request, a hostile case's well-formed base. */
function invocationOf(c: ProviderCase): JsonObject | undefined {
  const request = c.kind === "valid" ? c.value : c.base?.value;
  return request?.method === "invoke" ? request : undefined;
}

/** Whether the provider that declared `operations` could be sent this case by a host (describe, validate_config and cases not built on an invocation: yes). */
export function sendableTo(c: ProviderCase, operations: readonly OperationDecl[]): boolean {
  const request = invocationOf(c);
  if (request === undefined) return true;
  const declared = operations.find((op) => op.name === request.operation);
  if (declared === undefined) return false;
  const event = request.event !== null && typeof request.event === "object" && !Array.isArray(request.event) ? request.event.name : undefined;
  if (typeof event !== "string" || !declared.events.includes(event)) return false;
  const effects = Array.isArray(request.allowed_effects) ? request.allowed_effects : [];
  return effects.every((e) => typeof e === "string" && declared.effects.includes(e));
}
