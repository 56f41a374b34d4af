// Offline admission of requested steps against one Provider's evidence (provider-protocol.md,
// "Offline admission" and "PostTool text replacement"). Pure: the command gathers the evidence.
//
// Which rows need Adapter evidence the kit does not have (it is the Host's, from a trusted
// source about the actual runtime): every admitted event/effect pair ("accepted when the
// selected operation AND the Adapter support it"), trusted text replacement with
// result_projection for replace_result, blocking for tool.before on_error: block, and the
// declared withhold_result action for tool.after. Unless `adapter` says otherwise, an admitted
// step is "admitted on the provider side" and lists what the Adapter must also support.
import { chooseOperation, effectAdapterRules, effectReasons, eventReasons, guaranteeReasons, onErrorRules, selectorReasons } from "./admission-rules.js";

/** One operation of a checked describe response. */
export interface DeclaredOperation {
  name: string;
  events: string[];
  effects: string[];
}

/** One requested step, as a configuration would enable it. */
export interface AdmissionStep {
  event: string;
  effects: string[];
  /** The operation the step names; omitted: the first one that takes the event and declares every effect. */
  operation?: string;
  onError?: string;
  guarantee?: string;
  /** Step-level match.tools selectors. */
  tools?: string[];
  /** required: false changes nothing: an enabled unsupported step is still rejected. */
  required?: boolean;
  /** A disabled step needs no evidence and takes no part in the ordering rules. */
  enabled?: boolean;
}

/** What validate_config said about the configuration the step would run with. */
export interface ConfigValidation {
  /** Whether the user gave a configuration (otherwise the kit validated {}). */
  given: boolean;
  accepted: boolean;
  /** Why not accepted: an error_code, or a failed answer. */
  detail?: string;
}

export interface ProviderEvidence {
  /** Operations of a checked describe answered ok; undefined when there is no checked description. */
  operations?: DeclaredOperation[];
  /** Why there is no checked description. */
  describeProblem?: string;
  validation: ConfigValidation;
}

/** Trusted Adapter capabilities, when the caller has them; anything left undefined is reported as an Adapter need. */
export interface AdapterEvidence {
  effects?: Partial<Record<string, readonly string[]>>;
  blocking?: boolean;
  withholdResult?: boolean;
}

export interface StepVerdict {
  /** 1-based position among the requested steps. */
  index: number;
  step: AdmissionStep;
  admitted: boolean;
  /** The operation the step was judged against. */
  operation?: string;
  /** Every reason the step is rejected (empty when admitted). */
  reasons: string[];
  /** What the Adapter must also support (provider-side admission only). */
  adapterNeeds: string[];
  /** Set for a disabled step. */
  note?: string;
}

/** The step as the command line writes it (admission-syntax.ts): EVENT:EFFECT[,EFFECT][@OPERATION][/KEY=VALUE]... */
export function stepLabel(step: AdmissionStep): string {
  const options = [
    step.onError !== undefined ? `/on_error=${step.onError}` : "",
    step.guarantee !== undefined ? `/guarantee=${step.guarantee}` : "",
    step.tools !== undefined ? `/tools=${step.tools.join(",")}` : "",
    step.required !== undefined ? `/required=${step.required}` : "",
  ];
  return `${step.event}:${step.effects.join(",")}${step.operation !== undefined ? `@${step.operation}` : ""}${options.join("")}`;
}

function evidenceReasons(evidence: ProviderEvidence): string[] {
  const reasons: string[] = [];
  if (evidence.operations === undefined) reasons.push(`no checked description: ${evidence.describeProblem ?? "describe was not answered ok"}`);
  const v = evidence.validation;
  if (!v.accepted) {
    const detail = v.detail !== undefined ? ` (${v.detail})` : "";
    reasons.push(
      v.given
        ? `missing configuration validation: validate_config did not accept the given configuration${detail}`
        : `missing configuration validation: no configuration was given and validate_config did not accept {}${detail}: give the Host's configuration with --config-json or --config-file`,
    );
  }
  return reasons;
}

/**
 * "PostTool text replacement": replace_result must be the last enabled step of tool.after; a
 * second replacement, or any enabled step after a replacement, is rejected. Reasons by index.
 */
export function orderingReasons(steps: readonly AdmissionStep[]): Map<number, string[]> {
  const reasons = new Map<number, string[]>();
  const add = (index: number, reason: string): void => {
    reasons.set(index, [...(reasons.get(index) ?? []), reason]);
  };
  const after = steps.map((step, index) => ({ step, index })).filter(({ step }) => step.enabled !== false && step.event === "tool.after");
  const replacing = after.filter(({ step }) => step.effects.includes("replace_result"));
  const first = replacing[0];
  if (first === undefined) return reasons;
  const last = after[after.length - 1];
  if (last !== undefined && last.index !== first.index) {
    add(first.index, `replace_result is not the last enabled tool.after step (step ${last.index + 1} follows it)`);
  }
  for (const { step, index } of after.filter(({ index }) => index > first.index)) {
    add(index, step.effects.includes("replace_result")
      ? `a second replacement: step ${first.index + 1} already requests replace_result on tool.after (one replacement per event)`
      : `an enabled tool.after step after the replacement step ${first.index + 1} is rejected`);
  }
  return reasons;
}

/** Judges every requested step, in order, against the Provider's evidence (and the Adapter's, when known). */
export function admitSteps(evidence: ProviderEvidence, steps: readonly AdmissionStep[], adapter: AdapterEvidence = {}): StepVerdict[] {
  const ordering = orderingReasons(steps);
  const shared = evidenceReasons(evidence);
  return steps.map((step, i): StepVerdict => {
    const index = i + 1;
    if (step.enabled === false) return { index, step, admitted: true, reasons: [], adapterNeeds: [], note: "disabled: a disabled step needs no evidence" };
    const eventProblems = eventReasons(step);
    const reasons = [...eventProblems, ...effectReasons(step)];
    let operation: string | undefined;
    if (eventProblems.length === 0 && evidence.operations !== undefined) {
      const chosen = chooseOperation(step, evidence.operations);
      operation = chosen.operation?.name;
      reasons.push(...chosen.reasons);
    }
    const onError = onErrorRules(step, adapter);
    const effects = effectAdapterRules(step, adapter);
    reasons.push(...ordering.get(i) ?? [], ...onError.reasons, ...guaranteeReasons(step), ...selectorReasons(step), ...shared, ...effects.reasons);
    const unique = [...new Set(reasons)];
    const admitted = unique.length === 0;
    return {
      index,
      step,
      admitted,
      ...(operation !== undefined ? { operation } : {}),
      reasons: unique,
      adapterNeeds: admitted ? [...effects.adapterNeeds, ...onError.adapterNeeds] : [],
    };
  });
}
