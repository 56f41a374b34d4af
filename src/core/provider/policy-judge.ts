/**
 * Judging policy-test cases: first the same protocol checks as `run` over every exchange
 * (a case never passes on a protocol-invalid response), then the decision of each case.
 */
import type { ClauseResult, Finding } from "../report/types.js";
import { exchangeEvidence, exchangeWire } from "./checks/helpers.js";
import { judgeProviderTranscript } from "./judge.js";
import { compareDecision, describeExpectation } from "./policy-compare.js";
import type { PolicyCase } from "./policy-cases.js";
import type { CasePlan } from "./policy-plan.js";
import { howAnswered } from "./checks/reasons.js";
import { responseObject } from "./response.js";
import type { ProviderExchange, ProviderTranscript } from "./types.js";

export interface PolicyRecord {
  transcript: ProviderTranscript;
  describe?: ProviderExchange;
  plans: CasePlan[];
  /** validate_config exchanges by configuration document. */
  validations: Map<string, ProviderExchange>;
  /** The invocation of each planned case, by case index. */
  invocations: Map<number, ProviderExchange>;
  /** Why the kit stopped before sending every case (--run-timeout). */
  halted?: string;
}

interface Broken {
  clause: string;
  finding: Finding;
}

export interface PolicyJudgement {
  results: ClauseResult[];
  /** SHOULD/MAY protocol findings on the cases' exchanges: reported, not failed. */
  notes: string[];
}

/**
 * Clauses of `run` that are no protocol rule for a policy test: run declares its configuration
 * valid and holds a refusal against the Provider; a case's configuration is the case's own, and
 * the Provider refusing it is the case's outcome (validationProblem), not a protocol breach.
 */
const NOT_PROTOCOL_HERE = new Set(["provider/validate-config/accepts-valid-config"]);

/** MUST failures and the other failures of the protocol checks, by request id. */
function protocolFailures(transcript: ProviderTranscript): { must: Map<string, Broken[]>; other: Map<string, Broken[]> } {
  const must = new Map<string, Broken[]>();
  const other = new Map<string, Broken[]>();
  for (const result of judgeProviderTranscript(transcript, (id) => !NOT_PROTOCOL_HERE.has(id)).results) {
    if (result.status !== "fail") continue;
    const into = result.level === "MUST" ? must : other;
    for (const finding of result.findings) {
      if (finding.requestId === undefined) continue;
      const list = into.get(finding.requestId) ?? [];
      list.push({ clause: result.id, finding });
      into.set(finding.requestId, list);
    }
  }
  return { must, other };
}

function entry(c: PolicyCase, status: ClauseResult["status"], findings: Finding[] = [], reason?: string): ClauseResult {
  return { id: c.id, level: "MUST", title: c.name, status, judged: status === "skip" ? 0 : 1, findings, ...(reason !== undefined ? { reason } : {}) };
}

function caseFinding(c: PolicyCase, message: string, exchange?: ProviderExchange, extra: Partial<Finding> = {}): Finding {
  return {
    clause: c.id,
    message,
    scenario: c.name,
    expected: describeExpectation(c.expect),
    ...(exchange !== undefined ? { requestId: exchange.requestId, evidence: exchangeEvidence(exchange), wire: exchangeWire(exchange) } : {}),
    ...extra,
  };
}

/** The protocol findings of an exchange, restated for the case that sent it. */
function brokenFindings(c: PolicyCase, exchange: ProviderExchange, broken: readonly Broken[], what: string): Finding[] {
  return broken.map((b) => ({
    ...b.finding,
    clause: c.id,
    scenario: c.name,
    message: `${what} breaks ${b.clause}: ${b.finding.message}`,
    requestId: exchange.requestId,
  }));
}

/** The answer as the Provider wrote it, for quoting: one line, at most 300 characters. */
function quoted(exchange: ProviderExchange): string {
  const text = Buffer.from(exchange.stdout.subarray(0, 600)).toString("utf8").trim().replace(/\s*\n\s*/g, " ");
  if (text === "") return `nothing on stdout (${howAnswered(exchange)})`;
  return text.length > 300 || exchange.stdout.length > 600 ? `${text.slice(0, 300)}…` : text;
}

