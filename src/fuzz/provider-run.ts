import { providerChecks } from "../core/provider/checks/index.js";
import { loadCatalogue } from "../core/clauses/catalogue.js";
import { judgeClauses } from "../core/report/judge.js";
import { NO_OK_INVOCATION } from "../core/provider/checks/reasons.js";
import { gotFurther, refusedForBinding, responseObject } from "../core/provider/response.js";
import type { JsonObject, ProviderExchange, ProviderTranscript } from "../core/provider/types.js";
import type { ClauseResult, Finding } from "../core/report/types.js";
import { interrupted, untilInterrupted } from "../core/interrupt.js";
import { callProvider, type ProviderCall } from "../runner/provider/call.js";
import { CaseStream, type CaseSource } from "./cases.js";
import { hostileKinds, providerCaseArb } from "./provider/index.js";
import { ProviderCoverage } from "./provider/coverage.js";
import type { CoverageSummary, FuzzBudget, FuzzFailure, FuzzProgressHook, ProviderCase, ProviderFuzzContext } from "./types.js";
import { shrinkFailures } from "./provider-shrink.js";
import { DEFAULT_DIGEST_DIALECT, DIGEST_DIALECTS, type DigestDialectId } from "../core/json/index.js";
import { dialectSensitive } from "../core/provider/digest.js";
import { inDialect } from "./provider/dialect.js";
import { ClauseTally, type TallyData } from "./tally.js";

/**
 * Clauses that need a request fuzzing never sends: one with whitespace around it, a describe or
 * config call (terminates: every generated request is an invocation, judged by within-budget),
 * an invocation carrying the kit's planted private values, the accepted invocation resent with
 * a budget_ms no process meets (tight-budget: generated invocations carry the run's --budget).
 */
const NEVER_FUZZED: readonly string[] = ["provider/transport/request-whitespace", "provider/transport/terminates", "provider/invoke/private-data-stays-private", "provider/transport/tight-budget"];

