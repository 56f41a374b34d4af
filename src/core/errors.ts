/** Stable codes for failures of the kit itself or of its usage (never of the candidate). */
export type KitErrorCode =
  | "usage"
  | "config_invalid"
  | "candidate_not_found"
  | "catalogue_invalid"
  | "schema_invalid"
  | "kit_bug"
  | "io_failed";

/** A usage mistake or a bug in the kit. Candidate misbehaviour is never a KitError. */
export class KitError extends Error {
  readonly code: KitErrorCode;
  constructor(code: KitErrorCode, message: string) {
    super(message);
    this.name = "KitError";
    this.code = code;
  }

  /** Usage and configuration problems exit 2; everything else is a kit failure (3). */
  get exitCode(): 2 | 3 {
    return this.code === "usage" || this.code === "config_invalid" || this.code === "candidate_not_found" ? 2 : 3;
  }
}
