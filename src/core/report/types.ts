/** Plain data shared by checks, drivers and reporters. Described by schemas/report.schema.json. */

export type Level = "MUST" | "SHOULD" | "MAY";
export type Protocol = "provider" | "agent-cli";
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
  /** How many exchanges or events the clause was judged on. */
  judged: number;
  findings: Finding[];
  /** Set from --expected-failures / --flaky: such a failure does not count against the verdict. */
  expectation?: "expected-failure" | "flaky";
}

/** Which levels' failures decide the verdict (--level). */
export type CountedLevel = "must" | "should" | "all";

export interface Summary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  notApplicable: number;
  deselected: number;
  byLevel: Record<Level, { passed: number; failed: number; skipped: number; notApplicable: number }>;
  /** Failures of levels the verdict does not count: shown as warnings. */
  warnings: number;
  /** Failures listed in --expected-failures, and failures of --flaky clauses. */
  expectedFailures: number;
  flaky: number;
  /** Expected-failure entries that no longer hold: a listed clause passed, or a pattern matched nothing. */
  stale: string[];
  level: CountedLevel;
  conformant: boolean;
  verdict: "conformant" | "not-conformant" | "nothing-judged";
}

export interface RunReport {
  reportVersion: 1;
  tool: { name: string; version: string };
  protocol: Protocol;
  mode?: string;
  candidate: { argv: string[] };
  startedAt: string;
  endedAt: string;
  options: Record<string, unknown>;
  selection: { clause: string[]; skip: string[] };
  summary: Summary;
  clauses: ClauseResult[];
  notes: string[];
  /** Provider runs: the input_digest dialects (serde_json float formats) the candidate accepted, and the one the kit bound its invocations in. */
  digestDialect?: { bound: string; accepted: string[] };
}
