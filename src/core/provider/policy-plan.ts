/**
 * Binding policy-test cases to a Provider: which operation takes each case's event, which
 * effects the Host would admit, which configuration goes with it, and the invoke request.
 */
import { KitError } from "../errors.js";
import { scanJson } from "../inputs/json.js";
import { wireJson } from "../json/index.js";
import { describeSchemaErrors, kitSchema } from "../schema.js";
import { configRevision } from "./digest.js";
import type { OperationDecl } from "./plan.js";
import type { CaseConfig, PolicyCase } from "./policy-cases.js";
import { invokeRequest } from "./requests.js";
import { MAX_DEPTH, MAX_MESSAGE_BYTES, PROFILE_EFFECTS, type JsonObject } from "./types.js";

/** A case the kit will send, or one that fails before any invocation (describe broke: the reason says why). */
export type CasePlan =
  | { kind: "invoke"; case: PolicyCase; operation: string; allowedEffects: string[]; config: CaseConfig }
  | { kind: "fail"; case: PolicyCase; reason: string };

const names = (ops: readonly OperationDecl[]): string => ops.map((o) => `${o.name} [${o.events.join(", ")}]`).join("; ");

/** The operation of a case: the one it names, else the only one whose declared events include the case's event; else what is wrong. */
function operationOf(c: PolicyCase, operations: readonly OperationDecl[]): OperationDecl | string {
  if (c.operation !== undefined) {
    const named = operations.find((o) => o.name === c.operation);
    if (named === undefined) return `operation ${c.operation} is not one describe declares (it declares ${names(operations) || "none"})`;
    if (!named.events.includes(c.event)) return `operation ${named.name} does not declare the event ${c.event} (it declares ${named.events.join(", ")}): give event: or operation: that it declares`;
    return named;
  }
  const takers = operations.filter((o) => o.events.includes(c.event));
  if (takers.length === 1 && takers[0] !== undefined) return takers[0];
  if (takers.length === 0) return `no operation describe declares takes the event ${c.event} (it declares ${names(operations) || "none"})`;
  return `${takers.map((o) => o.name).join(" and ")} ${takers.length === 2 ? "both" : "all"} take ${c.event}; give operation: NAME`;
}

/** The effects the Host would admit: the case's own, else what the operation declares within the profile; else what is wrong. */
function effectsOf(c: PolicyCase, operation: OperationDecl): string[] | string {
  if (c.allowedEffects !== undefined) {
    const undeclared = c.allowedEffects.filter((e) => !operation.effects.includes(e));
    if (undeclared.length > 0) return `allowed_effects has ${undeclared.join(", ")}, which operation ${operation.name} does not declare (it declares ${operation.effects.join(", ")}), so no Host admits it`;
    return c.allowedEffects;
  }
  const admitted = operation.effects.filter((e) => PROFILE_EFFECTS[c.event].includes(e));
  if (admitted.length === 0) return `operation ${operation.name} declares no effect the v1alpha1 profile admits at ${c.event} (it declares ${operation.effects.join(", ")}), so no Host invokes it there`;
  return admitted;
}

/** The effect an expected decision needs among allowed_effects (allow and error need none). */
const NEEDS: Partial<Record<PolicyCase["expect"]["decision"], string>> = { observe: "observe", block: "block", replace_result: "replace_result" };

/** A case whose expected decision the request cannot carry: a Provider may only answer effects it was allowed. */
function expectationProblem(c: PolicyCase, allowed: readonly string[]): string | undefined {
  const needed = NEEDS[c.expect.decision];
  if (needed === undefined || allowed.includes(needed)) return undefined;
  return `expects ${c.expect.decision}, but the request allows only ${allowed.join(", ")}, so no protocol-valid answer carries it: add ${needed} to allowed_effects, or expect error`;
}

function planCase(c: PolicyCase, operations: readonly OperationDecl[], defaultConfig: CaseConfig): CasePlan | string {
  const operation = operationOf(c, operations);
  if (typeof operation === "string") return operation;
  const effects = effectsOf(c, operation);
  if (typeof effects === "string") return effects;
  return expectationProblem(c, effects) ?? { kind: "invoke", case: c, operation: operation.name, allowedEffects: effects, config: c.config ?? defaultConfig };
}

