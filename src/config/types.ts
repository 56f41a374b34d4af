/**
 * The configuration file (schemas/awp-conformance.config.schema.json) as the loader returns it:
 * validated, with every path made absolute against the file's folder. Keys are the camelCase of
 * the command-line flags they stand for (apply.ts turns a candidate into run arguments).
 */

export const CONFIG_SCHEMA = "awp-conformance.config.schema.json";

/** The names `run` looks for, in this order, in each folder from the working one up. */
export const CONFIG_NAMES: readonly string[] = ["awp-conformance.config.yaml", "awp-conformance.config.yml", "awp-conformance.config.json"];

export interface ProviderBounds {
  timeout?: number;
  budget?: number;
  budgetSlack?: number;
  runTimeout?: number;
  jobs?: number;
}

export interface AgentCliBounds {
  runTimeout?: number;
  turnTimeout?: number;
  stallTimeout?: number;
  quietWindow?: number;
  shutdownTimeout?: number;
  orderSkew?: number;
  outputBudget?: number;
  taskOutputLimit?: number;
  taskWaitSlack?: number;
  jobs?: number;
}

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
}
