/**
 * Progress of a fuzz campaign on stderr (never stdout: the report goes there). On a terminal:
 * one live line, rewritten in place as cases are judged, cleared when done. Elsewhere (CI, a
 * pipe, a file): one plain line every 10 s, so a long campaign shows it is moving, and one
 * when it ends. Nothing with --quiet. The plain lines have a stable form:
 *   awp-conformance: fuzz provider: 340 cases, 33.8 cases/s, 0 failing clauses, 10.0 s
 *   awp-conformance: fuzz provider: shrinking the failure of CLAUSE (1 of 2), 61.2 s
 *   awp-conformance: fuzz provider done: 1900 cases in 61.0 s (31.1 cases/s), 1 failing clause
 */
import type { FuzzProgressHook } from "../fuzz/types.js";
import { Progress, stderrStyle, type Clock, type ProgressSink, type ProgressStyle } from "./progress.js";

/** How often a plain line is written off a terminal. */
export const FUZZ_LINE_EVERY_MS = 10_000;
/** How often the campaign is looked at between cases (a slow session, shrinking). */
const TICK_MS = 1000;

export class FuzzProgress implements FuzzProgressHook {
  private readonly progress: Progress;
  private readonly started: number;
  private lastLine: number;
  private done = 0;
  private failing = 0;
  private shrink: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly style: ProgressStyle,
    private readonly label: string,
    private readonly sink: ProgressSink = { write: (text) => void process.stderr.write(text), columns: process.stderr.columns },
    private readonly clock: Clock = () => performance.now(),
  ) {
    this.progress = new Progress(style, sink, clock);
    this.started = clock();
    this.lastLine = this.started;
  }

  /** For `fuzz` and for `run` with fuzzing: live on a terminal, plain lines elsewhere, nothing with --quiet. Ticks on its own timer. */
  static forStderr(quiet: boolean | undefined, protocol: string): FuzzProgress {
    const progress = new FuzzProgress(stderrStyle(quiet), `fuzz ${protocol}`);
    progress.startTimer();
    return progress;
  }

  cases(done: number, failingClauses: number): void {
    this.done = done;
    this.failing = failingClauses;
    this.progress.update(this.state());
    this.tick();
  }

  shrinking(clause: string, at: number, of: number): void {
    this.shrink = `shrinking the failure of ${clause}${of > 1 ? ` (${at} of ${of})` : ""}`;
    this.progress.update(this.state());
  }

  /** Writes the plain line when FUZZ_LINE_EVERY_MS passed since the last one (and refreshes the live line). */
  tick(): void {
    if (this.ended) return;
    const now = this.clock();
    if (this.style === "live") this.progress.update(this.state());
    if (this.style !== "lines" || now - this.lastLine < FUZZ_LINE_EVERY_MS) return;
    this.lastLine = now;
    this.sink.write(`awp-conformance: ${this.state()}, ${this.seconds(now)}\n`);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.progress.done();
    if (this.style !== "lines") return;
    const ms = this.clock() - this.started;
    this.sink.write(`awp-conformance: ${this.label} done: ${this.caseCount()} in ${this.seconds(this.clock())} (${this.rate(ms)} cases/s), ${this.failures()}\n`);
  }

  private startTimer(): void {
    if (this.style === "off") return;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    // The campaign's own work keeps the process alive, never this timer.
    this.timer.unref();
  }

  private state(): string {
    if (this.shrink !== undefined) return `${this.label}: ${this.shrink}`;
    return `${this.label}: ${this.caseCount()}, ${this.rate(this.clock() - this.started)} cases/s, ${this.failures()}`;
  }

  private caseCount(): string {
    return `${this.done} case${this.done === 1 ? "" : "s"}`;
  }

  private failures(): string {
    return `${this.failing} failing clause${this.failing === 1 ? "" : "s"}`;
  }

  private rate(ms: number): string {
    return ms <= 0 ? "0.0" : ((this.done * 1000) / ms).toFixed(1);
  }

  private seconds(now: number): string {
    return `${((now - this.started) / 1000).toFixed(1)} s`;
  }
}
