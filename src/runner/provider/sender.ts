import { performance } from "node:perf_hooks";
import { KitError } from "../../core/errors.js";
import { interrupted, type InterruptSignal } from "../../core/interrupt.js";
import { canonicalJsonParts, DEFAULT_DIGEST_DIALECT, DIGEST_DIALECTS, wireBytes, type DigestDialectId } from "../../core/json/index.js";
import { dialectSensitive, sha256Hex } from "../../core/provider/digest.js";
import { bind } from "../../core/provider/requests.js";
import { gotFurther, refusedForBinding, responseObject } from "../../core/provider/response.js";
import type { JsonObject, ProviderExchange, ProviderTranscript, Purpose } from "../../core/provider/types.js";
import { assertKitRequest } from "../../core/provider/validate.js";
import { callProvider, type CallOptions, type ProviderCall } from "./call.js";

export interface Sent {
  purpose: Purpose;
  scenario: string;
  method: string;
  requestId: string;
  bytes: Uint8Array;
  value?: JsonObject;
  budgetMs?: number;
  controlSeq?: number;
  controlLabel?: string;
  plainSeq?: number;
  digestDialect?: DigestDialectId;
}

export interface SenderOptions extends CallOptions {
  argv: string[];
  onExchange?: (exchange: ProviderExchange) => void;
  /** performance.now() of --run-timeout: no call starts after it, and a call still running then is ended. */
  deadline?: number;
  /** How a call is made (default callProvider; tests stand in for it). */
  call?: ProviderCall;
}

/** One call of a batch (ProviderSender.batch): what it sends, and for a probe the call of the same batch that is its control. */
export interface BatchItem extends Sent {
  control?: Sent;
}

/** Thrown by a call once the run reached --run-timeout; the driver stops sending and the run judges what it has. */
export class RunTimedOut extends Error {
  constructor(message = "the run reached --run-timeout") {
    super(message);
  }
}

/**
 * Thrown by a call once the kit was interrupted (core/interrupt.ts): no call starts after it, and
 * one that comes back after it is dropped, not judged (the launcher may have ended its process).
 * The driver stops sending as at --run-timeout.
 */
export class RunInterrupted extends RunTimedOut {
  constructor(readonly signal: InterruptSignal) {
    super(`the kit was interrupted (${signal})`);
  }
}

/** Throws RunInterrupted once the kit was interrupted. */
function checkInterrupt(): void {
  const signal = interrupted();
  if (signal !== undefined) throw new RunInterrupted(signal);
}

/** The Host's view of an answer: exit 0, on time, and a response object with status ok. */
export function acceptedOk(e: ProviderExchange | undefined): boolean {
  return e !== undefined && responseObject(e)?.status === "ok";
}

/**
 * What a request means apart from its request_id and input_digest: equal shapes are the same
 * request. The SHA-256 of its canonical text, hashed in parts (a megabyte request is neither
 * copied into one text nor kept as a key).
 */
export function shapeOf(value: JsonObject): string {
  const { request_id: _id, input_digest: _digest, ...rest } = value;
  return sha256Hex(canonicalJsonParts(rest));
}

/**
 * Sends requests to the Provider, one process each, and records them in the transcript. Keeps
 * the digest dialect invocations are bound in: it starts as the kit's default and becomes the
 * Provider's own when the Provider refuses an invocation the dialects disagree about and
 * accepts the same request bound in another dialect.
 */
export class ProviderSender {
  dialect: DigestDialectId = DEFAULT_DIGEST_DIALECT;
  private readonly byShape = new Map<string, ProviderExchange>();

  constructor(
    private readonly options: SenderOptions,
    private readonly transcript: ProviderTranscript,
  ) {}

  async call(sent: Sent): Promise<ProviderExchange> {
    const exchange = await this.exchangeOf(sent, () => this.transcript.exchanges.length + 1);
    this.record(exchange);
    return exchange;
  }

