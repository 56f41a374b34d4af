/** Stable codes for failures of the kit itself or of its usage (never of the candidate). */
export type KitErrorCode =
  | "usage"
  | "config_invalid"
  | "candidate_not_found"
  | "candidate_not_executable"
  | "candidate_not_regular_file"
  | "catalogue_invalid"
  | "schema_invalid"
  | "kit_bug"
  | "io_failed";

/** The codes of mistakes in what the user gave the kit: exit 2. */
const USER_CODES: ReadonlySet<KitErrorCode> = new Set<KitErrorCode>(["usage", "config_invalid", "candidate_not_found", "candidate_not_executable", "candidate_not_regular_file"]);

/** A usage mistake or a bug in the kit. Candidate misbehaviour is never a KitError. */
export class KitError extends Error {
  readonly code: KitErrorCode;
  constructor(code: KitErrorCode, message: string) {
    super(message);
    this.name = "KitError";
    this.code = code;
  }

  /** Usage and configuration problems (a candidate the kit cannot start among them) exit 2; everything else is a kit failure (3). */
  get exitCode(): 2 | 3 {
    return USER_CODES.has(this.code) ? 2 : 3;
  }
}
