/**
 * One fuzzed agent-cli session: one launch of the candidate (fresh cwd and HOME, its own
 * model fixture and token), driven step by step through the runner's ScenarioContext, and
 * judged after every step on the clauses a fuzzed session can break.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentRun } from "../../core/agent-cli/checks/helpers.js";
import { budgetCause, judgeAgentRun } from "../../core/agent-cli/judge.js";
import type { LaunchConfig } from "../../core/agent-cli/launch.js";
import { DEFAULT_OUTPUT_BUDGET_MIB, type Transcript } from "../../core/agent-cli/types.js";
import type { Finding } from "../../core/report/types.js";
import { makeRedactor, redactDeep } from "../../core/report/redact.js";
import { finding } from "../../core/agent-cli/checks/helpers.js";
import { ScenarioContext } from "../../runner/agent-cli/context.js";
import { budgetLimits, OutputBudget } from "../../runner/agent-cli/output-budget.js";
import { keyValues, newRunKeys, startScenarioFixtures, type RunKeys, type ScenarioFixtures } from "../../runner/agent-cli/scenario-fixtures.js";
import type { LiveSession } from "../../runner/agent-cli/session.js";
import type { AgentStep } from "../types.js";

export interface AgentFuzzContext {
  config: LaunchConfig;
  /** Per-turn bound while fuzzing. */
  turnTimeoutMs: number;
  /** Environment of the launcher (default process.env). */
  launcherEnv?: Record<string, string | undefined>;
  /** Longest step sequence fuzzAgentCli generates (default 8). */
  maxCommands?: number;
  /**
   * --output-budget: MiB of stdout the kit records from one session (default 4, the kit's
   * choice). Each session has its own: its transcript is dropped once it is judged, and
   * `jobs` of them are recorded at once.
   */
  outputBudgetMib?: number;
}

/** The clauses a fuzzed session can break (the others need the fixed scenarios). */
export const FUZZ_AGENT_CLAUSES: readonly string[] = [
  "agent-cli/output/json-object-lines",
  "agent-cli/output/no-partial-line",
  "agent-cli/output/line-size",
  "agent-cli/output/typed-events",
  "agent-cli/session/id-form",
  "agent-cli/session/stable-id",
  "agent-cli/turns/one-terminal-per-turn",
  "agent-cli/turns/no-exit-mid-turn",
  "agent-cli/turns/result-shape",
  "agent-cli/turns/error-code",
  "agent-cli/turns/usage-counts",
  "agent-cli/turns/text-blocks",
  "agent-cli/fidelity/streamed-text",
  "agent-cli/fidelity/result-text",
  "agent-cli/secrets/token-not-echoed",
];

/** Name of the transcript of a fuzzed session. */
export const FUZZ_SCENARIO = "fuzz";
/** How long a malformed line may take to be answered (answering is optional). */
export const MALFORMED_ANSWER_MS = 1000;
export const SHUTDOWN_EXIT_MS = 1500;
export const SIGTERM_EXIT_MS = 3000;
/** After the last step: a moment for lines already on their way (a second terminal event...). */
export const SETTLE_MS = 50;

const SELECTED = new Set(FUZZ_AGENT_CLAUSES);

/** Thrown by a step whose transcript so far breaks a clause; fast-check shrinks on it. */
export class AgentFuzzViolation extends Error {
  constructor(readonly findings: readonly Finding[]) {
    const first = findings[0];
    super(`${first?.clause ?? "?"}: ${first?.message ?? "?"}${findings.length > 1 ? ` (and ${findings.length - 1} more finding(s))` : ""}`);
    this.name = "AgentFuzzViolation";
  }
}

/** The deterministic model reply of the i-th turn: text that is easy to mangle. */
export function fuzzReply(i: number): string {
  return `Fuzz reply ${i}: "quoted" back\\slash é ✓ 😀 \u202eRTL\u202c e\u0301 LS\u2028PS\u2029 tab\t<end>\nsecond line`;
}

/** Judges a transcript on FUZZ_AGENT_CLAUSES; the findings of failed clauses, in catalogue order. */
export function judgeFuzzTranscript(transcript: Transcript, token: string | undefined, turnTimeoutMs: number, secrets: readonly string[] = token !== undefined ? [token] : []): Finding[] {
  const run: AgentRun = { mode: transcript.mode, transcripts: [transcript], ...(token !== undefined ? { token } : {}), turnTimeoutMs, offline: false };
  const findings = judgeAgentRun(run, (id) => SELECTED.has(id))
    .results.filter((r) => r.status === "fail")
    .flatMap((r) => r.findings.map((f): Finding => ({ ...f, foundBy: "fuzz" })));
  // The session's keys never leave the kit, not even in a finding about a leak.
  return redactDeep(findings, makeRedactor(secrets));
}

/**
 * A process that ended on its own before the host asked it to: while a turn awaited its
 * terminal event (the fixed suite counts an exit during the first turn under session/stays-up,
 * which a fuzzed session does not judge), or before the next line had anywhere to go.
 */
function deathFinding(transcript: Transcript, when: string): Finding {
  const at = transcript.events.findIndex((e) => e.kind === "exit");
  const exit = transcript.events[at];
  const process = exit?.process ?? 1;
  return finding("agent-cli/turns/no-exit-mid-turn", { transcript, ...(exit ? { events: [{ event: exit, at }] } : {}), stderrOf: process }, `the process exited on its own ${when}`, { expected: "the process serves the conversation until the host ends it" });
}

