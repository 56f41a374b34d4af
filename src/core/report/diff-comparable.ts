/**
 * Whether two reports can be compared clause by clause: the same protocol, the same mode (an
 * agent CLI's awp-jsonl and stream-json runs judge different wire formats), and the same part
 * of a run (a shard's report holds only its own clauses). Anything else is unusable input (exit 2).
 */
import { KitError } from "../errors.js";
import { printable } from "../printable.js";
import type { RunReport } from "./types.js";

/** What decides whether two runs compare: what `run` is about to do is described the same way (run --baseline). */
export interface RunShape {
  protocol: RunReport["protocol"];
  mode?: string;
  shard?: { index: number; count: number };
}

function shardName(shard: RunShape["shard"]): string {
  return shard === undefined ? "a whole run" : `shard ${shard.index}/${shard.count}`;
}

/** Why `b` cannot be compared with `a` (each named as given), or undefined when it can. */
export function mismatch(a: RunShape, b: RunShape, names: { a: string; b: string }): string | undefined {
  if (a.protocol !== b.protocol) return `${names.a} is of the ${printable(a.protocol)} protocol and ${names.b} of ${printable(b.protocol)}: compare two runs of one protocol`;
  if (a.mode !== b.mode) {
    const mode = (m: string | undefined): string => (m === undefined ? "no mode" : `--mode ${printable(m)}`);
    return `${names.a} ran ${mode(a.mode)} and ${names.b} ${mode(b.mode)}: compare two runs of one mode`;
  }
  const same = a.shard === undefined ? b.shard === undefined : b.shard !== undefined && a.shard.index === b.shard.index && a.shard.count === b.shard.count;
  if (!same) return `${names.a} is ${shardName(a.shard)} and ${names.b} ${shardName(b.shard)}: combine each run's shards with awp-conformance merge and compare the merged reports`;
  return undefined;
}

/** Throws the usage error (exit 2) that says why OLD and NEW cannot be compared. */
export function checkComparable(older: RunShape, newer: RunShape, names: { old: string; new: string }): void {
  const why = mismatch(older, newer, { a: `OLD (${printable(names.old)})`, b: `NEW (${printable(names.new)})` });
  if (why !== undefined) throw new KitError("usage", why);
}