/** Clauses one fuzzed request can break (aggregate and method-level clauses, and the dialect probe, need the fixed suite). */
export const FUZZ_PROVIDER_CLAUSES: readonly string[] = loadCatalogue("provider")
  .map((c) => c.id)
  .filter((id) => /^provider\/(transport|envelope|robustness)\//.test(id) || (id.startsWith("provider/invoke/") && id !== "provider/invoke/answers-ok" && id !== "provider/invoke/digest-dialects"))
  .filter((id) => !NEVER_FUZZED.includes(id));

export interface ProviderTarget {
  argv: string[];
  config: JsonObject;
  /** Deadline of every call (default budget + 1000). */
  timeoutMs: number;
  env?: Record<string, string>;
  /** The digest dialect the Provider verifies, when the fixed suite found it (default: the kit's). */
  dialect?: DigestDialectId;
}

/** The findings one case produces: its base first (the control of a hostile case), then the case. */
export async function evaluateProviderCase(c: ProviderCase, target: ProviderTarget, call: ProviderCall = callProvider): Promise<Finding[]> {
  return findingsOf(judgeProviderCase(await runProviderCase(c, target, call)));
}

/**
 * Sends a case's requests (a hostile case's well-formed base first) and returns what came back.
 * The first request is on its way when this returns its promise.
 */
export async function runProviderCase(c: ProviderCase, target: ProviderTarget, call: ProviderCall = callProvider): Promise<ProviderTranscript> {
  const exchanges: ProviderExchange[] = [];
  const send = async (item: ProviderCase, controlSeq?: number): Promise<ProviderExchange> => {
    const { outcome, stdout, stderr } = await call(target.argv, item.bytes, { timeoutMs: target.timeoutMs, ...(target.env ? { env: target.env } : {}) });
    const exchange: ProviderExchange = {
      seq: exchanges.length + 1,
      scenario: `fuzz: ${item.label}`,
      purpose: item.purpose,
      method: item.method,
      requestId: item.requestId,
      request: item.bytes,
      timeoutMs: target.timeoutMs,
      outcome,
      stdout,
      stderr,
      foundBy: "fuzz",
      ...(item.value ? { requestValue: item.value } : {}),
      ...(item.budgetMs !== undefined ? { budgetMs: item.budgetMs } : {}),
      ...(controlSeq !== undefined ? { controlSeq } : {}),
    };
    exchanges.push(exchange);
    return exchange;
  };
  const ok = (e: ProviderExchange): boolean => responseObject(e)?.status === "ok";
  /**
   * Sends a well-formed invocation; refused, and bound differently by the dialects, it goes again
   * in each other dialect. Returns the answer that counts and the dialect it was bound in. A
   * resend that gets no further than the first answer (which may have been a policy error, not a
   * refusal) is the same request bound in a dialect the Provider need not verify: it is marked
   * as a dialect refusal and not judged as a well-formed request again.
   */
  const sendValid = async (item: ProviderCase, dialect: DigestDialectId): Promise<[ProviderExchange, DigestDialectId]> => {
    const first = await send(inDialect(item, dialect));
    if (ok(first) || item.method !== "invoke" || !dialectSensitive(first.request)) return [first, dialect];
    for (const other of DIGEST_DIALECTS.filter((d) => d.id !== dialect)) {
      const retry = await send(inDialect(item, other.id));
      if (gotFurther(retry, first)) {
        first.dialectRefused = true;
        return [retry, other.id];
      }
      if (refusedForBinding(retry, first)) retry.dialectRefused = true;
    }
    return [first, dialect];
  };
  const dialect = target.dialect ?? DEFAULT_DIGEST_DIALECT;
  if (c.base === undefined) {
    await (c.kind === "valid" ? sendValid(c, dialect) : send(inDialect(c, dialect)));
  } else {
    const [control, used] = await sendValid(c.base, dialect);
    // A hostile case only means something when its well-formed base was answered ok.
    if (ok(control)) await send(inDialect(c, used), control.seq);
  }
  return { argv: target.argv, context: { config: target.config, configGiven: true, invalidConfigsGiven: 0, secrets: [], notes: [] }, exchanges };
}

const FUZZED = new Set(FUZZ_PROVIDER_CLAUSES);

/** One case's transcript judged on the clauses a fuzzed request can break: every such clause's result. */
export function judgeProviderCase(transcript: ProviderTranscript): ClauseResult[] {
  return judgeClauses(loadCatalogue("provider"), providerChecks, transcript, (id) => FUZZED.has(id)).results;
}

const PROBE = /^provider\/robustness\/rejects-(.+)$/;

/**
 * A generated (or corpus) case's results, for the campaign's tally: a rejects-KIND clause the
 * case did not probe was not judged because the case was of another kind, whatever the check
 * says of a request without that probe.
 */
export function caseResults(c: ProviderCase, transcript: ProviderTranscript): ClauseResult[] {
  return judgeProviderCase(transcript).map((r) => {
    // One generated request refused says nothing of the configuration (it may be hostile, or the policy's own error answer): it showed no effects, that is all.
    if (r.status === "skip" && r.reason === NO_OK_INVOCATION) return { id: r.id, level: r.level, title: r.title, status: "not-applicable", reason: "its invocation was not answered ok, so it showed no effects", judged: 0, findings: [] };
    const kind = PROBE.exec(r.id)?.[1];
    if (kind === undefined || r.status === "pass" || r.status === "fail" || c.purpose === `hostile:${kind}`) return r;
    return { id: r.id, level: r.level, title: r.title, status: "skip", reason: `no generated case was a hostile ${kind} probe (more --fuzz-runs make one likely)`, judged: 0, findings: [] };
  });
}

/** The findings of a case's results, in catalogue order. */
export function findingsOf(results: readonly ClauseResult[]): Finding[] {
  return results.flatMap((r) => r.findings);
}

export { MAX_SHRINK_CASES } from "./provider-shrink.js";

export interface ProviderFuzzResult {
  cases: number;
  calls: number;
  failures: FuzzFailure[];
  /** What ran: cases per kind and per size bucket (shrinking not counted). */
  coverage: CoverageSummary;
  /** What the cases judged of each fuzzed clause (shrinking not counted). */
  tally: TallyData;
}

/**
 * Generates budget.runs cases from the seed, runs them `jobs` at a time, then shrinks the
 * first failing case of every clause with fast-check (seed + path replay it exactly).
 */
export async function fuzzProvider(ctx: ProviderFuzzContext, target: ProviderTarget, budget: FuzzBudget, options: ProviderFuzzOptions = {}): Promise<ProviderFuzzResult> {
  try {
    return await campaign(ctx, target, budget, options);
  } finally {
    options.progress?.end();
  }
}

export interface ProviderFuzzOptions {
  onCase?: (done: number) => void;
  /** Told of every judged case and of shrinking (the CLI's progress line). */
  progress?: FuzzProgressHook;
  shrink?: boolean;
  call?: ProviderCall;
  onResult?: (c: ProviderCase, index: number, findings: readonly Finding[]) => void;
  /** Where the cases come from (default: generated from the seed as they are taken); a bench hands over cases made beforehand. */
  cases?: CaseSource<ProviderCase>;
  /**
   * Differential fuzzing: told of every case as it is sent, with the candidate's transcript to
   * come; the worker takes its next case only once this has settled (so --jobs bounds both sides).
   */
  alongside?: (c: ProviderCase, index: number, running: Promise<ProviderTranscript>) => Promise<void>;
}

async function campaign(ctx: ProviderFuzzContext, target: ProviderTarget, budget: FuzzBudget, options: ProviderFuzzOptions): Promise<ProviderFuzzResult> {
  const made = options.call ?? callProvider;
  let calls = 0;
  // Every call made counts: a hostile case whose control failed sends one, a refused binding is resent.
  const call: ProviderCall = (argv, request, callOptions) => {
    calls++;
    return made(argv, request, callOptions);
  };
  const arb = providerCaseArb(ctx);
  // A shard runs its slice of the one sequence the seed generates; indices stay those of the whole sequence.
  const { from, to } = budget.cases ?? { from: 0, to: budget.runs };
  const cases = options.cases ?? new CaseStream(arb, budget.seed, from, to);
  const deadline = budget.timeSeconds !== undefined ? performance.now() + budget.timeSeconds * 1000 : Infinity;
  // Each clause's first failing case (by index): shrunk from there, or, interrupted, reported as it is.
  const firstByClause = new Map<string, { index: number; c: ProviderCase; finding: Finding }>();
  const coverage = new ProviderCoverage(hostileKinds(ctx));
  const tally = new ClauseTally(FUZZ_PROVIDER_CLAUSES);
  let done = 0;
  const returned: { c: ProviderCase; index: number; transcript: ProviderTranscript }[] = [];
  const judgeReturned = (): void => {
    for (const { c, index, transcript } of returned.splice(0)) {
      const results = caseResults(c, transcript);
      const findings = findingsOf(results);
      tally.add(results);
      coverage.add(c);
      options.onResult?.(c, index, findings);
      for (const finding of findings) if ((firstByClause.get(finding.clause)?.index ?? Infinity) > index) firstByClause.set(finding.clause, { index, c, finding });
      done++;
      options.onCase?.(done);
      options.progress?.cases(done, firstByClause.size);
    }
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      if (performance.now() > deadline || interrupted() !== undefined) cases.stop();
      const taken = await cases.take();
      if (taken === undefined) return;
      const { value: c, index } = taken;
      const running = runProviderCase(c, target, call);
      const beside = options.alongside?.(c, index, running);
      // While this case's first request is out, the kit's own work is done: judging the cases
      // that came back (and, once this one was taken, fast-check generates the next).
      judgeReturned();
      const transcript = await untilInterrupted(running);
      if (beside !== undefined) await untilInterrupted(beside);
      // A case that failed or came back after an interruption is dropped, not judged: its process may have been ended by it.
      if (transcript === undefined || interrupted() !== undefined) return;
      returned.push({ c, index, transcript });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(budget.jobs, to - from)) }, worker));
  } finally {
    cases.stop();
  }
  judgeReturned();

  const byIndex = [...firstByClause.entries()].sort((a, b) => a[1].index - b[1].index);
  const failures = await shrinkFailures(byIndex, { arb, target, call, evaluate: evaluateProviderCase, seed: budget.seed, jobs: budget.jobs, shrink: options.shrink !== false, progress: options.progress });
  return { cases: done, calls, failures, coverage: coverage.summary(), tally: tally.data() };
}