  /**
   * Sends calls whose requests do not depend on each other's answers, up to `jobs` at once. Each
   * gets the seq it has when they go one after another (a probe's controlSeq is its `control`'s,
   * taken before it),
   * and the transcript and onExchange get them in that order as they come back, so what a run
   * records does not depend on `jobs`. When a call fails (or the run reaches --run-timeout), no
   * other starts; the calls before the first that did not come back are kept, the others dropped.
   */
  async batch(items: Iterable<BatchItem>, jobs: number): Promise<ProviderExchange[]> {
    const base = this.transcript.exchanges.length;
    // Taken one by one as a call can go: an item made when taken is made while other calls are out.
    const source = items[Symbol.iterator]();
    const done: (ProviderExchange | undefined)[] = [];
    const seqOf = new Map<Sent, number>();
    let taken = 0;
    let recorded = 0;
    let ended = false;
    let failure: { error: unknown } | undefined;
    const worker = async (): Promise<void> => {
      while (failure === undefined && !ended) {
        const at = taken;
        let item: IteratorResult<BatchItem>;
        try {
          item = source.next();
        } catch (error) {
          failure ??= { error };
          return;
        }
        if (item.done === true) {
          ended = true;
          return;
        }
        taken++;
        const { control, ...sent } = item.value;
        seqOf.set(item.value, base + at + 1);
        try {
          const controlSeq = control === undefined ? undefined : seqOf.get(control);
          if (control !== undefined && controlSeq === undefined) throw new KitError("kit_bug", "a probe of a batch came before its control");
          done[at] = await this.exchangeOf(controlSeq === undefined ? sent : { ...sent, controlSeq }, () => base + at + 1);
        } catch (error) {
          failure ??= { error };
          return;
        }
        for (let e = done[recorded]; e !== undefined; e = done[recorded]) {
          this.record(e);
          recorded++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
    if (failure !== undefined) throw failure.error;
    return done as ProviderExchange[];
  }

  /** One call, not yet recorded: `seq` gives its number once it came back. */
  private async exchangeOf(sent: Sent, seq: () => number): Promise<ProviderExchange> {
    const { argv, onExchange: _onExchange, deadline, call = callProvider, ...callOptions } = this.options;
    const left = deadline === undefined ? Infinity : Math.floor(deadline - performance.now());
    if (left <= 0) throw new RunTimedOut();
    checkInterrupt();
    // A call that would outlast the run is cut at the deadline; cut, it is no answer to judge and is dropped.
    const cut = left < callOptions.timeoutMs;
    let answer: Awaited<ReturnType<ProviderCall>>;
    try {
      answer = await call(argv, sent.bytes, cut ? { ...callOptions, timeoutMs: left } : callOptions);
    } catch (error) {
      // Interrupted, the launchers may be gone (a signal to the whole process group): that is the interruption.
      checkInterrupt();
      throw error;
    }
    checkInterrupt();
    const { stdout, stderr, outcome } = answer;
    if (cut && outcome.timedOut) throw new RunTimedOut();
    const number = seq();
    // The run's first call could not start the candidate: no call will.
    if (outcome.spawnError !== undefined && number === 1) {
      throw new KitError("candidate_not_found", `cannot start ${argv[0]}: ${outcome.spawnError.code} ${outcome.spawnError.message}`);
    }
    return {
      seq: number,
      scenario: sent.scenario,
      purpose: sent.purpose,
      method: sent.method,
      requestId: sent.requestId,
      request: sent.bytes,
      timeoutMs: callOptions.timeoutMs,
      outcome,
      stdout,
      stderr,
      ...(sent.value ? { requestValue: sent.value } : {}),
      ...(sent.budgetMs !== undefined ? { budgetMs: sent.budgetMs } : {}),
      ...(sent.controlSeq !== undefined ? { controlSeq: sent.controlSeq } : {}),
      ...(sent.controlLabel !== undefined ? { controlLabel: sent.controlLabel } : {}),
      ...(sent.plainSeq !== undefined ? { plainSeq: sent.plainSeq } : {}),
      ...(sent.digestDialect !== undefined ? { digestDialect: sent.digestDialect } : {}),
    };
  }

  /** Adds a call that came back to the transcript (in seq order) and to the shapes sent. */
  private record(exchange: ProviderExchange): void {
    this.transcript.exchanges.push(exchange);
    const value = exchange.requestValue;
    if (value !== undefined && !exchange.purpose.startsWith("hostile:")) {
      const shape = shapeOf(value);
      if (!acceptedOk(this.byShape.get(shape))) this.byShape.set(shape, exchange);
    }
    this.options.onExchange?.(exchange);
  }

  /** An earlier well-formed request of this shape (shapeOf: exactly the request apart from request_id and input_digest). */
  sentBefore(shape: string): ProviderExchange | undefined {
    return this.byShape.get(shape);
  }

  /** Sends a well-formed request the kit built (invocations bound in `dialect`, default the current one). */
  send(purpose: Purpose, scenario: string, value: JsonObject, extra: Partial<Sent> = {}, dialect?: DigestDialectId): Promise<ProviderExchange> {
    return this.call(this.sentOf(purpose, scenario, value, extra, dialect));
  }

  /** What send sends, without sending it (for batch). */
  sentOf(purpose: Purpose, scenario: string, value: JsonObject, extra: Partial<Sent> = {}, dialect?: DigestDialectId): Sent {
    const invoke = value.method === "invoke";
    const chosen = dialect ?? this.dialect;
    const request = invoke ? bind(value, chosen) : value;
    assertKitRequest(request);
    return {
      purpose,
      scenario,
      method: String(request.method),
      requestId: String(request.request_id),
      bytes: wireBytes(request),
      value: request,
      ...(invoke ? { digestDialect: chosen } : {}),
      ...extra,
    };
  }

  /**
   * Sends a well-formed request; when it is an invocation the dialects disagree about and the
   * Provider refuses it, sends it again bound in each other dialect. The first that gets further
   * (an ok answer, or any answer where the first got a failed exit) becomes the dialect for what
   * follows, and the refusal is marked as a dialect refusal.
   */
  async valid(purpose: Purpose, scenario: string, value: JsonObject, extra: Partial<Sent> = {}): Promise<ProviderExchange> {
    const first = await this.send(purpose, scenario, value, extra);
    if (value.method !== "invoke" || acceptedOk(first) || !dialectSensitive(first.request)) return first;
    for (const other of DIGEST_DIALECTS.filter((d) => d.id !== first.digestDialect)) {
      const retry = await this.send(purpose, `${scenario} (bound in the ${other.id} dialect)`, { ...value, request_id: `${String(value.request_id)}-${other.id}` }, extra, other.id);
      if (gotFurther(retry, first)) {
        first.dialectRefused = true;
        this.adopt(other.id);
        return retry;
      }
      // A policy error in the Provider's own dialect and a binding refusal in this one: not a failed valid request.
      if (refusedForBinding(retry, first)) retry.dialectRefused = true;
    }
    return first;
  }

  /** Binds what follows in `dialect`, and says so in the report's notes. */
  adopt(dialect: DigestDialectId): void {
    if (dialect === this.dialect) return;
    this.transcript.context.notes.push(`The Provider refused invocations bound in the ${this.dialect} digest dialect and accepted them in ${dialect}: the kit bound the remaining invocations in ${dialect}.`);
    this.dialect = dialect;
  }
}
