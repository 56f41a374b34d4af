/**
 * One fuzzed agent-cli session: one launch of the candidate (fresh cwd and HOME, its own
 * model fixture and token), driven step by step through the runner's ScenarioContext, and
 * judged after every step on the clauses a fuzzed session can break.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { budgetCause } from "../../core/agent-cli/judge.js";
import type { LaunchConfig } from "../../core/agent-cli/launch.js";
import { DEFAULT_OUTPUT_BUDGET_MIB, type Transcript } from "../../core/agent-cli/types.js";
import type { ClauseResult, Finding } from "../../core/report/types.js";
import { FUZZ_SCENARIO } from "../../core/agent-cli/scenarios.js";
import { judgeFuzzTranscript, restExit, type SessionJudgement } from "./judge.js";
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

export { FUZZ_SCENARIO };
/** How long a malformed line may take to be answered (answering is optional). */
export const MALFORMED_ANSWER_MS = 1000;
export const SHUTDOWN_EXIT_MS = 1500;
export const SIGTERM_EXIT_MS = 3000;
/** After the last step: a moment for lines already on their way (a second terminal event...). */
export const SETTLE_MS = 50;

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

export class FuzzSession {
  /** Steps performed so far, in order. */
  readonly executed: AgentStep[] = [];
  private turns = 0;
  private last: SessionJudgement | undefined;
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
    // The process is gone: the step has nowhere to go (the transcript shows what ended it).
    if (live.exit !== undefined && !live.exit.killedByKit && (step.op === "turn" || step.op === "malformed")) return;
    switch (step.op) {
      case "turn": {
        this.turns += 1;
        const turn = `fuzz-${this.turns}`;
        const line = ctx.userLine(step.text, { turn, reply: fuzzReply(this.turns) }, step.blocks ?? []);
        await ctx.exchange(live, line, `the terminal event of turn ${turn}`, this.fuzz.turnTimeoutMs);
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

  /**
   * Judges the transcript so far on the fuzzed clauses; judge before close(): the kit's stop
   * excuses a turn left waiting. The last judgement is what the session counts for.
   */
  judge(): SessionJudgement {
    this.last = judgeFuzzTranscript(this.transcript(), this.keys.token, this.fuzz.turnTimeoutMs, keyValues(this.keys));
    return this.last;
  }

  /** The results of the last judgement (none before the first). */
  results(): ClauseResult[] {
    return this.last?.results ?? [];
  }

  /** How the process ended on its own with no turn pending, when it did (see restExit). */
  restExit(): string | undefined {
    return restExit(this.transcript());
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
    const { findings } = this.judge();
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
