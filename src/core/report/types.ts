/** Plain data shared by checks, drivers and reporters. Described by schemas/report.schema.json. */
import type { DifferentialSummary } from "./differential-types.js";
export type * from "./differential-types.js";

export type Level = "MUST" | "SHOULD" | "MAY";
export type Protocol = "provider" | "agent-cli";
/** A catalogue of clauses (suites/<protocol>/): the two protocols, and the host side of both (check-launch). */
export type SuiteProtocol = Protocol | "host";
/** What a report is about: a catalogue's clauses, or a Provider's policy-test cases (one entry per case). */
export type ReportProtocol = SuiteProtocol | "policy-test";
export type ClauseStatus = "pass" | "fail" | "skip" | "not-applicable";

export interface ClauseSource {
  doc: string;
  section: string;
}

export interface Clause {
  id: string;
  level: Level;
  title: string;
  text: string;
  source: ClauseSource;
  modes?: string[];
}

/** Points at the exact place in a transcript that a finding is about. */
export interface Evidence {
  /** Short, redacted excerpt of what the candidate (or the kit) wrote. */
  excerpt: string;
  stream?: "stdin" | "stdout" | "stderr" | "process";
  /** Sequence number of the exchange or transcript line. */
  seq?: number;
  offset?: number;
  line?: number;
  column?: number;
}

/** One entry of a wire log: what crossed the process boundary, in order, with its time. */
export interface WireEntry {
  /** Milliseconds since the exchange or scenario started. */
  t: number;
  stream: "stdin" | "stdout" | "stderr" | "host" | "model" | "process";
  text: string;
  /** The entry the finding is about. */
  highlight?: boolean;
  /** The text was cut to keep the report bounded. */
  truncated?: boolean;
}

export interface Finding {
  clause: string;
  message: string;
  expected?: string;
  seen?: string;
  requestId?: string;
  scenario?: string;
  /** A one-line command that replays the exact request or session. */
  reproduce?: string;
  evidence?: Evidence[];
  /** The exchange or session around the finding (bounded; only for the first findings of a clause). */
  wire?: WireEntry[];
  foundBy?: "scenario" | "fuzz";
  /** Found by fuzzing: the case's seed and fast-check path (its first number is the case's index), and its replay file. */
  fuzzCase?: FuzzCase;
  /** The finding rests only on a time bound the kit chose, not on the contract: a larger bound might have seen the candidate comply. */
  kitBound?: KitBound;
}

/** A bound the kit chose that the candidate passed: the option that moves it, its value, and what the candidate was doing then. */
export interface KitBound {
  /** The option of `run` that sets the bound, e.g. "--turn-timeout". */
  option: string;
  /** Its value in this run, in `unit`. */
  value: number;
  /** A time (ms) or a size (bytes). */
  unit: "ms" | "bytes";
  /** What the candidate was doing when the bound ran out: "still retrying: 3 model requests", "silent since 1200 ms". */
  activity: string;
}

/** Where a fuzz finding came from: a generated case (seed and path) or a corpus file replayed first. */
export interface FuzzCase {
  seed: number;
  /** fast-check's path; its first number is the index of the generated case the failure was found at. */
  path: string;
  /** The replay file, as the run wrote (or, from the corpus, read) it. */
  file?: string;
  /** True when the case came from the --corpus folder rather than from generation. */
  corpus?: true;
}

/** What one check concluded about its clause. */
export type Judgement =
  | { outcome: "judged"; judged: number; findings: Finding[] }
  | { outcome: "skip"; reason: string }
  | { outcome: "not-applicable"; reason: string };

export interface ClauseResult {
  id: string;
  level: Level;
  title: string;
  status: ClauseStatus;
  /** Why a clause was skipped or not applicable. */
  reason?: string;
  /** How many exchanges, turns, lines or events the clause was judged on (fuzzing adds the judgements its cases made); a pass needs at least 1. */
  judged: number;
  findings: Finding[];
  /** Set from --expected-failures / --flaky: such a failure does not count against the verdict. */
  expectation?: "expected-failure" | "flaky";
  /** Live runs: the summed time (ms) of the scenarios or candidate calls that judged the clause (core/report/timing.ts). */
  durationMs?: number;
  /** --evidence all: for a pass, the exchange or session it was judged on (bounded like a finding's wire log). */
  passEvidence?: PassEvidence;
}

/** What a passing clause was judged on: one request (with its control) or one scenario's session, as a wire log. */
export interface PassEvidence {
  /** The scenario the wire log is of (agent-cli: "NAME (MODE)"). */
  scenario: string;
  requestId?: string;
  wire: WireEntry[];
}

/** Which levels' failures decide the verdict (--level). */
export type CountedLevel = "must" | "should" | "all";

/**
 * The verdict of a run. `incomplete`: no counted failure stands, but a clause of a counted
 * level was skipped (the kit could not judge it), so the run proves nothing about it.
 */
export type Verdict = "conformant" | "not-conformant" | "incomplete" | "nothing-judged";

/**
 * Counts of a set of clause results. Every result is in exactly one bucket, so the buckets
 * add up to the size of the set.
 */
export interface Buckets {
  passed: number;
  /** Failures that count against the verdict: of a counted level, neither expected nor flaky. */
  failed: number;
  /** Failures of levels the verdict does not count (--level). */
  warnings: number;
  /** Failures listed in --expected-failures. */
  expectedFailures: number;
  /** Failures of clauses listed in --flaky. */
  flaky: number;
  skipped: number;
  notApplicable: number;
}

