/**
 * Differential fuzzing of two providers (`fuzz --protocol provider --against OTHER`): every
 * generated case, and the fixed describe and validate_config calls, go to both; the first
 * case of each kind of difference (the differing request's purpose and the aspects that
 * differ) is kept, shrunk with fast-check as clause failures are, and judged for which side
 * the contract supports.
 */
import fc from "fast-check";
import { interrupted } from "../../core/interrupt.js";
import { wireJson } from "../../core/json/index.js";
import { describeRequest, validateConfigRequest } from "../../core/provider/requests.js";
import type { JsonObject, ProviderTranscript } from "../../core/provider/types.js";
import { callProvider, type ProviderCall } from "../../runner/provider/call.js";
import { caseResults, MAX_SHRINK_CASES, runProviderCase, type ProviderTarget } from "../provider-run.js";
import type { ProviderCase } from "../types.js";
import type { OperationDecl } from "../../core/provider/plan.js";
import { declaredOperations, sendableTo } from "./common.js";
import { withConfig, type ConfigSwap } from "./config.js";
import { differenceOf, differingRequest, type CaseDifference } from "./pair.js";
import { judgeSupport, type SupportJudgement } from "./support.js";

/** Differences shrunk per campaign (in the order they were found); later ones are reported as found. */
export const MAX_SHRUNK_DIFFERENCES = 8;

export interface DifferentialSetup {
  candidate: ProviderTarget;
  against: ProviderTarget;
  /** Set when the other provider has a configuration of its own. */
  swap?: ConfigSwap;
  call?: ProviderCall;
}

/** A difference as the report keeps it: the minimal request, both answers, who the contract supports. */
export interface KeptDifference {
  seed: number;
  /** fast-check's path to the case ("describe"/"validate_config" for the fixed calls). */
  path: string;
  shrunk: boolean;
  /** The request the answers differ on (a hostile case's base when the controls differ). */
  request: ProviderCase;
  difference: CaseDifference;
  support: SupportJudgement;
  file?: string;
  reproduce?: string;
}

interface Found {
  index: number;
  path: string;
  c: ProviderCase;
  /** What was seen: reported as it is when running the case again does not show it (a flaky answer). */
  difference: CaseDifference;
  answers: BothAnswers;
}

/** Both providers' transcripts of one case (the other's moved to its own configuration). */
export interface BothAnswers {
  mine: ProviderTranscript;
  theirs: ProviderTranscript;
}

const encoder = new TextEncoder();

/** The fixed calls fuzzing makes before it generates a case, as cases both sides get. */
export function preparationCases(config: JsonObject): { path: string; c: ProviderCase }[] {
  const fixed = (purpose: "describe" | "config-valid", request: JsonObject): ProviderCase => ({ kind: "valid", label: `${String(request.method)} (fixed)`, purpose, method: String(request.method), requestId: String(request.request_id), bytes: encoder.encode(wireJson(request)), value: request });
  return [
    { path: "describe", c: fixed("describe", describeRequest("fuzz-describe")) },
    { path: "validate_config", c: fixed("config-valid", validateConfigRequest("fuzz-validate", config)) },
  ];
}

export class DifferentialRun {
  /** Calls made to the other provider (the candidate's are counted by its campaign, except in shrinking and preparation: counted here). */
  calls = 0;
  /** Cases both sides answered. */
  cases = 0;
  /** Generated cases a host could not send the other provider (an operation, event or effect it did not declare): not sent to it. */
  notCompared = 0;
  /** What the other provider's describe declared (set by prepare); undefined: every case is sent. */
  private theirOperations: OperationDecl[] | undefined;
  /** Clauses the other provider's answers failed on some generated case (its own verdict is `fuzz OTHER`'s). */
  readonly againstFailed = new Set<string>();
  private readonly first = new Map<string, Found>();
  private readonly call: ProviderCall;

  constructor(private readonly setup: DifferentialSetup) {
    const made = setup.call ?? callProvider;
    this.call = (argv, request, options) => {
      this.calls++;
      return made(argv, request, options);
    };
  }

