import type { JsonObject, Purpose } from "../core/provider/types.js";
import type { CoverageCount, CoverageDimension, Finding } from "../core/report/types.js";

/** Cases per kind and per size bucket of a fuzz campaign (what the report's fuzz section lists). */
export interface CoverageSummary {
  kinds: CoverageCount[];
  sizes: CoverageDimension[];
}

/** One generated provider request: what the fuzzer sends and how it judges the answer. */
export interface ProviderCase {
  kind: "valid" | "hostile";
  /** Short description: what is special about it ("tool name of 1024 chars", "depth 33"). */
  label: string;
  /** Valid requests are "invoke" (or "describe"/"config-valid"); hostile ones `hostile:<kind>`. */
  purpose: Purpose;
  method: string;
  requestId: string;
  /** Exact stdin bytes. For stdin "close-early" these are the bytes written before closing. */
  bytes: Uint8Array;
  /** The request value when the bytes are one JSON object the kit built. */
  value?: JsonObject;
  /** For a hostile case: the well-formed request it was derived from (sent first as its control). */
  base?: ProviderCase;
  /** budget_ms of an invoke (timing checks). */
  budgetMs?: number;
}

/** What valid provider requests are generated from: the provider's own description and config. */
export interface ProviderFuzzContext {
  operations: { name: string; events: string[]; effects: string[] }[];
  config: JsonObject;
  configRevision: string;
  budgetMs: number;
  /** Differential fuzzing: tool names come from the configuration half the time (where policies decide). */
  configFocus?: boolean;
}

/** One step of a fuzzed agent-cli session. */
export type AgentStep =
  | { op: "turn"; text: string; blocks?: Record<string, unknown>[] }
  | { op: "malformed"; line: string }
  | { op: "pause"; ms: number }
  | { op: "close-stdin" }
  | { op: "shutdown" }
  | { op: "sigterm" };

export type ReplayCase = { protocol: "provider"; case: SerializedProviderCase } | { protocol: "agent-cli"; steps: AgentStep[] };

/** A ProviderCase as JSON: bytes as UTF-8 text when they decode losslessly, else base64. */
export interface SerializedProviderCase {
  kind: ProviderCase["kind"];
  label: string;
  purpose: Purpose;
  method: string;
  requestId: string;
  text?: string;
  base64?: string;
  budgetMs?: number;
  base?: SerializedProviderCase;
}

/** A failure one fuzz run found (shrunk where it could be), with what replays it. */
export interface FuzzFailure {
  clause: string;
  finding: Finding;
  seed: number;
  /** fast-check's path to the shrunk counterexample. */
  path: string;
  replay: ReplayCase;
  /** Where the replay file was written (set by the caller that writes it). */
  file?: string;
  /** The command that replays it against the same candidate (set with `file`). */
  reproduce?: string;
}

export interface FuzzBudget {
  /** Cases to generate; TIME_BOXED_RUNS (see budget.ts) under a time box. */
  runs: number;
  /** --fuzz-time without --fuzz-runs: `runs` is no bound, cases are generated until timeSeconds. */
  timeBoxed?: boolean;
  /**
   * Time limit in seconds: no new case starts after it. Providers: shrinking a failure found
   * by then still finishes (within its case budget). Agent-cli sessions: shrinking stops there
   * too, and the failure is reported as shrunk so far (or as found).
   */
  timeSeconds?: number;
  seed: number;
  /** Candidate processes at once: provider calls, or agent-cli sessions (each its own launch, fixture and folders). */
  jobs: number;
  /**
   * --shard K/N: run only the case indices [from, to) of the `runs` the seed generates (see
   * caseRange in core/report/shard.ts); a failure keeps its index in the whole sequence.
   */
  cases?: { from: number; to: number };
}

/** What a campaign tells whoever shows its progress (the CLI's stderr line); every method is cheap. */
export interface FuzzProgressHook {
  /** A generated case was judged: cases done so far (shrinking not counted), and clauses failed so far. */
  cases(done: number, failingClauses: number): void;
  /** Generation is over; the kit shrinks the failure of this clause (number `at` of `of`). */
  shrinking(clause: string, at: number, of: number): void;
  /** The campaign is over (called once, also when it threw). */
  end(): void;
}
