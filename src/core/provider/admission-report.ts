import type { ProviderEvidence, StepVerdict } from "./admission.js";
import { stepLabel } from "./admission.js";
import type { ProtocolFailure } from "./admission-evidence.js";

/** What `awp-conformance admit --json` prints: plain data, documented in the README. */
export interface AdmissionReport {
  command: "admit";
  candidate: string[];
  /** True only when every step is admitted (on the provider side) and both answers passed the protocol checks. */
  admitted: boolean;
  describe: { checked: boolean; problem?: string; operations: { name: string; events: string[]; effects: string[] }[] };
  configuration: { given: boolean; accepted: boolean; detail?: string };
  /** Clauses the describe or validate_config answer failed (the same checks as `run`). */
  protocolFailures: { clause: string; message: string }[];
  steps: {
    index: number;
    step: string;
    event: string;
    effects: string[];
    operation?: string;
    admitted: boolean;
    reasons: string[];
    /** Admitted on the provider side; the Adapter must also support these (the kit cannot see Adapter evidence). */
    adapterNeeds: string[];
  }[];
}

export function admissionReport(candidate: string[], evidence: ProviderEvidence, protocolFailures: readonly ProtocolFailure[], verdicts: readonly StepVerdict[]): AdmissionReport {
  return {
    command: "admit",
    candidate,
    admitted: protocolFailures.length === 0 && verdicts.length > 0 && verdicts.every((v) => v.admitted),
    describe: {
      checked: evidence.operations !== undefined,
      ...(evidence.describeProblem !== undefined ? { problem: evidence.describeProblem } : {}),
      operations: evidence.operations ?? [],
    },
    configuration: { ...evidence.validation },
    protocolFailures: protocolFailures.map(({ clause, message }) => ({ clause, message })),
    steps: verdicts.map((v) => ({
      index: v.index,
      step: stepLabel(v.step),
      event: v.step.event,
      effects: v.step.effects,
      ...(v.operation !== undefined ? { operation: v.operation } : {}),
      admitted: v.admitted,
      reasons: v.reasons,
      adapterNeeds: v.adapterNeeds,
    })),
  };
}

/** The console form: the evidence, then one block per step, then the count. */
export function renderAdmission(report: AdmissionReport): string {
  const lines: string[] = [`admit ${report.candidate.join(" ")}`];
  const d = report.describe;
  lines.push(
    d.checked
      ? `  describe: ${d.operations.map((op) => `${op.name} [${op.events.join(", ")}: ${op.effects.join(", ")}]`).join("; ")}`
      : `  describe: no checked description: ${d.problem ?? "not answered ok"}`,
  );
  const c = report.configuration;
  const which = c.given ? "the given configuration" : "{} (no configuration given)";
  lines.push(`  validate_config: ${c.accepted ? `accepted ${which}` : `did not accept ${which}${c.detail !== undefined ? `: ${c.detail}` : ""}`}`);
  for (const f of report.protocolFailures) lines.push(`  protocol: fails ${f.clause}: ${f.message}`);
  lines.push("");
  for (const s of report.steps) {
    const head = `step ${s.index} ${s.step}`;
    if (s.admitted) {
      lines.push(`${head}: admitted${s.operation !== undefined ? ` (operation ${s.operation})` : ""}`);
      if (s.adapterNeeds.length > 0) lines.push(`    admitted on the provider side; the Adapter must also support ${s.adapterNeeds.join("; ")}`);
    } else {
      for (const [i, reason] of s.reasons.entries()) lines.push(i === 0 ? `${head}: rejected: ${reason}` : `${" ".repeat(head.length)}  rejected: ${reason}`);
    }
  }
  const admitted = report.steps.filter((s) => s.admitted).length;
  lines.push("", `${admitted} of ${report.steps.length} steps admitted${report.protocolFailures.length > 0 ? `; the answers failed ${report.protocolFailures.length} protocol clause${report.protocolFailures.length === 1 ? "" : "s"}` : ""}`);
  return `${lines.join("\n")}\n`;
}
