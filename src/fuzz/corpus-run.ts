/**
 * Running with a corpus: its cases are replayed first (the current candidate, never a command
 * from a file), then every generated case that reaches something new, a clause outcome or a
 * coverage bucket no earlier case (nor the corpus) reached, is kept, and so is every shrunk
 * failure. With --shard K/N each shard replays its slice of the corpus.
 */
import type { CorpusSummary, Finding } from "../core/report/types.js";
import { caseRange, type Shard } from "../core/report/shard.js";
import { AgentCoverage } from "./agent-cli/coverage.js";
import { runAgentSteps, type AgentFuzzContext } from "./agent-cli/index.js";
import { CORPUS_LIMITS, corpusSize, readCorpus, saveToCorpus, type CorpusEntry } from "./corpus.js";
import { pool } from "./pool.js";
import { ProviderCoverage } from "./provider/coverage.js";
import { evaluateProviderCase, type ProviderTarget } from "./provider-run.js";
import { deserializeCase, replayCommandLine, replayFileOf, serializeCase, type ReplayCandidate } from "./replay.js";
import type { AgentStep, CoverageSummary, FuzzFailure, ProviderCase, ReplayCase, SerializedProviderCase } from "./types.js";
import { interrupted } from "../core/interrupt.js";

/** Every bucket a coverage summary counted something in, as "kind: X" and "<dimension>: <bucket>". */
export function coverageKeys(summary: CoverageSummary): string[] {
  return [
    ...summary.kinds.filter((k) => k.count > 0).map((k) => `kind: ${k.name}`),
    ...summary.sizes.flatMap((d) => d.buckets.filter((b) => b.count > 0).map((b) => `${d.name}: ${b.name}`)),
  ];
}

export function providerCaseKeys(c: ProviderCase): string[] {
  const one = new ProviderCoverage([]);
  one.add(c);
  return coverageKeys(one.summary());
}

export function agentStepsKeys(steps: readonly AgentStep[]): string[] {
  const one = new AgentCoverage();
  one.addSession(steps);
  return coverageKeys(one.summary());
}

const outcomeKeys = (findings: readonly Pick<Finding, "clause">[]): string[] => findings.map((f) => `fails ${f.clause}`);

/** Most files one campaign adds: a broken candidate must not flood the folder. */
export const MAX_SAVED_PER_RUN = 200;

/** The clause a kept case that broke nothing is filed under (a replay names one): the one its kind exercises. */
function fileClause(replay: ReplayCase): string {
  if (replay.protocol === "agent-cli") return "agent-cli/output/json-object-lines";
  const purpose = replay.case.purpose;
  return purpose.startsWith("hostile:") ? `provider/robustness/rejects-${purpose.slice("hostile:".length)}` : "provider/transport/single-json-object";
}

/** One campaign's view of its corpus: what it read, what it has seen, what it added. */
export class Corpus {
  private readonly seen = new Set<string>();
  private saved = 0;
  private replayed = 0;
  private failing = 0;
  /** Candidate calls (provider) or sessions (agent-cli) the replays took. */
  calls = 0;
  readonly findings: Finding[] = [];

  private constructor(
    readonly dir: string,
    readonly entries: readonly CorpusEntry[],
    private readonly cut: string | undefined,
    private readonly candidate: ReplayCandidate,
    private readonly seed: number,
  ) {}

  static open(dir: string, protocol: "provider" | "agent-cli", candidate: ReplayCandidate, seed: number): Corpus {
    const { entries, cut } = readCorpus(dir, protocol);
    return new Corpus(dir, entries, cut, candidate, seed);
  }

  /** Keys not seen before (now seen): what makes a case worth keeping. */
  fresh(keys: readonly string[]): string[] {
    const fresh = keys.filter((k) => !this.seen.has(k));
    for (const k of fresh) this.seen.add(k);
    return fresh;
  }

  /** Adds a case (unless the cap is reached or the same case is there). */
  keep(replay: ReplayCase, clause: string, message: string, path: string): void {
    if (this.saved >= MAX_SAVED_PER_RUN || corpusSize(this.dir) >= CORPUS_LIMITS.maxFiles) return;
    const written = saveToCorpus(this.dir, replayFileOf({ clause, message, seed: this.seed, path, candidate: this.candidate, replay }));
    if (written !== undefined) this.saved++;
  }

