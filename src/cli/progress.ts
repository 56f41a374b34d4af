/**
 * Progress on stderr, never on stdout (the report goes there). On a terminal: one live line,
 * rewritten in place and cleared when done. Elsewhere (CI, a pipe, a file): one plain line
 * per finished scenario or provider phase, so a log shows the run moving. Nothing with --quiet.
 *
 * The plain lines have a stable form a log filter can rely on:
 *   awp-conformance: agent-cli (MODE) scenario NAME done in 3.2 s: 2 of 2 turns answered
 *   awp-conformance: agent-cli (MODE) scenario NAME stopped after 30.4 s: WHY
 *   awp-conformance: agent-cli (MODE) scenario NAME not run: WHY
 *   awp-conformance: provider phase PHASE done in 0.8 s: 12 calls
 */
import type { ScenarioStop } from "../core/agent-cli/scenarios.js";
import { secondsText } from "../core/printable.js";
import type { Purpose } from "../core/provider/types.js";

export type ProgressStyle = "off" | "live" | "lines";

export interface ProgressSink {
  write(text: string): void;
  columns?: number;
}

const PREFIX = "awp-conformance: ";

/** Milliseconds on a monotonic clock (a test hands in a fake one). */
export type Clock = () => number;

/** Live on a terminal (not in CI), plain lines elsewhere, nothing with --quiet. */
export function stderrStyle(quiet: boolean | undefined): ProgressStyle {
  if (quiet === true) return "off";
  return process.stderr.isTTY === true && process.env.CI === undefined ? "live" : "lines";
}

export class Progress {
  private readonly started: number;
  private last = -Infinity;
  private shown = false;

  constructor(
    readonly style: ProgressStyle,
    private readonly sink: ProgressSink = { write: (text) => void process.stderr.write(text), columns: process.stderr.columns },
    private readonly clock: Clock = () => performance.now(),
  ) {
    this.started = clock();
  }

  /** Live on a terminal (not in CI), plain lines elsewhere, nothing with --quiet. */
  static forStderr(quiet: boolean | undefined): Progress {
    return new Progress(stderrStyle(quiet));
  }

  /** The live line (terminal only): what the run is doing now. */
  update(text: string): void {
    if (this.style !== "live") return;
    const now = this.clock();
    if (now - this.last < 100) return;
    this.last = now;
    const elapsed = ((now - this.started) / 1000).toFixed(1);
    const line = `${PREFIX}${text} · ${elapsed} s`;
    // A terminal that reports no size (0 columns, as under script(1)) gets the usual 100.
    const width = this.sink.columns !== undefined && this.sink.columns > 0 ? this.sink.columns : 100;
    this.sink.write(`\r\u001b[2K${line.slice(0, Math.max(10, width - 1))}`);
    this.shown = true;
  }

  /** Something finished: a plain line off a terminal, the live line on one. */
  finished(text: string): void {
    if (this.style === "lines") this.sink.write(`${PREFIX}${text}\n`);
    else this.update(text);
  }

  done(): void {
    if (this.shown) this.sink.write("\r\u001b[2K");
    this.shown = false;
  }
}


/** Why a stopped scenario stopped, in a few words. */
function stopWords(stop: ScenarioStop): string {
  if (stop.cause === "run-timeout") return "the run reached --run-timeout";
  if (stop.cause === "interrupted") return `the kit was interrupted (${stop.signal ?? "SIGINT"})`;
  if (stop.cause === "never-answered") return "the CLI answered no turn of any scenario";
  return `${stop.turn ?? "a turn"} got no terminal event within ${stop.waitedMs ?? "?"} ms (${stop.bound ?? "--turn-timeout"})`;
}

/** The progress line of one finished agent-cli scenario. */
export function scenarioLine(mode: string, name: string, outcome: { ms: number; turns: number; answered: number; stop?: ScenarioStop }): string {
  const head = `agent-cli (${mode}) scenario ${name}`;
  const stop = outcome.stop;
  if (stop !== undefined && !stop.started) return `${head} not run: ${stopWords(stop)}`;
  if (stop !== undefined) return `${head} stopped after ${secondsText(outcome.ms)}: ${stopWords(stop)}`;
  return `${head} done in ${secondsText(outcome.ms)}: ${outcome.answered} of ${outcome.turns} turn${outcome.turns === 1 ? "" : "s"} answered`;
}

/** The phase of a provider request, for progress lines. */
export function providerPhase(purpose: Purpose): string {
  if (purpose === "describe") return "describe";
  if (purpose.startsWith("config-")) return "validate_config";
  if (purpose === "invoke" || purpose === "dialect") return "invoke";
  return "robustness";
}

/**
 * Turns provider exchanges into one line per finished phase: a phase is done when a request
 * of another phase starts, or when the run ends (flush).
 */
export class PhaseLines {
  private phase: string | undefined;
  private calls = 0;
  /** When the current phase began (the previous phase's last call ended), and when its last call ended. */
  private since = performance.now();
  private lastAt = this.since;

  constructor(private readonly progress: Progress) {}

  /** A call ended. */
  exchange(purpose: Purpose, seq: number, scenario: string): void {
    const phase = providerPhase(purpose);
    if (phase !== this.phase) this.flush();
    this.phase = phase;
    this.calls += 1;
    this.lastAt = performance.now();
    this.progress.update(`provider · call ${seq} · ${scenario}`);
  }

  /** The current phase ended (the next one began, or the run ended). */
  flush(): void {
    if (this.phase !== undefined) this.progress.finished(`provider phase ${this.phase} done in ${secondsText(this.lastAt - this.since)}: ${this.calls} call${this.calls === 1 ? "" : "s"}`);
    this.phase = undefined;
    this.calls = 0;
    this.since = this.lastAt;
  }
}
