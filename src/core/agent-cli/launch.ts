import type { AgentMode } from "./types.js";

/** The Desktop's child-environment allowlist: only these are inherited from the launcher. */
export const ENV_ALLOWLIST = [
  "PATH", "Path", "PATHEXT", "SystemRoot", "WINDIR", "COMSPEC", "TEMP", "TMP", "HOME",
  "USERPROFILE", "LOCALAPPDATA", "APPDATA", "LANG", "LC_ALL", "TERM", "COLORTERM",
] as const;

export const STREAM_JSON_FLAGS = ["--output-format", "stream-json", "--input-format", "stream-json", "--print", "--verbose"] as const;

export const LIMITS = {
  maxArgs: 128,
  maxArgChars: 8192,
  maxEnvEntries: 128,
  maxEnvValueChars: 32768,
  maxModelChars: 256,
  envKey: /^[A-Za-z_][A-Za-z0-9_]*$/,
  sessionId: /^[A-Za-z0-9._:-]{1,256}$/,
} as const;

/** Environment names whose values the kit treats as secrets (never shown in reports or commands). */
export const SECRET_ENV_NAME = /(key|token|secret|passw(or)?d|credential|auth)/i;

/** What the operator configured, before placeholders are expanded. */
export interface LaunchConfig {
  executable: string;
  prefixArgs: string[];
  mode: AgentMode;
  model: string;
  /** AWP_AGENT_CLI_ENV_JSON entries (values may hold {{fixture.*}} placeholders). */
  env: Record<string, string>;
}

/** Facts about the configuration that the launch clauses judge (gathered by the runner). */
export interface LaunchFacts {
  source: "cli" | "env";
  /** The executable exactly as configured (AWP_AGENT_CLI_EXECUTABLE, or the resolved CLI path). */
  executable: string;
  file: { exists: boolean; isFile: boolean; isSymlink: boolean; executable: boolean };
  prefixArgs: string[];
  env: Record<string, string>;
  model: string;
  /** AWP_AGENT_CLI_PROTOCOL as found (only with --from-env). */
  protocol?: string;
  remoteOptIn: boolean;
}

export interface LaunchExtras {
  resume?: string;
  mcpConfig?: string;
}

/** argv exactly as the Desktop builds it: no shell, flags in this order. */
export function desktopArgv(config: LaunchConfig, extras: LaunchExtras = {}): string[] {
  return [
    config.executable,
    ...config.prefixArgs,
    ...(config.mode === "stream-json" ? STREAM_JSON_FLAGS : []),
    "--model",
    config.model,
    ...(extras.resume !== undefined ? ["--resume", extras.resume] : []),
    ...(extras.mcpConfig !== undefined ? ["--mcp-config", extras.mcpConfig] : []),
  ];
}

/** Replaces {{name}} placeholders; unknown names are left as they are. */
export function expandPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{([a-z._]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The child environment: the allowlist from the launcher (HOME replaced), then the configured entries. */
export function childEnvironment(launcher: Record<string, string | undefined>, home: string, entries: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ENV_ALLOWLIST) {
    const value = launcher[name];
    if (value !== undefined) env[name] = value;
  }
  env.HOME = home;
  return { ...env, ...entries };
}
