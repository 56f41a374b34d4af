/**
 * Provider cases made ahead in a thread of their own (issue 30): generating a case (fast-check,
 * building and binding up to 1 MiB of request) cost the campaign's thread about as much CPU
 * per call as the launchers, on the thread that also sends the calls and judges them. The
 * generator thread (generator-worker.ts) runs the very fast-check run the campaign would run
 * here (CaseStream: the same seed and range, the same cases in the same order, so the same
 * reports) and keeps a bounded queue of ready cases filled: at most `ahead` cases wait, with
 * their request bytes, and a case's bytes are moved here, not copied.
 *
 * Where the thread cannot start (its compiled entry is missing: the kit run from its sources),
 * the cases are made here, as before.
 *
 * Not the default (provider-run.ts): on a 2-core machine whose cores the launchers and the
 * candidates already keep busy, it halves the main thread's CPU per call but does not shorten
 * the campaign, and the thread's own heap adds about 75 MB to the peak RSS (issue 30's
 * measurements). It is for a spawner that leaves the main thread the wall.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { CaseStream, type CaseSource, type Taken } from "../cases.js";
import type { ProviderCase, ProviderFuzzContext } from "../types.js";
import { providerCaseArb } from "./hostile.js";
import { unpackCase, type PackedCase } from "./packed.js";

/** Cases made ahead of the campaign: enough to cover a slow case, few enough to keep the memory bound (a case can hold 2 MiB). */
export const CASES_AHEAD = 4;

export interface GeneratorJob {
  ctx: ProviderFuzzContext;
  seed: number;
  from: number;
  to: number;
  ahead: number;
}

/** What the campaign tells the generator: a case was taken (room for one more), or no more are wanted. */
export type ToGenerator = { type: "taken" } | { type: "stop" };
/** What the generator sends: a case, the end of its range, or the error that ended it. */
export type ToCampaign = { type: "case"; index: number; packed: PackedCase } | { type: "end" } | { type: "error"; message: string; stack?: string };

const ENTRY = new URL("./generator-worker.js", import.meta.url);

/** How the campaign's cases are made: "thread" (ahead, in the generator thread) or "main" (here, each as the one before is taken). */
export type GeneratorMode = "thread" | "main";

/** The cases `from` to `to - 1` of a seed, made in the generator thread when it can start, else here. */
export function generatedCases(ctx: ProviderFuzzContext, seed: number, from: number, to: number, mode: GeneratorMode): CaseSource<ProviderCase> {
  if (mode === "thread" && to > from && existsSync(fileURLToPath(ENTRY))) return new ThreadCases({ ctx, seed, from, to, ahead: CASES_AHEAD });
  return new CaseStream(providerCaseArb(ctx), seed, from, to);
}

class ThreadCases implements CaseSource<ProviderCase> {
  private readonly worker: Worker;
  private readonly ready: Taken<ProviderCase>[] = [];
  private readonly waiting: { resolve: (taken: Taken<ProviderCase> | undefined) => void; reject: (error: Error) => void }[] = [];
  private ended = false;
  private stopped = false;
  private failure: Error | undefined;

  constructor(job: GeneratorJob) {
    this.worker = new Worker(ENTRY, { workerData: job, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    this.worker.on("message", (message: ToCampaign) => this.receive(message));
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", () => this.end());
  }

  take(): Promise<Taken<ProviderCase> | undefined> {
    const taken = this.ready.shift();
    if (taken !== undefined) {
      this.tell({ type: "taken" });
      return Promise.resolve(taken);
    }
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.ended || this.stopped) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  stop(): void {
    if (this.stopped) return;
    this.tell({ type: "stop" });
    this.stopped = true;
    this.ready.length = 0;
    void this.worker.terminate();
    this.release();
  }

  private tell(message: ToGenerator): void {
    if (!this.ended) this.worker.postMessage(message);
  }

  private receive(message: ToCampaign): void {
    if (message.type === "end") return this.end();
    if (message.type === "error") {
      const failure = new Error(message.message);
      if (message.stack !== undefined) failure.stack = message.stack;
      return this.fail(failure);
    }
    if (this.stopped) return;
    const taken = { value: unpackCase(message.packed), index: message.index };
    const waiting = this.waiting.shift();
    if (waiting === undefined) this.ready.push(taken);
    else {
      this.tell({ type: "taken" });
      waiting.resolve(taken);
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.end();
  }

  private end(): void {
    this.ended = true;
    this.release();
  }

  /** Takers still waiting get no case, or the failure. */
  private release(): void {
    for (const { resolve, reject } of this.waiting.splice(0)) {
      if (this.failure !== undefined && !this.stopped) reject(this.failure);
      else resolve(undefined);
    }
  }
}
