/** The report's differential section (fuzz --against): what two providers were compared on and where they differ. */

/** One side of a difference: its answer as a host would act on it, and the clauses that answer fails (the kit's checks). */
export interface DifferenceSide {
  answer: string;
  clauses: string[];
}

/** One kind of difference between two providers' answers, shrunk to a minimal request where the kit could. */
export interface FuzzDifference {
  /** provider/differential/<purpose>-<aspects>: names the replay file, not a clause of the catalogue. */
  id: string;
  /** What a host would act on that differs: outcome, exit, effects, replace-text, error-code, operations. */
  aspects: string[];
  request: { label: string; purpose: string; requestId: string; text: string };
  seed: number;
  /** fast-check's path to the case ("describe" or "validate_config" for the fixed calls). */
  path: string;
  shrunk: boolean;
  candidate: DifferenceSide;
  against: DifferenceSide;
  /** Which side the contract supports: one of them, neither (both answers fail a clause), or both (both allowed by the contract). */
  supports: "candidate" | "against" | "neither" | "both";
  why: string;
  file?: string;
  reproduce?: string;
}

/** What differential fuzzing compared and found. */
export interface DifferentialSummary {
  /** The other provider's command line. */
  against: string[];
  /** Cases both providers answered (the fixed describe and validate_config calls not counted). */
  cases: number;
  /** Calls made to the other provider, and to both in shrinking and preparation. */
  calls: number;
  /** Generated cases not sent to the other provider: a host could not send them to it (an operation, event or effect its describe did not declare). */
  notCompared?: number;
  /** Clauses the other provider's answers failed on some generated case, judged as the candidate's are (not shrunk: `fuzz OTHER` gives its own verdict). */
  againstFailed: string[];
  differences: FuzzDifference[];
}
