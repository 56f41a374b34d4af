import { performance } from "node:perf_hooks";
import { renderDirective } from "../../servers/index.js";
import { isTerminalLine, looksLikeRefusal } from "./terminal.js";
import { desktopArgv, expandPlaceholders, type LaunchConfig, type LaunchExtras, childEnvironment } from "../../core/agent-cli/launch.js";
import type { Directive, TranscriptEvent } from "../../core/agent-cli/types.js";
import { DEFAULT_BOUNDS, SHORT_QUIET_MS, type ScenarioName, type ScenarioStop, type StopCause } from "../../core/agent-cli/scenarios.js";
import { recordFixtures } from "./fixture-events.js";
import { LiveSession, type ExitInfo, type HostSignal, type StdoutLine } from "./session.js";
import { ScenarioStopped, type Block, type ScenarioSetup } from "./scenario-setup.js";
import { interrupted } from "../../core/interrupt.js";

export { ScenarioStopped, type Block, type ScenarioSetup } from "./scenario-setup.js";

/** The note a scenario stopped from outside records, by why the run stopped it. */
const ABORT_NOTES: Readonly<Record<Exclude<StopCause, "unanswered">, string>> = {
  "run-timeout": "the run reached --run-timeout: the kit stops this scenario",
  "never-answered": "the CLI answered no turn of any scenario: the kit stops this scenario",
  interrupted: "the kit was interrupted: it stops this scenario",
};

/**
 * How long the kit lets a process that looks like it refused to start end by itself before it
 * stops it (the reference's refusal ends within milliseconds of its answer; the kit's choice).
 */
const REFUSAL_SETTLE_MS = 1000;

/** How often waitForModelRequest looks at the fixture's record. */
const MODEL_POLL_MS = 25;

/** What a scenario uses to drive the candidate; it records every event into one transcript. */
export class ScenarioContext {
  readonly events: TranscriptEvent[] = [];
  private readonly origin = performance.now();
  private readonly sessions: LiveSession[] = [];
  /** performance.now() at each session's launch (the fixture's receivedAt uses the same clock). */
  private readonly launchedAt = new Map<LiveSession, number>();
  private unsubscribe: () => void;
  private stopped: ScenarioStop | undefined;
  /** User turns this scenario wrote so far (the N of "turn N"). */
  private turnsSent = 0;

  constructor(readonly setup: ScenarioSetup) {
    this.unsubscribe = recordFixtures(setup, this.origin, this.clock, (event) => this.record({ ...event, process: Math.max(1, this.sessions.length) }));
  }

  clock = (): number => Math.round((performance.now() - this.origin) * 10) / 10;

  record(event: TranscriptEvent): void {
    this.events.push(event);
  }

  note(text: string): void {
    this.record({ kind: "note", t: this.clock(), process: Math.max(1, this.sessions.length), text });
  }

  get turnTimeoutMs(): number {
    return this.setup.turnTimeoutMs;
  }

  /** --stall-timeout: the wait for a failure probe's failing turn. */
  get stallTimeoutMs(): number {
    return this.setup.bounds?.stallTimeoutMs ?? DEFAULT_BOUNDS.stallTimeoutMs;
  }

  /** --quiet-window: the long watch of stdout after one launch. */
  get quietWindowMs(): number {
    return this.setup.bounds?.quietWindowMs ?? DEFAULT_BOUNDS.quietWindowMs;
  }

  /** --shutdown-timeout: how long the process may take to exit after {"type":"shutdown"}. */
  get shutdownTimeoutMs(): number {
    return this.setup.bounds?.shutdownTimeoutMs ?? DEFAULT_BOUNDS.shutdownTimeoutMs;
  }

  /** Why the kit ran none of the scenario's later steps, once it stopped it. */
  get stop(): ScenarioStop | undefined {
    return this.stopped;
  }

  /** True when any process of the scenario wrote a stdout line that is a JSON object. */
  spokeJson(): boolean {
    return this.sessions.some((s) =>
      s.lines.some((l) => {
        const json = l.json;
        return json !== null && typeof json === "object" && !Array.isArray(json);
      }),
    );
  }

  /** Throws ScenarioStopped once the scenario is stopped: call it between steps. */
  guard(): void {
    if (this.stopped !== undefined) throw new ScenarioStopped(this.stopped);
  }

  /**
   * Stops the scenario from outside (the run stopped): every process is ended now, pending
   * waits settle, and the next step throws. A scenario already stopped keeps its own cause.
   */
  abort(cause: Exclude<StopCause, "unanswered">): Promise<void> {
    if (this.stopped === undefined) {
      const signal = cause === "interrupted" ? interrupted() : undefined;
      this.stopped = { scenario: this.scenarioName(), cause, started: true, ...(signal !== undefined ? { signal } : {}) };
      this.note(ABORT_NOTES[cause]);
    }
    return Promise.all(this.sessions.map((s) => s.stop())).then(() => undefined);
  }

