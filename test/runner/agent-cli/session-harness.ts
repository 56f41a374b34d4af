/** Shared helpers for the live-session tests (not a test file itself). */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { TranscriptEvent } from "../../../src/core/agent-cli/types.js";
import { LiveSession, type SessionOptions } from "../../../src/runner/agent-cli/session.js";
import { isDead } from "../dead.js";
export { isDead };

export const FIXTURES = fileURLToPath(new URL("../../fixtures/sessions/", import.meta.url));
export const ENV = { PATH: path.dirname(process.execPath), LANG: "C" };

export interface Harness {
  session: LiveSession;
  events: TranscriptEvent[];
  kinds: () => string[];
}

const open: LiveSession[] = [];

/** Start a fixture under node; the session is stopped by stopAll(). */
export async function startFixture(name: string, args: string[] = [], extra: Partial<SessionOptions> = {}): Promise<Harness> {
  return startArgv([process.execPath, path.join(FIXTURES, name), ...args], extra);
}

export async function startArgv(argv: string[], extra: Partial<SessionOptions> = {}): Promise<Harness> {
  const events: TranscriptEvent[] = [];
  const t0 = performance.now();
  const session = await LiveSession.start({
    argv, cwd: FIXTURES, env: ENV, process: 1, clock: () => performance.now() - t0,
    onEvent: (event) => events.push(event), ...extra,
  });
  open.push(session);
  return { session, events, kinds: () => events.map((e) => (e.kind === "action" ? `action:${e.action}` : e.kind)) };
}

/** Stop every session started so far; returns their pids. */
export async function stopAll(): Promise<number[]> {
  const sessions = open.splice(0);
  await Promise.all(sessions.map((s) => s.stop()));
  return sessions.flatMap((s) => (s.pid === undefined ? [] : [s.pid]));
}

export async function deadWithin(pid: number, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (isDead(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return isDead(pid);
}

export function jsonOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}
