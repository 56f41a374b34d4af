import { shardOfPosition, type Shard, type ShardView } from "../report/shard.js";
import type { Purpose } from "./types.js";

/**
 * How `run --shard K/N` splits the provider suite. The unit is a group of exchanges that
 * build on each other, so every clause judged across several exchanges (answers-ok per
 * operation, the dialect probe and its control, a hostile probe and its control, a request
 * sent again and the plain one) finds all of them in one shard:
 *
 * - setup: describe and validate_config with the valid configuration;
 * - config: the invalid, unknown-setting and wrong-typed configurations;
 * - matrix: every planned invocation, and the digest-dialect and tight-budget probes on the first accepted one;
 * - whitespace: describe and the first accepted invocation again, with whitespace around them;
 * - hostile: every hostile probe, each with its control;
 * - fresh: describe and validate_config again in a fresh directory.
 *
 * Later units build on earlier ones: a shard sends describe and validate_config (and, for the
 * whitespace and hostile units, the invocations up to the first accepted tool.before one) as
 * context. Context requests are judged where they are owned, so no finding counts twice.
 * Units are dealt round-robin, largest first; with more than six shards the rest run none.
 */
export const PROVIDER_UNITS = ["hostile", "matrix", "config", "setup", "whitespace", "fresh"] as const;
export type ProviderUnit = (typeof PROVIDER_UNITS)[number];

/** The units shard K of N runs. */
export function providerUnits(shard: Shard): ProviderUnit[] {
  return PROVIDER_UNITS.filter((_, position) => shardOfPosition(position, shard.count) === shard.index);
}

/**
 * The unit whose shard is a clause's home: the one that holds what decides it when no shard
 * judged it (its skip or not-applicable reason). Clauses judged on every exchange (transport,
 * envelope) are judged in every shard on its own exchanges; their home is setup.
 */
export function providerClauseUnit(id: string): ProviderUnit {
  if (id.startsWith("provider/validate-config/rejects-")) return "config";
  if (id === "provider/transport/request-whitespace") return "whitespace";
  if (id === "provider/describe/leaves-no-files" || id === "provider/describe/same-answer-twice") return "fresh";
  if (id.startsWith("provider/robustness/")) return "hostile";
  if (id.startsWith("provider/invoke/") || id === "provider/transport/within-budget" || id === "provider/transport/tight-budget") return "matrix";
  return "setup";
}

/** The unit that owns exchanges of this purpose. */
export function providerPurposeUnit(purpose: Purpose): ProviderUnit {
  switch (purpose) {
    case "describe":
    case "config-valid":
      return "setup";
    case "config-invalid":
    case "config-unknown-key":
    case "config-wrong-type":
      return "config";
    case "invoke":
    case "dialect":
    case "tight-budget":
      return "matrix";
    case "whitespace":
      return "whitespace";
    case "fresh-dir":
      return "fresh";
    default:
      // control and hostile:<kind>
      return "hostile";
  }
}

/** How a provider shard reports: its home clauses, and no clause judged only on context. */
export function providerShardView(shard: Shard): ShardView {
  const units = new Set<ProviderUnit>(providerUnits(shard));
  return { shard, home: (id) => units.has(providerClauseUnit(id)) };
}