  /** The other side of one case; the candidate's transcript comes from its own campaign. */
  readonly alongside = async (c: ProviderCase, index: number, running: Promise<ProviderTranscript>): Promise<void> => {
    if (!this.comparable(c)) {
      this.notCompared++;
      return;
    }
    const theirs = await runProviderCase(withConfig(c, this.setup.swap), this.setup.against, this.call);
    const mine = await running.catch(() => undefined);
    if (mine === undefined || interrupted() !== undefined) return;
    this.cases++;
    for (const result of caseResults(c, theirs)) if (result.status === "fail") this.againstFailed.add(result.id);
    this.note(c, index, String(index), { mine, theirs });
  };

  /** Both sides of one case, side by side. */
  async both(c: ProviderCase): Promise<BothAnswers> {
    const [mine, theirs] = await Promise.all([runProviderCase(c, this.setup.candidate, this.call), runProviderCase(withConfig(c, this.setup.swap), this.setup.against, this.call)]);
    return { mine, theirs };
  }

  /** The fixed describe and validate_config calls, to both sides (the validation with each side's configuration). */
  async prepare(config: JsonObject): Promise<void> {
    for (const [at, { path, c }] of preparationCases(config).entries()) {
      const { mine, theirs } = await this.both(c);
      if (c.purpose === "describe") this.theirOperations = declaredOperations(theirs);
      this.note(c, -2 + at, path, { mine, theirs });
    }
  }

  /** Whether a host could send this case to the other provider too (common.ts). */
  comparable(c: ProviderCase): boolean {
    return this.theirOperations === undefined || sendableTo(c, this.theirOperations);
  }

  private note(c: ProviderCase, index: number, path: string, answers: BothAnswers): void {
    const difference = differenceOf(c, answers.mine, answers.theirs);
    if (difference === undefined) return;
    if ((this.first.get(difference.key)?.index ?? Infinity) > index) this.first.set(difference.key, { index, path, c, difference, answers });
  }

  /** Kinds of difference found so far. */
  get found(): number {
    return this.first.size;
  }

  /**
   * Every kind of difference found, in the order of the cases: each generated one shrunk (the
   * first MAX_SHRUNK_DIFFERENCES, within MAX_SHRINK_CASES cases each) to a smallest case that
   * still differs in the same way, then run once more so the report shows exactly that case.
   */
  async finish(arb: fc.Arbitrary<ProviderCase>, seed: number, shrink = true): Promise<KeptDifference[]> {
    const kept: KeptDifference[] = [];
    const ordered = [...this.first.entries()].sort((a, b) => a[1].index - b[1].index);
    for (const [at, [key, found]] of ordered.entries()) {
      const generated = found.index >= 0;
      const minimal = generated && shrink && at < MAX_SHRUNK_DIFFERENCES && interrupted() === undefined ? await this.shrink(arb, seed, key, found) : undefined;
      const chosen = minimal ?? { c: found.c, path: found.path };
      const answers = await this.both(chosen.c);
      const again = differenceOf(chosen.c, answers.mine, answers.theirs);
      if (again?.key === key) {
        kept.push({ seed, path: chosen.path, shrunk: minimal !== undefined, request: differingRequest(chosen.c, again), difference: again, support: judgeSupport(answers.mine, answers.theirs) });
        continue;
      }
      // Flaky: run again, the case did not differ in the same way; what was seen is reported as it was seen, and said to be so.
      const support = judgeSupport(found.answers.mine, found.answers.theirs);
      kept.push({ seed, path: found.path, shrunk: false, request: differingRequest(found.c, found.difference), difference: found.difference, support: { ...support, why: `seen once, not when the case ran again (a flaky answer, or one that depends on time or state); ${support.why}` } });
    }
    return kept;
  }

  private async shrink(arb: fc.Arbitrary<ProviderCase>, seed: number, key: string, found: Found): Promise<{ c: ProviderCase; path: string } | undefined> {
    let tried = 0;
    const property = fc.asyncProperty(arb, async (c) => {
      if (tried++ > MAX_SHRINK_CASES || interrupted() !== undefined || !this.comparable(c)) return true;
      const { mine, theirs } = await this.both(c);
      return differenceOf(c, mine, theirs)?.key !== key;
    });
    const result = await fc.check(property, { seed, path: String(found.index), numRuns: 1 });
    const shrunk = result.counterexample?.[0];
    if (!result.failed || shrunk === undefined || interrupted() !== undefined) return undefined;
    return { c: shrunk, path: result.counterexamplePath ?? String(found.index) };
  }
}
