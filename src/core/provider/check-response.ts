import { wireJson } from "../json/index.js";
import type { ClauseResult } from "../report/types.js";
import type { JsonObject, ProviderTranscript, Purpose } from "./types.js";
import { judgeProviderTranscript } from "./judge.js";

export interface ResponseCheckInput {
  /** The request exactly as sent; its method decides which clauses apply. */
  request: JsonObject;
  /** The Provider's stdout bytes (or text). */
  stdout: Uint8Array | string;
  stderr?: Uint8Array | string;
  /** Exit status; 0 when omitted. */
  exitCode?: number;
  durationMs?: number;
}

const encoder = new TextEncoder();
const bytes = (value: Uint8Array | string | undefined): Uint8Array => (typeof value === "string" ? encoder.encode(value) : (value ?? new Uint8Array()));

const PURPOSE: Record<string, Purpose> = { describe: "describe", validate_config: "config-valid", invoke: "invoke" };

/**
 * Judges one recorded response to one well-formed request: the clauses that concern a
 * single answer (transport, envelope, and the method's own) come out pass or fail; the
 * rest are skipped or not applicable.
 */
export function checkProviderResponse(input: ResponseCheckInput): ClauseResult[] {
  const method = String(input.request.method);
  const request = bytes(wireJson(input.request));
  const stdout = bytes(input.stdout);
  const budget = input.request.budget_ms;
  const transcript: ProviderTranscript = {
    argv: ["(recorded)"],
    context: { config: {}, configGiven: true, invalidConfigsGiven: 0, secrets: [], notes: [] },
    exchanges: [
      {
        seq: 1,
        scenario: `recorded ${method}`,
        purpose: PURPOSE[method] ?? "describe",
        method,
        requestId: String(input.request.request_id),
        request,
        requestValue: input.request,
        timeoutMs: 0,
        ...(typeof budget === "number" ? { budgetMs: budget } : {}),
        outcome: {
          exitCode: input.exitCode ?? 0,
          signal: null,
          timedOut: false,
          stdoutCapped: false,
          stderrCapped: false,
          durationMs: input.durationMs ?? 0,
          stdoutBytes: stdout.length,
          stderrBytes: bytes(input.stderr).length,
          killedByKit: false,
        },
        stdout,
        stderr: bytes(input.stderr),
      },
    ],
  };
  return judgeProviderTranscript(transcript).results;
}