/** Why a case cannot be invoked with its configuration: the answer broke the protocol, or the Provider refused the configuration. */
function validationProblem(validation: ProviderExchange | undefined, must: Map<string, Broken[]>): { message: string; seen?: string } | undefined {
  if (validation === undefined) return undefined;
  if ((must.get(validation.requestId) ?? []).length > 0) return { message: "the validate_config answer for the case's configuration breaks the protocol" };
  const answer = responseObject(validation);
  if (answer?.status === "ok") return undefined;
  const code = answer?.status === "error" && typeof answer.error_code === "string" ? ` with error_code ${answer.error_code}` : "";
  const message = `the Provider refused the case's configuration (validate_config answered${code || ` ${howAnswered(validation)}`}), so no Host would invoke with it: give a configuration the Provider accepts (config: in the case or the file, or --config-json/--config-file)`;
  return { message, seen: quoted(validation) };
}

function judgeCase(record: PolicyRecord, plan: CasePlan, index: number, must: Map<string, Broken[]>): ClauseResult {
  const c = plan.case;
  if (plan.kind === "fail") return entry(c, "fail", [caseFinding(c, plan.reason, record.describe)]);
  const validation = record.validations.get(plan.config.document);
  const refused = validationProblem(validation, must);
  if (refused !== undefined && validation !== undefined) {
    const seen = refused.seen !== undefined ? { seen: refused.seen } : {};
    return entry(c, "fail", [caseFinding(c, refused.message, validation, seen), ...brokenFindings(c, validation, must.get(validation.requestId) ?? [], "the validate_config answer")]);
  }
  const exchange = record.invocations.get(index);
  if (exchange === undefined) return entry(c, "skip", [], record.halted ?? "the kit did not send this case");
  const answer = responseObject(exchange);
  const comparison = answer !== undefined ? compareDecision(c.expect, answer) : undefined;
  const broken = must.get(exchange.requestId) ?? [];
  if (broken.length > 0) {
    const decision = comparison === undefined ? "" : comparison.ok ? " (its decision matches, but a policy test never passes on a protocol-invalid response)" : ` (and its decision differs: ${comparison.difference})`;
    return entry(c, "fail", brokenFindings(c, exchange, broken, `the response${decision}`));
  }
  if (comparison === undefined) return entry(c, "fail", [caseFinding(c, "the Provider gave no response object to judge", exchange)]);
  if (comparison.ok) return entry(c, "pass");
  return entry(c, "fail", [caseFinding(c, comparison.difference ?? "the decision differs", exchange, { seen: comparison.seen })]);
}

/** One result per case, in case order, each judged on its own exchange. */
export function judgePolicyCases(record: PolicyRecord): PolicyJudgement {
  const { must, other } = protocolFailures(record.transcript);
  const results = record.plans.map((plan, index) => judgeCase(record, plan, index, must));
  const notes: string[] = [];
  record.plans.forEach((plan, index) => {
    const exchange = record.invocations.get(index);
    for (const b of exchange !== undefined ? (other.get(exchange.requestId) ?? []) : []) {
      notes.push(`Case "${plan.case.name}": the response also fails ${b.clause} (${b.finding.message}).`);
    }
  });
  return { results, notes };
}

/** Why no case can be judged against this describe answer: not answered ok, or a MUST protocol failure. */
export function describeProblem(transcript: ProviderTranscript, describe: ProviderExchange): string | undefined {
  const alone: ProviderTranscript = { ...transcript, exchanges: [describe] };
  const broken = judgeProviderTranscript(alone).results.filter((r) => r.status === "fail" && r.level === "MUST").map((r) => r.id);
  if (broken.length > 0) return `the describe answer breaks the protocol (${broken.join(", ")}), so no Host would admit the Provider: run \`awp-conformance run\` on it first`;
  const answer = responseObject(describe);
  if (answer?.status !== "ok") return `describe was not answered ok${answer?.status === "error" ? ` (error_code ${String(answer.error_code)})` : ""}, so no Host would admit the Provider`;
  return undefined;
}
