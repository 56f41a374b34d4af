import type { ClauseResult } from "../report/types.js";
import type { DeclaredOperation, ProviderEvidence } from "./admission.js";
import { howAnswered } from "./checks/reasons.js";
import { judgeProviderTranscript } from "./judge.js";
import { responseObject } from "./response.js";
import type { ProviderExchange, ProviderTranscript } from "./types.js";

/**
 * Clauses whose failure is an admission fact rather than a malformed answer: a describe not
 * answered ok (no checked description), a description with nothing the profile can run (each
 * step then says why), and a configuration the Provider refused (missing validation evidence).
 */
export const ADMISSION_DECIDED: readonly string[] = [
  "provider/describe/answers-ok",
  "provider/describe/admissible-operation",
  "provider/validate-config/accepts-valid-config",
];

export interface ProtocolFailure {
  clause: string;
  message: string;
  /** The request ids the findings name (none: the failure concerns the whole session). */
  requestIds: string[];
}

export interface GatheredEvidence {
  evidence: ProviderEvidence;
  /** Failed clauses of the describe and validate_config answers: the answers are not checked evidence. */
  protocolFailures: ProtocolFailure[];
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

function operationsOf(describe: ProviderExchange): DeclaredOperation[] {
  const ops = responseObject(describe)?.operations;
  return (Array.isArray(ops) ? ops : []).flatMap((op) =>
    op !== null && typeof op === "object" && !Array.isArray(op) && typeof op.name === "string" ? [{ name: op.name, events: strings(op.events), effects: strings(op.effects) }] : [],
  );
}

/** Failed clauses, other than the admission-decided ones, judged on the transcript's exchanges. */
export function protocolFailuresOf(results: readonly ClauseResult[]): ProtocolFailure[] {
  return results
    .filter((r) => r.status === "fail" && !ADMISSION_DECIDED.includes(r.id))
    .map((r) => ({
      clause: r.id,
      message: r.findings[0]?.message ?? r.title,
      requestIds: [...new Set(r.findings.flatMap((f) => (f.requestId !== undefined ? [f.requestId] : [])))],
    }));
}

/**
 * The Provider's evidence from a transcript of describe and validate_config (purposes
 * "describe" and "config-valid"), each answer judged with the same checks as `run`. A
 * description counts only when describe answered ok and passed every protocol check; a
 * validation only when validate_config answered ok and passed them.
 */
export function gatherEvidence(transcript: ProviderTranscript): GatheredEvidence {
  const describe = transcript.exchanges.find((e) => e.purpose === "describe");
  const validate = transcript.exchanges.find((e) => e.purpose === "config-valid");
  const protocolFailures = protocolFailuresOf(judgeProviderTranscript(transcript).results);
  // Transport and envelope clauses judge both answers: a failure counts against the answer its findings name (both when they name none).
  const against = (e: ProviderExchange | undefined, area: string): ProtocolFailure[] =>
    protocolFailures.filter((f) => f.clause.startsWith(area) || (e !== undefined && f.requestIds.includes(e.requestId)) || (f.requestIds.length === 0 && !f.clause.startsWith("provider/describe/") && !f.clause.startsWith("provider/validate-config/")));
  const describeFailures = against(describe, "provider/describe/");
  const validateFailures = against(validate, "provider/validate-config/");

  const evidence: ProviderEvidence = { validation: { given: transcript.context.configGiven, accepted: false } };
  if (describe === undefined) evidence.describeProblem = "describe was not sent";
  else if (responseObject(describe)?.status !== "ok") evidence.describeProblem = `describe was not answered ok (${howAnswered(describe)})`;
  else if (describeFailures.length > 0) evidence.describeProblem = `the describe answer failed ${describeFailures.map((f) => f.clause).join(", ")}`;
  else evidence.operations = operationsOf(describe);

  if (validate === undefined) evidence.validation.detail = "validate_config was not sent";
  else if (responseObject(validate)?.status !== "ok") evidence.validation.detail = howAnswered(validate);
  else if (validateFailures.length > 0) evidence.validation.detail = `the answer failed ${validateFailures.map((f) => f.clause).join(", ")}`;
  else evidence.validation.accepted = true;
  return { evidence, protocolFailures };
}
