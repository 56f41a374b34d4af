import { LIMITS } from "../../../core/agent-cli/launch.js";
import type { Directive } from "../../../core/agent-cli/types.js";
import type { ScenarioContext } from "../context.js";
import { isTerminalLine } from "../terminal.js";

/** After the shutdown bound, how much longer the kit watches, to report when the process did exit. */
const SHUTDOWN_EXTRA_WAIT_MS = 1500;
const SIGTERM_WAIT_MS = 3500;

export async function resume(ctx: ScenarioContext): Promise<void> {
  const first = await ctx.start();
  await ctx.turn(first, "Remember the word awp-resume-marker-41.", { turn: "resume-1" });
  const id = ctx.sessionId(first);
  ctx.closeStdin(first);
  await ctx.waitExit(first, 5000, "exit of the first process");
  await first.stop();
  ctx.guard();
  if (id === undefined || !LIMITS.sessionId.test(id)) {
    // The Desktop would refuse to pass it (invalid_resume_session_id).
    ctx.note(id === undefined ? "the first process reported no session_id, so there is nothing to resume" : "the first process reported a session_id the Desktop cannot pass to --resume");
    return;
  }
  const second = await ctx.start({ resume: id });
  await ctx.turn(second, "Which word did I ask you to remember?", { turn: "resume-2" });
}

/**
 * One failure probe in a process of its own: the failing turn, waited for up to
 * --stall-timeout (the CLI may retry or wait as long as it likes within it) once its request
 * reached the model, then a good turn. When the failing turn never ended, the good turn is
 * not sent: it would only queue behind the stuck one and be blamed for it.
 */
async function failureProbe(ctx: ScenarioContext, failing: Directive & { turn: string }, next: string): Promise<void> {
  const s = await ctx.start();
  const prompt = failing.stall === true ? "This one stalls." : "This one fails.";
  // An unanswered failing turn stops the probe (ScenarioStopped), so the good turn is not sent.
  const ended = await ctx.askFailing(s, ctx.userLine(prompt, failing), failing.turn);
  if (ended === undefined) return;
  await ctx.turn(s, "And this one works.", { turn: next });
}

export function failuresError(ctx: ScenarioContext): Promise<void> {
  return failureProbe(ctx, { turn: "fail-500", status: 500 }, "fail-500-next");
}

export function failuresStall(ctx: ScenarioContext): Promise<void> {
  return failureProbe(ctx, { turn: "fail-stall", stall: true }, "fail-stall-next");
}

export async function shutdown(ctx: ScenarioContext): Promise<void> {
  const s = await ctx.start();
  await ctx.turn(s, "Before shutdown.", { turn: "shutdown-1" });
  ctx.send(s, '{"type":"shutdown"}');
  await ctx.waitExit(s, ctx.shutdownTimeoutMs + SHUTDOWN_EXTRA_WAIT_MS, "exit after the shutdown line");
}

export async function sigtermIdle(ctx: ScenarioContext): Promise<void> {
  const s = await ctx.start();
  await ctx.turn(s, "Before SIGTERM.", { turn: "sigterm-1" });
  ctx.signal(s, "SIGTERM");
  await ctx.waitExit(s, SIGTERM_WAIT_MS, "exit after SIGTERM");
}

/** After the slow turn's request reached the model, how long the kit waits for its first output before SIGTERM. */
const MID_TURN_OUTPUT_WAIT_MS = 1000;

export async function sigtermMidTurn(ctx: ScenarioContext): Promise<void> {
  const s = await ctx.start();
  const from = s.lines.length;
  ctx.send(s, ctx.userLine("Stream slowly.", { turn: "sigterm-mid", bytes: 4000, slowMs: 200 }));
  // Real CLIs take seconds before they call the model: signal only once the reply is on its
  // way (the request reached the model, and output started or a second passed), so the
  // process is really in the middle of the turn.
  const answered = (): boolean => s.lines.slice(from).some(isTerminalLine);
  if (!(await ctx.waitForModelRequest(s, "sigterm-mid", ctx.turnTimeoutMs, answered))) ctx.note("the slow turn's request never reached the kit's model: SIGTERM was sent without it");
  await s.waitForLine((line) => line.index >= from, { from, timeoutMs: MID_TURN_OUTPUT_WAIT_MS, label: "output of the slow turn" });
  ctx.signal(s, "SIGTERM");
  await ctx.waitExit(s, SIGTERM_WAIT_MS, "exit after SIGTERM mid-turn");
}
