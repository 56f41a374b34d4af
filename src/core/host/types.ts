import type { AgentMode } from "../agent-cli/types.js";
import type { HostProcess, HostProtocol, LaunchRecord } from "./record.js";

/** One provider of the host's configuration (--expect-providers-json). */
export interface ConfiguredProvider {
  /** The arguments after the executable, as configured (transport.argv without its first element). */
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** False: the configuration disables it (default true). */
  enabled: boolean;
}

/** How a host took a provider's answer: as a failed call (on_error applies) or as a policy decision. */
export type HostOutcome = "failure" | "decision";

/** What the host was configured with, as the user told check-launch (each part optional). */
export interface HostExpectations {
  /** --expect-model: the model the host was configured with. */
  model?: string;
  /** --expect-mode: AWP_AGENT_CLI_PROTOCOL of the host. */
  mode?: AgentMode;
  /** --expect-args-json: the prefix arguments (agent-cli) or the arguments after the executable (provider). */
  args?: string[];
  /** --expect-env-json: the configured child environment entries. */
  env?: Record<string, string>;
  /** --expect-resume: the session id the host resumed. */
  resume?: string;
  /** --expect-providers-json: the configured providers by name (provider hosts). */
  providers?: Record<string, ConfiguredProvider>;
  /** --expect-cwd: the working directory of every provider process. */
  cwd?: string;
  /** --host-outcomes FILE: how the host classified each invoke's answer, by request_id. */
  outcomes?: Record<string, HostOutcome>;
  /** --remote-opt-in: the host runs with AWP_AGENT_REMOTE_API_OPT_IN=1. */
  remoteOptIn: boolean;
}

/** The kit's own bounds of a check-launch run. */
export interface HostBounds {
  /** --shutdown-grace: how long the host waits between SIGTERM and SIGKILL. */
  shutdownGraceMs: number;
  /** --slack: what the kit allows on top of a grace or a budget (its own choice). */
  slackMs: number;
  /** --oversize-stop: how soon after an unbroken stdout run past 4 MiB began the host signals the CLI (default OVERSIZE_STOP_MS). */
  oversizeStopMs?: number;
  /** --start-retries: how many times in a row a CLI that failed at start-up may be started again (default START_RETRIES). */
  startRetries?: number;
  /** --retry-window: a launch this soon after a start-up failure counts as starting it again (default RETRY_WINDOW_MS). */
  retryWindowMs?: number;
}

/** Everything the host checks judge. */
export interface HostRun {
  protocol: HostProtocol;
  /** The processes of that protocol, in the order they were launched. */
  processes: HostProcess[];
  record: LaunchRecord;
  expect: HostExpectations;
  bounds: HostBounds;
}
