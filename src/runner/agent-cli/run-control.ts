/**
 * What the run as a whole decides while its scenarios run: --run-timeout, and the rule that
 * stops every scenario once the CLI has shown it answers nothing.
 *
 * The rule: when a turn bounded by --turn-timeout got no terminal event and, by then, no
 * process of the run has written a single stdout line that is a JSON object, the CLI is
 * taken to answer nothing. Every running scenario is stopped and the ones not started are
 * not run. A slow but working CLI never meets it: it answers within --turn-timeout, or has
 * written at least one JSON event (system/init, a delta...) by the time its turn runs out.
 *
 * An interruption of the kit (core/interrupt.ts) stops every scenario the same way.
 */
import { onInterrupt } from "../../core/interrupt.js";
import type { StopCause } from "../../core/agent-cli/scenarios.js";
import type { ScenarioContext } from "./context.js";

export type RunStopCause = Exclude<StopCause, "unanswered">;

export class RunControl {
  private readonly running = new Set<ScenarioContext>();
  private spoke = false;
  private cause: RunStopCause | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly stopping: Promise<void>[] = [];
  private readonly offInterrupt: () => void;

  /** Starts the --run-timeout clock, and listens for an interruption. */
  constructor(runTimeoutMs: number) {
    this.timer = setTimeout(() => this.halt("run-timeout"), Math.min(runTimeoutMs, 2_147_483_647));
    this.offInterrupt = onInterrupt(() => this.halt("interrupted"));
  }

  /** Why the run stopped its scenarios, once it did. */
  get stopped(): RunStopCause | undefined {
    return this.cause;
  }

  /** A scenario starts: it is stopped at once if the run already stopped. */
  enter(ctx: ScenarioContext): void {
    this.running.add(ctx);
    if (this.cause !== undefined) this.stopping.push(ctx.abort(this.cause));
  }

  /** A scenario ended: whether its CLI wrote a JSON line still counts for the rule. */
  leave(ctx: ScenarioContext): void {
    this.spoke ||= ctx.spokeJson();
    this.running.delete(ctx);
  }

  /** A turn bounded by --turn-timeout went unanswered in `ctx`. */
  unanswered(): void {
    if (this.spoke || [...this.running].some((c) => c.spokeJson())) return;
    this.halt("never-answered");
  }

  /** Stops every running scenario (each ends its processes at once). */
  halt(cause: RunStopCause): void {
    if (this.cause !== undefined) return;
    this.cause = cause;
    for (const ctx of this.running) this.stopping.push(ctx.abort(cause));
  }

  /** Clears the clock; resolves once every stopped scenario's processes are gone. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.offInterrupt();
    await Promise.all(this.stopping);
  }
}