/** Case-file mistakes, the first few of them named, as one usage error. */
const SHOWN_PROBLEMS = 5;

/**
 * Plans every case against the operations describe declared. A case the Provider's description
 * cannot take (an operation it does not declare, an event the operation does not take, two
 * operations that take it, effects it does not declare, a decision its allowed effects cannot
 * carry) is a mistake in the case file: one usage error names them all, before any case is sent.
 * `describeFailure` (describe was not answered ok, or its answer broke the protocol) is the
 * Provider's: it fails every case with that reason.
 */
export function planCases(cases: readonly PolicyCase[], operations: readonly OperationDecl[], defaultConfig: CaseConfig, describeFailure?: string): CasePlan[] {
  if (describeFailure !== undefined) return cases.map((c): CasePlan => ({ kind: "fail", case: c, reason: describeFailure }));
  const problems: string[] = [];
  const plans: CasePlan[] = [];
  for (const c of cases) {
    const plan = planCase(c, operations, defaultConfig);
    if (typeof plan === "string") problems.push(`${c.file}: case "${c.name}": ${plan}`);
    else plans.push(plan);
  }
  if (problems.length > 0) {
    const more = problems.length > SHOWN_PROBLEMS ? `; and ${problems.length - SHOWN_PROBLEMS} more case-file mistakes` : "";
    throw new KitError("usage", `${problems.slice(0, SHOWN_PROBLEMS).join("; ")}${more}`);
  }
  return plans;
}

/** The distinct configurations the planned cases use, in first-use order (each is validated once). */
export function configsOf(plans: readonly CasePlan[]): CaseConfig[] {
  const seen = new Map<string, CaseConfig>();
  for (const p of plans) if (p.kind === "invoke" && !seen.has(p.config.document)) seen.set(p.config.document, p.config);
  return [...seen.values()];
}

/** The unbound invoke request of a planned case (the sender binds input_digest). */
export function caseRequest(plan: Extract<CasePlan, { kind: "invoke" }>, index: number, budgetMs: number): JsonObject {
  const c = plan.case;
  const withProjection = c.event === "tool.after" && plan.allowedEffects.includes("replace_result");
  return invokeRequest({
    requestId: `case-${index + 1}`,
    operation: plan.operation,
    configRevision: configRevision(plan.config.document),
    budgetMs,
    allowedEffects: plan.allowedEffects,
    config: plan.config.value,
    event: c.event,
    tool: { name: c.tool, nativeName: c.nativeName, input: c.input, result: c.result, projectionText: c.projection },
    callId: c.callId === undefined ? `call-${index + 1}` : c.callId,
    withProjection,
    ...(c.adapter !== undefined ? { adapter: c.adapter } : {}),
    ...(c.sessionId !== undefined ? { sessionId: c.sessionId } : {}),
    ...(c.native !== undefined ? { native: c.native } : {}),
  });
}

/**
 * A case's request must be one a Host could send: within the request schema, 1 MiB and 32
 * levels. A case that makes it otherwise is a mistake in the case file (usage error), never
 * something to hold against the Provider.
 */
export function checkCaseRequest(request: JsonObject, c: PolicyCase): void {
  const bytes = new TextEncoder().encode(wireJson(request));
  const where = `${c.file}: case "${c.name}"`;
  if (bytes.length > MAX_MESSAGE_BYTES) throw new KitError("usage", `${where}: its request would be ${bytes.length} bytes, over the protocol's 1 MiB`);
  const scan = scanJson(bytes, MAX_DEPTH);
  if (scan.deepAt !== -1) throw new KitError("usage", `${where}: its request would nest deeper than the protocol's ${MAX_DEPTH} levels`);
  const validate = kitSchema("provider/request.schema.json");
  if (!validate(request)) throw new KitError("usage", `${where}: its request would not match the request schema (${describeSchemaErrors(validate.errors)})`);
}
