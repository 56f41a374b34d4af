/**
 * --run-timeout: the bound of a whole `run` of one candidate (every scenario, or every
 * provider call). Generous, but finite: it must exceed the longest default wait of a
 * single scenario (the failure probes' --stall-timeout, 180 s) plus the rest of the run.
 */
export const DEFAULT_RUN_TIMEOUT_MS = 15 * 60_000;

/** "900 s", "2.5 s": a bound in the words of the reasons. */
function inSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/**
 * Why the kit stopped the run early: the report's first lines and the reasons of unreached
 * clauses both say it. `narrower` names the options that make a run smaller.
 */
export function runTimeoutReason(runTimeoutMs: number, what: string, narrower = "--clause"): string {
  return `the run reached --run-timeout (${runTimeoutMs} ms, ${inSeconds(runTimeoutMs)}) ${what}: the kit ended every candidate process and judged what it had; raise --run-timeout, or run less at once (${narrower})`;
}