/** Skipped clauses of a counted level that share one reason (the reason says what to add). */
export interface IncompleteGroup {
  reason: string;
  clauses: string[];
}

export interface Summary extends Buckets {
  /** Clauses in the run: the sum of the seven buckets. */
  total: number;
  /** Clauses left out with --clause/--skip (not in the run, not in total). */
  deselected: number;
  /** The same buckets per level; each bucket summed over the levels gives the overall one. */
  byLevel: Record<Level, Buckets>;
  /** Why the run is incomplete, by reason, in catalogue order; empty when it is not. */
  incomplete: IncompleteGroup[];
  /**
   * Of the counted failures (`failed`), those that rest only on a time bound the kit chose
   * (every finding carries kitBound): a larger bound might have seen the candidate comply.
   * Counted apart so a reader sees them; they still count against the verdict. Absent in
   * reports written before the kit counted them.
   */
  atKitBound?: number;
  /** Expected-failure entries that no longer hold: a listed clause passed, or a pattern matched nothing. */
  stale: string[];
  level: CountedLevel;
  /** True exactly when the verdict is "conformant". */
  conformant: boolean;
  verdict: Verdict;
}

/** What a report judged: the command line, and for the kit's own examples their name. */
export interface ReportCandidate {
  argv: string[];
  /** Set when the candidate is one of the kit's bundled examples (`awp-conformance run` with no candidate): its name. */
  bundled?: string;
}

export interface RunReport {
  reportVersion: 1;
  tool: { name: string; version: string };
  protocol: ReportProtocol;
  mode?: string;
  candidate: ReportCandidate;
  startedAt: string;
  endedAt: string;
  options: Record<string, unknown>;
  selection: { clause: string[]; skip: string[] };
  summary: Summary;
  clauses: ClauseResult[];
  notes: string[];
  /** Why the run stopped early or could judge little (exited at start, never answered a turn, --run-timeout): reporters say it first. */
  halted?: string;
  /** Provider runs: the input_digest dialects (serde_json float formats) the candidate accepted, and the one the kit bound its invocations in. */
  digestDialect?: { bound: string; accepted: string[] };
  /** Runs with fuzzing: what was generated and run, so a thin campaign shows as thin. */
  fuzz?: FuzzSummary;
  /** Set on the report of one shard of a run (--shard K/N), so merge can check it has every shard once. */
  shard?: ShardInfo;
  /** Differential fuzzing (fuzz --against): where the two providers' answers differ; findings of their own, not clause results. */
  differential?: DifferentialSummary;
}

/** Why cases did not judge a fuzzed clause: one reason a check gave, and how many cases gave it. */
export interface UnjudgedReason {
  outcome: "skip" | "not-applicable";
  reason: string;
  cases: number;
}

/** A fuzzed clause (name) and the number of cases that judged it (count); when none did, the reasons they gave. */
export interface JudgedBy {
  name: string;
  count: number;
  /** Only when count is 0: why the cases did not judge it, most given first (what merging shards sums). */
  unjudged?: UnjudgedReason[];
}

/** What one shard of a run ran (see `awp-conformance merge`). */
export interface ShardInfo {
  /** K of --shard K/N. */
  index: number;
  /** N of --shard K/N. */
  count: number;
  /** The parts of the fixed suite this shard ran: provider units or agent-cli scenarios. */
  units?: string[];
  /** Fuzzing: the slice [from, to) of the seed's generated case indices this shard ran. */
  cases?: { from: number; to: number };
  /** Clauses this shard left to the others (judged there; not in this report's clauses). */
  elsewhere: number;
}

/** A count under a name: a kind of case, or a size bucket. */
export interface CoverageCount {
  name: string;
  count: number;
}

/** One size measured on every case (or turn), with the number in each bucket, empty buckets included. */
export interface CoverageDimension {
  name: string;
  /** What is counted: "requests", "sessions" or "turns". */
  of: string;
  buckets: CoverageCount[];
}

/** What a fuzz campaign explored: cases per kind and per size bucket (shrinking runs not counted). */
export interface FuzzSummary {
  seed: number;
  /** Generated cases that ran: provider requests (with their controls) or agent-cli sessions. */
  cases: number;
  /** Candidate calls (provider) or sessions (agent-cli), shrinking included. */
  calls: number;
  /** Failures found, one per failing clause (shrunk where the kit could), each with a replay file. */
  failures: number;
  unit: "request" | "session";
  kinds: CoverageCount[];
  sizes: CoverageDimension[];
  /** Each fuzzed clause with the number of generated cases that judged it (corpus replays add findings only). */
  judgedBy?: JudgedBy[];
  /** With --corpus: the saved cases replayed before generation, and the cases this run added. */
  corpus?: CorpusSummary;
}

/** What a fuzz run did with its --corpus folder. */
export interface CorpusSummary {
  /** Saved cases replayed before any new case was generated. */
  replayed: number;
  /** Of those, the ones that failed a clause (reported as fuzz findings). */
  failing: number;
  /** Cases this run added: failures (shrunk) and cases that reached a new clause outcome or coverage bucket. */
  saved: number;
  /** Set when the folder held more than the kit reads: what was left out. */
  cut?: string;
}