export class FuzzSession {
  /** Steps performed so far, in order. */
  readonly executed: AgentStep[] = [];
  private turns = 0;
  /** The first step that found the process already gone (it was not an ending step). */
  private died: AgentStep | undefined;
  /** The turn during which the process exited on its own, its terminal event never written. */
  private diedInTurn: string | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly fuzz: AgentFuzzContext,
    private readonly ctx: ScenarioContext,
    private readonly live: LiveSession,
    private readonly fixtures: ScenarioFixtures,
    private readonly root: string,
    private readonly keys: RunKeys,
  ) {}

  /** Launches the candidate; everything it started is released again when it throws. */
  static async open(fuzz: AgentFuzzContext): Promise<FuzzSession> {
    const root = mkdtempSync(join(tmpdir(), "awp-agent-fuzz-"));
    const cwd = join(root, "work");
    const home = join(root, "home");
    mkdirSync(cwd, { recursive: true });
    mkdirSync(home, { recursive: true });
    const keys = newRunKeys(fuzz.config);
    let fixtures: ScenarioFixtures | undefined;
    let ctx: ScenarioContext | undefined;
    try {
      fixtures = await startScenarioFixtures(fuzz.config, keys);
      ctx = new ScenarioContext({
        name: FUZZ_SCENARIO,
        mode: fuzz.config.mode,
        config: fuzz.config,
        fixture: fixtures.fixture,
        ...(fixtures.controlPlane !== undefined ? { controlPlane: fixtures.controlPlane } : {}),
        placeholders: fixtures.placeholders,
        turnTimeoutMs: fuzz.turnTimeoutMs,
        cwd,
        home,
        launcherEnv: fuzz.launcherEnv ?? process.env,
        outputBudget: new OutputBudget(budgetLimits(fuzz.outputBudgetMib ?? DEFAULT_OUTPUT_BUDGET_MIB)),
      });
      const live = await ctx.launch();
      return new FuzzSession(fuzz, ctx, live, fixtures, root, keys);
    } catch (error) {
      await ctx?.finish();
      await fixtures?.close();
      rmSync(root, { recursive: true, force: true });
      throw error;
    }
  }

  /** Performs one step, waiting (bounded) for what answers it. */
  async perform(step: AgentStep): Promise<void> {
    this.executed.push(step);
    const { ctx, live } = this;
    if (live.exit !== undefined && !live.exit.killedByKit && (step.op === "turn" || step.op === "malformed")) {
      this.died ??= step;
      return;
    }
    switch (step.op) {
      case "turn": {
        this.turns += 1;
        const turn = `fuzz-${this.turns}`;
        const line = ctx.userLine(step.text, { turn, reply: fuzzReply(this.turns) }, step.blocks ?? []);
        const terminal = await ctx.exchange(live, line, `the terminal event of turn ${turn}`, this.fuzz.turnTimeoutMs);
        if (terminal === undefined && live.exit !== undefined && !live.exit.killedByKit) this.diedInTurn ??= turn;
        return;
      }
      case "malformed":
        await ctx.exchange(live, step.line, "an optional answer to a malformed line", MALFORMED_ANSWER_MS);
        return;
      case "pause":
        await live.waitQuiet(step.ms);
        return;
      case "close-stdin":
        live.closeStdin();
        await live.waitExit(this.fuzz.turnTimeoutMs, "exit after the end of stdin");
        return;
      case "shutdown":
        live.send(JSON.stringify({ type: "shutdown" }));
        await live.waitExit(SHUTDOWN_EXIT_MS, "exit after the shutdown line");
        return;
      case "sigterm":
        live.signal("SIGTERM");
        await live.waitExit(SIGTERM_EXIT_MS, "exit after SIGTERM");
        return;
    }
  }

  /** Waits SETTLE_MS (or until the exit): the last step's stragglers get recorded before the final judgement. */
  settle(): Promise<void> {
    return this.live.waitQuiet(SETTLE_MS);
  }

  /** The transcript so far (a snapshot: the checks memoize per transcript object). */
  transcript(): Transcript {
    return { scenario: FUZZ_SCENARIO, mode: this.fuzz.config.mode, events: [...this.ctx.events] };
  }

  /** Findings of the transcript so far; judge before close(): the kit's stop excuses a turn left waiting. */
  judge(): Finding[] {
    const transcript = this.transcript();
    const findings = judgeFuzzTranscript(transcript, this.keys.token, this.fuzz.turnTimeoutMs, keyValues(this.keys));
    if (findings.some((f) => f.clause === "agent-cli/turns/no-exit-mid-turn")) return findings;
    const when =
      this.diedInTurn !== undefined
        ? `while turn ${this.diedInTurn} awaited its terminal event`
        : this.died !== undefined
          ? `before the host could write the next ${this.died.op === "turn" ? "turn" : "line"}`
          : undefined;
    if (when === undefined) return findings;
    return [...findings, redactDeep({ ...deathFinding(transcript, when), foundBy: "fuzz" as const }, makeRedactor(keyValues(this.keys)))];
  }

  /**
   * What the session printed past its output budget (the limit it passed), when it did: the kit
   * ended the process there, and judged only what had already failed (judgeAgentRun).
   */
  cut(): string | undefined {
    return budgetCause({ transcripts: [this.transcript()] })?.limit;
  }

  /** Throws an AgentFuzzViolation when the transcript so far breaks a clause. */
  assertConforming(): void {
    const findings = this.judge();
    if (findings.length > 0) throw new AgentFuzzViolation(findings);
  }

  /** Stops the process (reaped), the fixture, and removes the folders; idempotent, never throws. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.ctx.finish();
      } finally {
        await this.fixtures.close().catch(() => undefined);
        rmSync(this.root, { recursive: true, force: true });
      }
    })().catch(() => undefined);
    return this.closing;
  }

}
