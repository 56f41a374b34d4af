/**
 * Vitest global setup: the native spawner (runner/native/build.ts) is had once before any test
 * file runs, as a user's first provider run has it: built into the cache where cc is on PATH,
 * or, where it cannot be, the reason said here once and noted, as the kit says it once on a
 * machine. Kit runs in the tests then neither compile (a timed test would pay for it) nor print
 * the fallback line (tests that read a run's stderr see what users see from then on).
 */
import { buildSpawner } from "../../src/runner/native/build.js";

export default function setup(): void {
  const built = buildSpawner();
  if (!built.ok && built.noted !== true) process.stderr.write(`native spawner: not available here (${built.reason}); provider calls in the tests' kit runs go through the Node launchers\n`);
}
