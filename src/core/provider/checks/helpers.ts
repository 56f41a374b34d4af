import { positionAt } from "../../json/index.js";
import type { Evidence, Finding, Judgement, WireEntry } from "../../report/types.js";
import { isAnswered, readResponse } from "../response.js";
import type { JsonObject, ProviderExchange, ProviderTranscript } from "../types.js";

const EXCERPT = 240;

function text(bytes: Uint8Array, from: number, length = EXCERPT): string {
  const end = Math.min(bytes.length, from + length);
  const body = Buffer.from(bytes.subarray(from, end)).toString("utf8");
  return end < bytes.length ? `${body}…` : body;
}

/** Evidence for one exchange: the request head, stdout near `at`, and the stderr tail. */
export function exchangeEvidence(exchange: ProviderExchange, at?: number): Evidence[] {
  const evidence: Evidence[] = [
    { stream: "stdin", seq: exchange.seq, excerpt: text(exchange.request, 0) },
  ];
  const o = exchange.outcome;
  if (exchange.stdout.length > 0) {
    const offset = at ?? readResponse(exchange.stdout).start;
    const from = Math.max(0, offset - 60);
    const pos = positionAt(exchange.stdout, offset);
    evidence.push({ stream: "stdout", seq: exchange.seq, excerpt: text(exchange.stdout, from), offset, line: pos.line, column: pos.column });
  } else {
    evidence.push({ stream: "stdout", seq: exchange.seq, excerpt: "(empty)" });
  }
  const process = [
    o.spawnError ? `spawn failed: ${o.spawnError.code}` : `exit ${o.exitCode ?? "none"}${o.signal ? ` by ${o.signal}` : ""}`,
    `${Math.round(o.durationMs)} ms`,
    o.timedOut ? "killed at the deadline" : "",
    o.stdoutCapped ? `stdout over the cap (${o.stdoutBytes} bytes seen)` : "",
  ].filter((part) => part !== "");
  evidence.push({ stream: "process", seq: exchange.seq, excerpt: process.join(", ") });
  if (exchange.stderr.length > 0) {
    const from = Math.max(0, exchange.stderr.length - EXCERPT);
    evidence.push({ stream: "stderr", seq: exchange.seq, excerpt: text(exchange.stderr, from) });
  }
  return evidence;
}

const WIRE_TEXT = 4096;

function clip(bytes: Uint8Array, from: number, max: number): { text: string; truncated: boolean } {
  const start = Math.max(0, Math.min(from, bytes.length - max));
  const end = Math.min(bytes.length, start + max);
  const body = Buffer.from(bytes.subarray(start, end)).toString("utf8");
  return { text: `${start > 0 ? "…" : ""}${body}${end < bytes.length ? "…" : ""}`, truncated: start > 0 || end < bytes.length };
}

/** The exchange as a wire log: request, answer (around `at`), stderr, and how the process ended. */
export function exchangeWire(exchange: ProviderExchange, at?: number): WireEntry[] {
  const o = exchange.outcome;
  const end = Math.round(o.durationMs);
  const request = clip(exchange.request, 0, WIRE_TEXT);
  const wire: WireEntry[] = [{ t: 0, stream: "host", text: `spawn, one request on stdin (${exchange.request.length} bytes), stdin closed` }, { t: 0, stream: "stdin", text: request.text, ...(request.truncated ? { truncated: true } : {}) }];
  if (exchange.stdout.length > 0) {
    const out = clip(exchange.stdout, Math.max(0, (at ?? 0) - WIRE_TEXT / 2), WIRE_TEXT);
    wire.push({ t: end, stream: "stdout", text: out.text, highlight: true, ...(out.truncated ? { truncated: true } : {}) });
  }
  if (exchange.stderr.length > 0) {
    const err = clip(exchange.stderr, exchange.stderr.length - WIRE_TEXT, WIRE_TEXT);
    wire.push({ t: end, stream: "stderr", text: err.text, ...(err.truncated ? { truncated: true } : {}) });
  }
  wire.push({ t: end, stream: "process", text: o.spawnError ? `spawn failed: ${o.spawnError.code}` : `${o.timedOut ? "killed at the deadline, " : ""}exit ${o.exitCode ?? "none"}${o.signal ? ` by ${o.signal}` : ""} after ${end} ms` });
  return wire;
}

export interface FindingDetail {
  expected?: string;
  seen?: string;
  /** Byte offset in stdout the finding is about. */
  at?: number;
}

export function finding(clause: string, exchange: ProviderExchange, message: string, detail: FindingDetail = {}): Finding {
  const result: Finding = {
    clause,
    message,
    requestId: exchange.requestId,
    scenario: exchange.scenario,
    evidence: exchangeEvidence(exchange, detail.at),
    wire: exchangeWire(exchange, detail.at),
    foundBy: exchange.foundBy ?? "scenario",
  };
  if (detail.expected !== undefined) result.expected = detail.expected;
  if (detail.seen !== undefined) result.seen = detail.seen;
  return result;
}

export type Unjudged = Extract<Judgement, { outcome: "skip" | "not-applicable" }>;

/** Judges each item; no items gives the `none` outcome (skip or not-applicable, with its reason). */
export function judgeEach<T>(items: readonly T[], judge: (item: T) => Finding[], none: Unjudged): Judgement {
  if (items.length === 0) return none;
  return { outcome: "judged", judged: items.length, findings: items.flatMap(judge) };
}

export function skip(reason: string): Unjudged {
  return { outcome: "skip", reason };
}

export function notApplicable(reason: string): Unjudged {
  return { outcome: "not-applicable", reason };
}

export function isHostile(exchange: ProviderExchange): boolean {
  return exchange.purpose.startsWith("hostile:");
}

/**
 * Well-formed requests the kit sent, less those refused only for their digest dialect (the
 * same request bound in another dialect was accepted): provider/invoke/digest-dialects judges those.
 */
export function validExchanges(t: ProviderTranscript): ProviderExchange[] {
  return t.exchanges.filter((e) => !isHostile(e) && e.dialectRefused !== true);
}

/** Invocations the kit sent as well-formed requests: the matrix, the dialect and tight-budget probes, hostile controls. */
export function isInvocation(e: ProviderExchange): boolean {
  return e.method === "invoke" && (e.purpose === "invoke" || e.purpose === "dialect" || e.purpose === "control" || e.purpose === "tight-budget");
}

/** Well-formed requests whose stdout the Host would read (exit 0, on time, within the cap). */
export function answeredExchanges(t: ProviderTranscript): ProviderExchange[] {
  return validExchanges(t).filter(isAnswered);
}

/** Answered exchanges paired with their response object. */
export function responses(t: ProviderTranscript): { exchange: ProviderExchange; response: JsonObject }[] {
  const pairs: { exchange: ProviderExchange; response: JsonObject }[] = [];
  for (const exchange of answeredExchanges(t)) {
    const response = readResponse(exchange.stdout).object;
    if (response !== undefined) pairs.push({ exchange, response });
  }
  return pairs;
}

export function show(value: unknown): string {
  if (value === undefined) return "(absent)";
  const shown = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  return shown.length > 120 ? `${shown.slice(0, 119)}…` : shown;
}

export const NO_ANSWER = skip(
  "no well-formed request was answered with exit 0 and a readable stdout: make the Provider print its answer on stdout and exit 0 (see provider/transport/valid-request-exits-zero)",
);