  private scenarioName(): ScenarioName {
    // The fuzzer's sessions never stop this way; only the kit's scenarios are named in stops.
    return this.setup.name as ScenarioName;
  }

  /** Launches the candidate as the Desktop would (a new process number each time), with the scenario's configuration or `config`. */
  async launch(extras: LaunchExtras = {}, config: LaunchConfig = this.setup.config): Promise<LiveSession> {
    const { placeholders, launcherEnv, home, cwd } = this.setup;
    const expand = (text: string): string => expandPlaceholders(text, placeholders);
    const argv = desktopArgv({ ...config, prefixArgs: config.prefixArgs.map(expand) }, extras);
    const entries = Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, expand(v)]));
    const launchedAt = performance.now();
    const session = await LiveSession.start({
      argv,
      cwd,
      env: childEnvironment(launcherEnv, home, entries),
      process: this.sessions.length + 1,
      clock: this.clock,
      onEvent: (event) => this.record(event),
      ...(this.setup.outputBudget !== undefined ? { budget: this.setup.outputBudget } : {}),
    });
    this.sessions.push(session);
    this.launchedAt.set(session, launchedAt);
    return session;
  }

  /** Launches, then watches stdout for `quietMs` before the first line is written (output then breaks silence). */
  async start(extras: LaunchExtras = {}, quietMs = SHORT_QUIET_MS, config?: LaunchConfig): Promise<LiveSession> {
    this.guard();
    const session = await this.launch(extras, config);
    this.guard();
    await session.waitQuiet(quietMs);
    this.guard();
    return session;
  }

  /** A user line: the prompt with the directive appended as text, plus any extra blocks. */
  userLine(prompt: string, directive: Directive | undefined, extra: Block[] = [], textFirst = true): string {
    const text = directive === undefined ? prompt : `${prompt} ${renderDirective(directive)}`;
    const blocks: Block[] = textFirst ? [{ type: "text", text }, ...extra] : extra;
    return JSON.stringify({ type: "user", message: { role: "user", content: blocks } });
  }

  /** Writes one line and waits (bounded) for the terminal event that answers it; no stop when none comes (optional answers, fuzzing). */
  async exchange(session: LiveSession, line: string, label: string, timeoutMs = this.turnTimeoutMs): Promise<StdoutLine | undefined> {
    this.guard();
    const from = session.lines.length;
    if (!session.send(line)) return undefined;
    const terminal = await session.waitForLine(isTerminalLine, { from, timeoutMs, label });
    this.guard();
    return terminal;
  }

  /** A user turn: prompt + directive, waiting for its terminal event; the scenario stops when none comes in time. */
  turn(session: LiveSession, prompt: string, directive: Directive, extra: Block[] = []): Promise<StdoutLine | undefined> {
    return this.ask(session, this.userLine(prompt, directive, extra), directive.turn ?? "?");
  }

  /**
   * Writes one user turn and waits (bounded) for its terminal event. When the wait runs out
   * while the process still runs, the scenario stops there (ScenarioStopped): its later
   * steps would only queue behind the unanswered turn. An exit ends the wait without a stop.
   */
  async ask(session: LiveSession, line: string, name: string, timeoutMs = this.turnTimeoutMs, bound: "--turn-timeout" | "--stall-timeout" = "--turn-timeout"): Promise<StdoutLine | undefined> {
    this.guard();
    const from = session.lines.length;
    const n = ++this.turnsSent;
    if (!session.send(line)) return undefined;
    return this.awaitTerminal(session, from, `turn ${n} (${name})`, timeoutMs, bound);
  }

  /** Waits (bounded) for the terminal event of a turn already written; stops the scenario like ask(). */
  async awaitTerminal(session: LiveSession, from: number, turn: string, timeoutMs = this.turnTimeoutMs, bound: "--turn-timeout" | "--stall-timeout" = "--turn-timeout"): Promise<StdoutLine | undefined> {
    this.guard();
    const terminal = await session.waitForLine(isTerminalLine, { from, timeoutMs, label: `the terminal event of ${turn}` });
    this.guard();
    if (terminal !== undefined || session.exit !== undefined) return terminal;
    return this.unanswered(turn, timeoutMs, bound);
  }

  /**
   * A failure probe's failing turn: its terminal event may take up to --stall-timeout (the
   * CLI may retry or wait on the failing model as it likes), counted from when its request
   * reached the model. A CLI that neither calls the model nor ends the turn within
   * --turn-timeout is an unanswered turn like any other, and the probe stops there. (The
   * stall bound used to run from the send: a CLI slow to start, or a loaded machine, could
   * use it up before the model ever failed, and the probe then judged nothing.)
   */
  async askFailing(session: LiveSession, line: string, tag: string): Promise<StdoutLine | undefined> {
    this.guard();
    const from = session.lines.length;
    const turn = `turn ${++this.turnsSent} (${tag})`;
    if (!session.send(line)) return undefined;
    const answered = (): boolean => session.lines.slice(from).some(isTerminalLine);
    const reached = await this.waitForModelRequest(session, tag, this.turnTimeoutMs, answered);
    if (!reached && !answered() && session.exit === undefined) {
      this.record({ kind: "timeout", t: this.clock(), process: Math.max(1, this.sessions.length), waitingFor: `the terminal event of ${turn} (its request never reached the model)`, afterMs: this.turnTimeoutMs });
      return this.unanswered(turn, this.turnTimeoutMs, "--turn-timeout");
    }
    // Answered already, or exited: the wait returns at once.
    const terminal = await session.waitForLine(isTerminalLine, { from, timeoutMs: this.stallTimeoutMs, label: `the terminal event of ${turn}` });
    this.guard();
    if (terminal !== undefined || session.exit !== undefined) return terminal;
    return this.unanswered(turn, this.stallTimeoutMs, "--stall-timeout");
  }

  /** The kit gave up on `turn`: the scenario stops here (the run is told of a --turn-timeout wait). */
  private unanswered(turn: string, waitedMs: number, bound: "--turn-timeout" | "--stall-timeout"): never {
    this.stopped = { scenario: this.scenarioName(), cause: "unanswered", turn, waitedMs, bound, started: true };
    this.note(`${turn} got no terminal event within ${waitedMs} ms (${bound}): the kit runs none of the scenario's later steps`);
    if (bound === "--turn-timeout") this.setup.onUnanswered?.(this);
    throw new ScenarioStopped(this.stopped);
  }

  /** The next user turn's number (for turns written without ask(), e.g. queued ones). */
  countTurn(): number {
    return ++this.turnsSent;
  }

  /** Writes a line (not a turn); false when it could not be written. */
  send(session: LiveSession, line: string): boolean {
    this.guard();
    return session.send(line);
  }

  closeStdin(session: LiveSession): void {
    this.guard();
    session.closeStdin();
  }

  signal(session: LiveSession, signal: HostSignal): void {
    this.guard();
    session.signal(signal);
  }

  /** Waits (bounded) for the exit; throws when the scenario was stopped meanwhile. */
  async waitExit(session: LiveSession, timeoutMs: number, label: string): Promise<ExitInfo | undefined> {
    this.guard();
    const exit = await session.waitExit(timeoutMs, label);
    this.guard();
    return exit;
  }

  /**
   * Waits (bounded, polling the fixture) until the model has received a request of turn
   * `tag`, the process exited, or `over()` says the turn ended; true when the request came.
   */
  async waitForModelRequest(session: LiveSession, tag: string, timeoutMs: number, over: () => boolean = () => false): Promise<boolean> {
    const until = performance.now() + timeoutMs;
    while (performance.now() < until && session.exit === undefined && !over()) {
      if (this.setup.fixture.calls().some((call) => call.directive?.turn === tag)) return true;
      await new Promise((resolve) => setTimeout(resolve, MODEL_POLL_MS));
    }
    this.guard();
    return this.setup.fixture.calls().some((call) => call.directive?.turn === tag);
  }

  /** Still running, and all it did looks like a refused start (terminal.ts). */
  private looksRefused(session: LiveSession): boolean {
    return session.exit === undefined && looksLikeRefusal(session.lines, this.setup.fixture.calls(), this.launchedAt.get(session) ?? 0);
  }

  /** The first session_id the process reported. */
  sessionId(session: LiveSession): string | undefined {
    for (const line of session.lines) {
      const json = line.json as { session_id?: unknown } | undefined;
      if (json !== null && typeof json === "object" && typeof json.session_id === "string") return json.session_id;
    }
    return undefined;
  }

  /**
   * Stops every process of the scenario, then its fixtures, then the fixture subscription;
   * always bounded. A model call is recorded when it finishes: a call still open when the
   * processes stop (a stalled stream) finishes when its socket closes or the fixture closes,
   * and is recorded only while the scenario listens. Left to the socket's close event, a loaded
   * machine could lose it, and the failure probe then judged nothing. The fixtures are this
   * scenario's own; closing them again later does nothing.
   */
  async finish(): Promise<void> {
    // A process refusing to start ends itself right after its answer: let it, rather than stop it first.
    await Promise.all(this.sessions.filter((s) => this.looksRefused(s)).map((s) => s.waitQuiet(REFUSAL_SETTLE_MS)));
    await Promise.all(this.sessions.map((s) => s.stop()));
    try {
      await Promise.all([this.setup.fixture.close(), this.setup.controlPlane?.close()]);
    } finally {
      this.unsubscribe();
    }
  }
}
