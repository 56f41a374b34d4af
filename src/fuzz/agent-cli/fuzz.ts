/**
 * The agent-cli fuzzer: fast-check model-based runs, one live session per run (sessions
 * never overlap), shrunk to the smallest step list that still breaks a clause; and the
 * replay of a step list.
 */
import fc from "fast-check";
import type { Transcript } from "../../core/agent-cli/types.js";
import type { Finding } from "../../core/report/types.js";
import type { AgentStep, FuzzBudget, FuzzFailure } from "../types.js";
import { commandArbs, stepsOfCounterexample, type SessionModel } from "./commands.js";
import { AgentFuzzViolation, FuzzSession, type AgentFuzzContext } from "./session.js";
import { isEnding } from "./steps.js";

/** Longest generated step sequence when the context does not say. */
export const DEFAULT_MAX_COMMANDS = 8;

/**
 * Replays steps on one launch, judging after every step like the fuzzer does (and once more
 * after the last one); stops at the first step that breaks a clause, or after an ending step.
 * The process is always reaped.
 */
export async function runAgentSteps(steps: readonly AgentStep[], ctx: AgentFuzzContext): Promise<{ transcript: Transcript; findings: Finding[] }> {
  const session = await FuzzSession.open(ctx);
  let findings: Finding[] = [];
  try {
    for (const step of steps) {
      await session.perform(step);
      findings = session.judge();
      if (findings.length > 0 || isEnding(step)) break;
    }
    if (findings.length === 0) {
      await session.settle();
      findings = session.judge();
    }
  } finally {
    await session.close();
  }
  return { transcript: session.transcript(), findings };
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Fuzzes the candidate for budget.runs sessions (or budget.timeSeconds, when set: fast-check's
 * interruptAfterTimeLimit, which also bounds shrinking). Returns at most one failure: fast-check
 * stops at the first failing session and shrinks it. budget.jobs is ignored: one session at a time.
 */
export async function fuzzAgentCli(ctx: AgentFuzzContext, budget: FuzzBudget, onRun?: (n: number) => void): Promise<{ runs: number; failures: FuzzFailure[] }> {
  let runs = 0;
  let shrinking = false;
  /** Steps that ran in the last failing session: the shrunk counterexample's, once fast-check is done. */
  let lastFailing: AgentStep[] | undefined;
  const property = fc.asyncProperty(fc.commands(commandArbs(), { maxCommands: ctx.maxCommands ?? DEFAULT_MAX_COMMANDS }), async (commands) => {
    const session = await FuzzSession.open(ctx);
    try {
      await fc.asyncModelRun((): { model: SessionModel; real: FuzzSession } => ({ model: { ended: false }, real: session }), commands);
      await session.settle();
      session.assertConforming();
    } catch (error) {
      lastFailing = [...session.executed];
      throw error;
    } finally {
      await session.close();
      if (!shrinking) {
        runs += 1;
        onRun?.(runs);
      }
      if (lastFailing !== undefined) shrinking = true;
    }
  });
  const details = await fc.check(property, {
    seed: budget.seed,
    numRuns: budget.runs,
    ...(budget.timeSeconds !== undefined ? { interruptAfterTimeLimit: budget.timeSeconds * 1000 } : {}),
  });
  if (!details.failed || details.counterexample === null || details.counterexamplePath === null) return { runs, failures: [] };
  const error = details.errorInstance;
  if (!(error instanceof AgentFuzzViolation)) throw new Error(`the agent-cli fuzzer could not run a session: ${errorText(error)}`);
  const finding = error.findings[0];
  if (finding === undefined) throw new Error("the agent-cli fuzzer failed a session without a finding");
  const fromCommands = stepsOfCounterexample(details.counterexample);
  const steps = fromCommands !== undefined && fromCommands.length > 0 ? fromCommands : (lastFailing ?? []);
  return {
    runs,
    failures: [{ clause: finding.clause, finding: { ...finding, foundBy: "fuzz" }, seed: details.seed, path: details.counterexamplePath, replay: { protocol: "agent-cli", steps } }],
  };
}