  /** Keeps a generated case when it reached something new. */
  consider(replay: ReplayCase, keys: readonly string[], findings: readonly Finding[], index: number): void {
    const fresh = this.fresh([...keys, ...outcomeKeys(findings)]);
    if (fresh.length === 0) return;
    const first = findings[0];
    this.keep(replay, first?.clause ?? fileClause(replay), first !== undefined ? first.message : `kept in the corpus: it reached ${fresh.slice(0, 3).join("; ")}`, String(index));
  }

  /** Keeps every shrunk failure. */
  keepFailures(failures: readonly FuzzFailure[]): void {
    for (const f of failures) this.keep(f.replay, f.clause, f.finding.message, f.path);
  }

  /** Records what replaying one corpus file found: its findings (marked as from the corpus) and what it reached. */
  private replayedOne(entry: CorpusEntry, keys: readonly string[], findings: readonly Finding[]): void {
    this.replayed++;
    this.fresh([...keys, ...outcomeKeys(findings)]);
    if (findings.length > 0) this.failing++;
    const reproduce = replayCommandLine(entry.path, this.candidate);
    for (const f of findings) this.findings.push({ ...f, foundBy: "fuzz", reproduce, fuzzCase: { seed: entry.file.seed, path: entry.file.path, file: entry.path, corpus: true } });
  }

  /** The slice of the corpus this shard replays (all of it unsharded). */
  private mine(shard: Shard | undefined): readonly CorpusEntry[] {
    if (shard === undefined) return this.entries;
    const { from, to } = caseRange(this.entries.length, shard);
    return this.entries.slice(from, to);
  }

  /**
   * Replays the provider corpus (this shard's slice) against the target, `jobs` at a time, none
   * started after `seconds` (--fuzz-time bounds the replay as it bounds generation); every
   * corpus case counts as seen.
   */
  async replayProvider(target: ProviderTarget, jobs: number, shard?: Shard, seconds?: number): Promise<void> {
    const cases = this.entries.map((e) => deserializeCase(e.file.case as SerializedProviderCase));
    for (const c of cases) this.fresh(providerCaseKeys(c));
    const results: { entry: CorpusEntry; c: ProviderCase; findings: Finding[] }[] = [];
    await pool(this.mine(shard), jobs, async (entry, index) => {
      const c = deserializeCase(entry.file.case as SerializedProviderCase);
      this.calls += c.base ? 2 : 1;
      results[index] = { entry, c, findings: await evaluateProviderCase(c, target) };
    }, until(seconds));
    // In corpus order, whatever order the calls ended in.
    for (const r of results) if (r !== undefined) this.replayedOne(r.entry, providerCaseKeys(r.c), r.findings);
  }

  /** Replays the agent-cli corpus (this shard's slice), `jobs` sessions at a time, none started after `seconds`. */
  async replayAgent(ctx: AgentFuzzContext, jobs: number, shard?: Shard, seconds?: number): Promise<void> {
    for (const e of this.entries) this.fresh(agentStepsKeys(stepsOf(e)));
    const results: { entry: CorpusEntry; findings: Finding[] }[] = [];
    await pool(this.mine(shard), jobs, async (entry, index) => {
      this.calls += 1;
      results[index] = { entry, findings: (await runAgentSteps(stepsOf(entry), ctx)).findings };
    }, until(seconds));
    for (const r of results) if (r !== undefined) this.replayedOne(r.entry, agentStepsKeys(stepsOf(r.entry)), r.findings);
  }

  /** A generated provider case, as the fuzzer reports it. */
  onProviderCase = (c: ProviderCase, index: number, findings: readonly Finding[]): void => {
    this.consider({ protocol: "provider", case: serializeCase(c) }, providerCaseKeys(c), findings, index);
  };

  /** A generated agent-cli session (its findings are known only for the one the fuzzer shrinks). */
  onAgentSession = (steps: readonly AgentStep[], index: number): void => {
    this.consider({ protocol: "agent-cli", steps: [...steps] }, agentStepsKeys(steps), [], index);
  };

  summary(): CorpusSummary {
    return { replayed: this.replayed, failing: this.failing, saved: this.saved, ...(this.cut !== undefined ? { cut: this.cut } : {}) };
  }
}

/** A pool's stop test: true once `seconds` from now have passed (never without a limit), or once the kit is interrupted. */
function until(seconds: number | undefined): () => boolean {
  const deadline = seconds === undefined ? Infinity : performance.now() + seconds * 1000;
  return () => performance.now() > deadline || interrupted() !== undefined;
}

function stepsOf(entry: CorpusEntry): AgentStep[] {
  return "steps" in entry.file.case ? entry.file.case.steps : [];
}
