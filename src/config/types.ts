/**
 * The configuration file (schemas/awp-conformance.config.schema.json) as the loader returns it:
 * validated, with every path made absolute against the file's folder. Keys are the camelCase of
 * the command-line flags they stand for (apply.ts turns a candidate into run arguments).
 */

import type { BoundArgs } from "../cli/agent-options.js";
import type { ManagedArgs } from "../cli/managed-options.js";
import type { RunArgs } from "../cli/run.js";

export const CONFIG_SCHEMA = "awp-conformance.config.schema.json";

/** The names `run` looks for, in this order, in each folder from the working one up. */
export const CONFIG_NAMES: readonly string[] = ["awp-conformance.config.yaml", "awp-conformance.config.yml", "awp-conformance.config.json"];

/** A provider's bounds: the run arguments of the same names (so a key and its flag are one setting). */
export type ProviderBounds = Pick<RunArgs, "timeout" | "budget" | "budgetSlack" | "runTimeout" | "jobs">;

/** An agent CLI's bounds: the run arguments of the same names. */
export type AgentCliBounds = BoundArgs & Pick<ManagedArgs, "taskOutputLimit" | "taskWaitSlack"> & Pick<RunArgs, "runTimeout" | "jobs">;

export interface FuzzSettings {
  runs?: number;
  time?: number;
  seed?: number;
  corpus?: string;
}

interface CandidateBase {
  name: string;
  command: string[];
  expectedFailures?: string;
  flaky?: string;
  /** A report.json of an earlier run to compare with (the flag --baseline). */
  baseline?: string;
  level?: string;
  clause?: string[];
  skip?: string[];
  fuzz?: FuzzSettings;
}

export interface ProviderCandidate extends CandidateBase {
  protocol: "provider";
  config?: Record<string, unknown>;
  configFile?: string;
  invalidConfigFile?: string;
  bounds?: ProviderBounds;
}

export interface AgentCliCandidate extends CandidateBase {
  protocol: "agent-cli";
  mode?: string;
  model?: string;
  env?: Record<string, string>;
  home?: string;
  managedTasksOptIn?: string;
  scenario?: string[];
  bounds?: AgentCliBounds;
}

export type ConfigCandidate = ProviderCandidate | AgentCliCandidate;

export interface KitConfig {
  /** The file it was read from (absolute). */
  file: string;
  candidates: ConfigCandidate[];
  reporters?: string[];
  /** Absolute. */
  out?: string;
  docsUrl?: string;
  /** --evidence. */
  evidence?: "failures" | "all";
}
