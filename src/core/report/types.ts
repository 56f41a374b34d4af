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
}

export interface Summary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  notApplicable: number;
  deselected: number;
  byLevel: Record<Level, { passed: number; failed: number; skipped: number; notApplicable: number }>;
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
}
