/**
 * The loopback fixtures of one scenario (or fuzz session): the model fixture, and the
 * control-plane fixture when the launch configuration uses its placeholders; the values
 * the {{fixture.*}} placeholders expand to.
 */
import type { LaunchConfig } from "../../core/agent-cli/launch.js";
import { CONTROL_PLANE_PLACEHOLDER, CONTROL_PLANE_TOKEN_PLACEHOLDER } from "../../core/agent-cli/managed-tasks.js";
import { newControlPlaneToken, newFixtureToken, startControlPlaneFixture, startModelFixture, type ControlPlaneFixture, type ModelFixture } from "../../servers/index.js";

/** The keys of one run: the same for every scenario, so reports can keep them out. */
export interface RunKeys {
  /** The model fixture's API key, when the configuration uses {{fixture.token}}. */
  token?: string;
  /** The control-plane fixture's key, when the configuration uses {{fixture.controlplane_token}}. */
  controlPlaneToken?: string;
}

function uses(config: LaunchConfig, placeholder: string): boolean {
  return [...config.prefixArgs, ...Object.values(config.env)].some((v) => v.includes(placeholder));
}

/** True when the configuration points the candidate at the control-plane fixture (its URL or key). */
function usesControlPlane(config: LaunchConfig): boolean {
  return uses(config, CONTROL_PLANE_PLACEHOLDER) || uses(config, CONTROL_PLANE_TOKEN_PLACEHOLDER);
}

/** Fresh random keys for the placeholders the configuration uses. */
export function newRunKeys(config: LaunchConfig): RunKeys {
  return {
    ...(uses(config, "{{fixture.token}}") ? { token: newFixtureToken() } : {}),
    ...(uses(config, CONTROL_PLANE_TOKEN_PLACEHOLDER) ? { controlPlaneToken: newControlPlaneToken() } : {}),
  };
}

/** The keys of a run as values no report may show (the model's, then the control plane's). */
export function keyValues(keys: RunKeys): string[] {
  return [keys.token, keys.controlPlaneToken].filter((key): key is string => key !== undefined);
}

export interface ScenarioFixtures {
  fixture: ModelFixture;
  controlPlane?: ControlPlaneFixture;
  /** {{fixture.*}} values (names without the braces). */
  placeholders: Record<string, string>;
  /** Closes every fixture; idempotent. */
  close(): Promise<void>;
}

/** Starts the scenario's fixtures on 127.0.0.1; nothing is left listening when it throws. */
export async function startScenarioFixtures(config: LaunchConfig, keys: RunKeys, stallLimitMs?: number): Promise<ScenarioFixtures> {
  const fixture = await startModelFixture({ ...(stallLimitMs !== undefined ? { stallLimitMs } : {}), ...(keys.token !== undefined ? { token: keys.token } : {}) });
  let controlPlane: ControlPlaneFixture | undefined;
  try {
    if (usesControlPlane(config)) controlPlane = await startControlPlaneFixture(keys.controlPlaneToken !== undefined ? { token: keys.controlPlaneToken } : {});
  } catch (error) {
    await fixture.close();
    throw error;
  }
  const placeholders: Record<string, string> = {
    "fixture.openai": fixture.openaiBase,
    "fixture.anthropic": fixture.anthropicBase,
    ...(keys.token !== undefined ? { "fixture.token": keys.token } : {}),
    ...(controlPlane !== undefined ? { "fixture.controlplane": controlPlane.origin } : {}),
    ...(controlPlane !== undefined && keys.controlPlaneToken !== undefined ? { "fixture.controlplane_token": keys.controlPlaneToken } : {}),
  };
  return {
    fixture,
    ...(controlPlane !== undefined ? { controlPlane } : {}),
    placeholders,
    close: async () => {
      await Promise.all([fixture.close(), controlPlane?.close()]);
    },
  };
}
