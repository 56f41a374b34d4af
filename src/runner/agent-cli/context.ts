import { performance } from "node:perf_hooks";
import { renderDirective } from "../../fixtures/index.js";
import { isTerminalLine } from "./terminal.js";
import { desktopArgv, expandPlaceholders, type LaunchConfig, type LaunchExtras, childEnvironment } from "../../core/agent-cli/launch.js";
import type { AgentMode, Directive, TranscriptEvent } from "../../core/agent-cli/types.js";
import { DEFAULT_BOUNDS, SHORT_QUIET_MS, type KitBounds, type ScenarioName } from "../../core/agent-cli/scenarios.js";
import type { ModelFixture } from "../../fixtures/index.js";
import { LiveSession, type StdoutLine } from "./session.js";

export type Block = Record<string, unknown>;

export interface ScenarioSetup {
  /** A fixed scenario, or "fuzz" for a fuzzed session. */
  name: ScenarioName | "fuzz";
  mode: AgentMode;
  config: LaunchConfig;
  fixture: ModelFixture;
  /** {{fixture.*}} values for this scenario's fixture. */
  placeholders: Record<string, string>;
  turnTimeoutMs: number;
  /** The other kit bounds (default DEFAULT_BOUNDS; turnTimeoutMs above wins). */
  bounds?: Partial<KitBounds>;
  cwd: string;
  home: string;
  /** Environment of the kit process (the launcher). */
  launcherEnv: Record<string, string | undefined>;
}

/** How often waitForModelRequest looks at the fixture's record. */
const MODEL_POLL_MS = 25;

/** What a scenario uses to drive the candidate; it records every event into one transcript. */
export class ScenarioContext {
  readonly events: TranscriptEvent[] = [];
  private readonly origin = performance.now();
  private readonly sessions: LiveSession[] = [];
  private unsubscribe: () => void;

  constructor(readonly setup: ScenarioSetup) {
    this.unsubscribe = setup.fixture.onCall((call) => {
      const startT = call.receivedAt !== undefined ? Math.max(0, call.receivedAt - this.origin) : undefined;
      this.record({ kind: "model", t: this.clock(), process: Math.max(1, this.sessions.length), call: { ...call, ...(startT !== undefined ? { startT } : {}) } });
    });
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

  /** Launches the candidate as the Desktop would (a new process number each time). */
  async launch(extras: LaunchExtras = {}): Promise<LiveSession> {
    const { config, placeholders, launcherEnv, home, cwd } = this.setup;
    const expand = (text: string): string => expandPlaceholders(text, placeholders);
    const argv = desktopArgv({ ...config, prefixArgs: config.prefixArgs.map(expand) }, extras);
    const entries = Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, expand(v)]));
    const session = await LiveSession.start({
      argv,
      cwd,
      env: childEnvironment(launcherEnv, home, entries),
      process: this.sessions.length + 1,
      clock: this.clock,
      onEvent: (event) => this.record(event),
    });
    this.sessions.push(session);
    return session;
  }

  /** Launches, then watches stdout for `quietMs` before the first line is written (output then breaks silence). */
  async start(extras: LaunchExtras = {}, quietMs = SHORT_QUIET_MS): Promise<LiveSession> {
    const session = await this.launch(extras);
    await session.waitQuiet(quietMs);
    return session;
  }

  /** A user line: the prompt with the directive appended as text, plus any extra blocks. */
  userLine(prompt: string, directive: Directive | undefined, extra: Block[] = [], textFirst = true): string {
    const text = directive === undefined ? prompt : `${prompt} ${renderDirective(directive)}`;
    const blocks: Block[] = textFirst ? [{ type: "text", text }, ...extra] : extra;
    return JSON.stringify({ type: "user", message: { role: "user", content: blocks } });
  }

  /** Writes one line and waits (bounded) for the terminal event that answers it. */
  async exchange(session: LiveSession, line: string, label: string, timeoutMs = this.turnTimeoutMs): Promise<StdoutLine | undefined> {
    const from = session.lines.length;
    if (!session.send(line)) return undefined;
    return session.waitForLine(isTerminalLine, { from, timeoutMs, label });
  }

  /** A user turn: prompt + directive, waiting for its terminal event. */
  turn(session: LiveSession, prompt: string, directive: Directive, extra: Block[] = []): Promise<StdoutLine | undefined> {
    return this.exchange(session, this.userLine(prompt, directive, extra), `the terminal event of turn ${directive.turn ?? "?"}`);
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
    return this.setup.fixture.calls().some((call) => call.directive?.turn === tag);
  }

  /** The first session_id the process reported. */
  sessionId(session: LiveSession): string | undefined {
    for (const line of session.lines) {
      const json = line.json as { session_id?: unknown } | undefined;
      if (json !== null && typeof json === "object" && typeof json.session_id === "string") return json.session_id;
    }
    return undefined;
  }

  /** Stops every process of the scenario and the fixture subscription; always bounded. */
  async finish(): Promise<void> {
    await Promise.all(this.sessions.map((s) => s.stop()));
    this.unsubscribe();
  }
}
