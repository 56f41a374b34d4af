/**
 * The fast-check commands of the agent-cli fuzzer: one class per step kind. The model only
 * knows whether the session has ended (an ending step ran): nothing runs after that, so an
 * ending step is always the last one. The real system is the live FuzzSession; every step
 * is judged on the transcript so far and throws an AgentFuzzViolation when a clause fails.
 */
import fc, { type Arbitrary, type AsyncCommand } from "fast-check";
import type { AgentStep } from "../types.js";
import type { FuzzSession } from "./session.js";
import {
  describeStep, endingStepArb, isEnding, malformedStepArb, pauseStepArb, turnStepArb,
  type EndingStep, type MalformedStep, type PauseStep, type TurnStep,
} from "./steps.js";

export interface SessionModel {
  ended: boolean;
}

export abstract class StepCommand implements AsyncCommand<SessionModel, FuzzSession> {
  abstract readonly step: AgentStep;

  check(model: Readonly<SessionModel>): boolean {
    return !model.ended;
  }

  async run(model: SessionModel, session: FuzzSession): Promise<void> {
    if (isEnding(this.step)) model.ended = true;
    await session.perform(this.step);
    session.assertConforming();
  }

  toString(): string {
    return describeStep(this.step);
  }
}

export class TurnCommand extends StepCommand {
  constructor(readonly step: TurnStep) {
    super();
  }
}

export class MalformedCommand extends StepCommand {
  constructor(readonly step: MalformedStep) {
    super();
  }
}

export class PauseCommand extends StepCommand {
  constructor(readonly step: PauseStep) {
    super();
  }
}

export class CloseStdinCommand extends StepCommand {
  readonly step: EndingStep = { op: "close-stdin" };
}

export class ShutdownCommand extends StepCommand {
  readonly step: EndingStep = { op: "shutdown" };
}

export class SigtermCommand extends StepCommand {
  readonly step: EndingStep = { op: "sigterm" };
}

/** The command of a step (replays and tests build sequences from steps). */
export function commandFor(step: AgentStep): StepCommand {
  switch (step.op) {
    case "turn":
      return new TurnCommand(step);
    case "malformed":
      return new MalformedCommand(step);
    case "pause":
      return new PauseCommand(step);
    case "close-stdin":
      return new CloseStdinCommand();
    case "shutdown":
      return new ShutdownCommand();
    case "sigterm":
      return new SigtermCommand();
  }
}

const TURN = turnStepArb().map((step) => new TurnCommand(step));
const MALFORMED = malformedStepArb().map((step) => new MalformedCommand(step));
const PAUSE = pauseStepArb().map((step) => new PauseCommand(step));
const ENDING = endingStepArb().map((step) => commandFor(step));

/** What fc.commands draws from: turns weigh most, an ending step ends the session. */
export function commandArbs(): Arbitrary<StepCommand>[] {
  return [TURN, TURN, TURN, MALFORMED, PAUSE, ENDING];
}

/** Sessions of the short kind have at most this many steps. */
export const SHORT_SESSION_STEPS = 8;

/**
 * Step sequences of one session: mostly short ones (up to 8 steps, any kind, an ending step
 * last), and one in four of any length up to `maxCommands` (size "max": every length as
 * likely) made of turns, malformed lines and pauses only, so sessions of tens of turns come
 * up too instead of ending at the first ending step drawn.
 */
export function sessionArb(maxCommands: number): Arbitrary<Iterable<AsyncCommand<SessionModel, FuzzSession>>> {
  const long = commandArbs().filter((arb) => arb !== ENDING);
  return fc.oneof(
    { weight: 3, arbitrary: fc.commands(commandArbs(), { maxCommands: Math.min(SHORT_SESSION_STEPS, maxCommands) }) },
    { weight: 1, arbitrary: fc.commands(long, { maxCommands, size: "max" }) },
  );
}

/** The steps of fast-check's counterexample that ran (its commands are wrapped; skipped ones did not run). */
export function stepsOfCounterexample(counterexample: unknown): AgentStep[] | undefined {
  const commands: unknown = Array.isArray(counterexample) ? counterexample[0] : undefined;
  if (commands === null || typeof commands !== "object" || !(Symbol.iterator in commands)) return undefined;
  const steps: AgentStep[] = [];
  for (const item of commands as Iterable<unknown>) {
    const wrapper = item as { hasRan?: unknown; cmd?: unknown } | null;
    const command = wrapper?.cmd ?? item;
    if (!(command instanceof StepCommand)) return undefined;
    if (wrapper?.hasRan === true) steps.push(command.step);
  }
  return steps;
}
