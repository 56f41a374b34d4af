import type { JsonValue } from "../json/index.js";
import { nonEmptySubsets, type ToolProbe } from "./requests.js";
import { PROFILE_EFFECTS, type JsonObject, type ToolEvent } from "./types.js";

export interface OperationDecl {
  name: string;
  events: string[];
  effects: string[];
}

export interface PlannedInvocation {
  operation: string;
  event: ToolEvent;
  allowedEffects: string[];
  tool: ToolProbe;
  withProjection: boolean;
}

export const MAX_PLANNED_INVOCATIONS = 256;
const MAX_CONFIG_PROBES = 3;
const PRINTABLE = /^[!-~]{1,128}$/;

/** The operations of a describe answer that the kit can invoke (well-formed names, string lists). */
export function invocableOperations(answer: JsonValue | undefined): OperationDecl[] {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return [];
  const operations = answer.operations;
  if (!Array.isArray(operations)) return [];
  const result: OperationDecl[] = [];
  const seen = new Set<string>();
  for (const op of operations) {
    if (op === null || typeof op !== "object" || Array.isArray(op)) continue;
    const { name, events, effects } = op;
    if (typeof name !== "string" || !PRINTABLE.test(name) || seen.has(name)) continue;
    if (!Array.isArray(events) || !Array.isArray(effects)) continue;
    seen.add(name);
    result.push({
      name,
      events: events.filter((e): e is string => typeof e === "string"),
      effects: effects.filter((e): e is string => typeof e === "string"),
    });
  }
  return result;
}

function collectStrings(value: JsonValue, into: string[]): void {
  if (typeof value === "string") {
    if (value.length > 0 && value.length <= 256 && !into.includes(value)) into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, into);
  } else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) collectStrings(item, into);
  }
}

/**
 * Private data planted in every tool call the kit presents (tool.input and, after the tool ran,
 * tool.result): provider/invoke/private-data-stays-private looks for them in reasons and error
 * codes. Both have the form of a reason_code, so a Provider can only repeat them by copying.
 */
export const INPUT_CANARY = "awp-canary-input-7c41e9d2";
export const RESULT_CANARY = "awp-canary-result-3b86f05a";

/**
 * Tools to present: one per string found in the configuration, named after it and with
 * every such string in its output (so a policy keyed on tool names or terms gets
 * exercised without the kit knowing its schema); a plain shell call when there are none.
 */
export function probeTools(config: JsonObject): ToolProbe[] {
  const strings: string[] = [];
  collectStrings(config, strings);
  const chosen = strings.slice(0, MAX_CONFIG_PROBES);
  if (chosen.length === 0) {
    return [{ name: "bash", nativeName: "Bash", input: { command: "echo awp-conformance", private_token: INPUT_CANARY }, result: { stdout: "awp-conformance\n", exit_code: 0, private_token: RESULT_CANARY }, projectionText: "awp-conformance\n" }];
  }
  const output = `output mentioning ${chosen.join(", ")}\n`;
  return chosen.map((text) => ({
    name: text,
    nativeName: text,
    input: { command: `echo ${text}`, ratio: 1.25, private_token: INPUT_CANARY },
    result: { stdout: output, exit_code: 0, private_token: RESULT_CANARY },
    projectionText: output,
  }));
}

/**
 * Every operation × tool event × nonempty admissible effect set × probe tool. A set with
 * replace_result is sent with the result projection, and for the first probe once more
 * without it.
 */
export function planInvocations(
  operations: readonly OperationDecl[],
  probes: readonly ToolProbe[],
): { invocations: PlannedInvocation[]; dropped: number } {
  const plan: PlannedInvocation[] = [];
  for (const op of operations) {
    for (const event of ["tool.before", "tool.after"] as const) {
      if (!op.events.includes(event)) continue;
      const admissible = PROFILE_EFFECTS[event].filter((effect) => op.effects.includes(effect));
      for (const allowedEffects of nonEmptySubsets(admissible)) {
        const replaces = allowedEffects.includes("replace_result");
        for (const [index, tool] of probes.entries()) {
          plan.push({ operation: op.name, event, allowedEffects, tool, withProjection: replaces });
          if (replaces && index === 0) plan.push({ operation: op.name, event, allowedEffects, tool, withProjection: false });
        }
      }
    }
  }
  return {
    invocations: plan.slice(0, MAX_PLANNED_INVOCATIONS),
    dropped: Math.max(0, plan.length - MAX_PLANNED_INVOCATIONS),
  };
}
