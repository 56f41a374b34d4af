/**
 * Bounds on the files the kit reads from users: replay files, recorded transcripts,
 * saved reports, expected-failure and flaky lists. These files travel in bug reports and
 * pull requests, so they are read like candidate output: size first, then nesting, line
 * length and count, and every malformed one is a usage error (exit 2) naming the file.
 */

export const MiB = 1024 * 1024;

export type InputKind = "transcript" | "report" | "list" | "replay" | "config" | "request" | "cases" | "record";

export interface InputLimit {
  /** What the file is, for messages ("transcript", "expected-failures list"...). */
  what: string;
  maxBytes: number;
  /** Deepest nesting of a JSON value (the top-level value is depth 1). */
  maxDepth: number;
  /** Longest line in bytes, without its LF (JSON documents: the whole file may be one line). */
  maxLineBytes: number;
  /** Most lines. */
  maxLines: number;
  /** Most JSON values (objects, arrays, members, elements) in the whole file: what parsing costs in memory. */
  maxValues: number;
}

/**
 * The limits, one per kind. Transcripts hold a candidate's stdout lines (up to the 4 MiB line
 * guard, up to six times longer once escaped as JSON) and the model requests it sent.
 */
export const INPUT_LIMITS: Readonly<Record<InputKind, InputLimit>> = {
  transcript: { what: "transcript", maxBytes: 64 * MiB, maxDepth: 256, maxLineBytes: 32 * MiB, maxLines: 1_000_000, maxValues: 4_000_000 },
  report: { what: "report", maxBytes: 16 * MiB, maxDepth: 64, maxLineBytes: 16 * MiB, maxLines: 2_000_000, maxValues: 1_000_000 },
  replay: { what: "replay file", maxBytes: 16 * MiB, maxDepth: 128, maxLineBytes: 16 * MiB, maxLines: 2_000_000, maxValues: 1_000_000 },
  list: { what: "clause list", maxBytes: 1 * MiB, maxDepth: 1, maxLineBytes: 4096, maxLines: 100_000, maxValues: 0 },
  config: { what: "configuration file", maxBytes: 1 * MiB, maxDepth: 32, maxLineBytes: 1 * MiB, maxLines: 1_000_000, maxValues: 1_000_000 },
  request: { what: "request file", maxBytes: 64 * MiB, maxDepth: 1, maxLineBytes: 64 * MiB, maxLines: 64 * MiB, maxValues: 0 },
  /** Policy-test case files (YAML or JSON): a case's request is at most 1 MiB and 32 levels, plus the file's own nesting. */
  cases: { what: "policy case file", maxBytes: 4 * MiB, maxDepth: 40, maxLineBytes: 1 * MiB, maxLines: 1_000_000, maxValues: 1_000_000 },
  /** Launch records (check-launch): the mock stops writing at 16 MiB; several processes may each add a line after that. Lines are checked by src/core/host/record.ts. */
  record: { what: "launch record", maxBytes: 32 * MiB, maxDepth: 32, maxLineBytes: 8 * MiB, maxLines: 1_000_000, maxValues: 4_000_000 },
};

/**
 * All the transcripts of one `check` together: judging takes about 1.2 GB and 11 s for a
 * million events on this kit's reference machine, so that is the most one check reads.
 */
export const CHECK_LIMITS = { maxBytes: 128 * MiB, maxEvents: 1_000_000 } as const;

/** Saved reports: clause results and the length of a clause id (the catalogue's longest is under 70). */
export const REPORT_LIMITS = { maxClauses: 1000, maxClauseIdChars: 128 } as const;

/** Expected-failure and flaky lists: entries and the length of one pattern. */
export const LIST_LIMITS = { maxEntries: 500, maxPatternChars: 128 } as const;

/** Replay files: what bounds the time a replay can take. */
export const REPLAY_LIMITS = { maxSteps: 1000, maxTimeoutMs: 600_000, maxPauseMs: 60_000, maxArgs: 128, maxArgChars: 8192, maxEnvEntries: 128, maxEnvValueChars: 32_768, maxModelChars: 256 } as const;

export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
