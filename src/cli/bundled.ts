import { join } from "node:path";
import { packageRoot } from "../core/paths.js";
import type { Protocol } from "../core/report/types.js";

/** The example candidates `awp-conformance run` checks when no candidate is given. */
export interface BundledCandidate {
  name: string;
  protocol: Protocol;
  argv: string[];
  configFile?: string;
  invalidConfigFile?: string;
  mode?: string;
  env?: string[];
}

export function bundledCandidates(): BundledCandidate[] {
  const examples = join(packageRoot(), "examples");
  const agent = (mode: string): BundledCandidate => ({
    name: `reference-agent-cli-${mode}`,
    protocol: "agent-cli",
    argv: [join(examples, "reference-agent-cli", "agent-cli.mjs")],
    mode,
    env: [
      "AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "AWP_REFERENCE_API_KEY={{fixture.token}}", "AWP_REFERENCE_TIMEOUT_MS=2000", "AWP_REFERENCE_CONTROL_PLANE_TIMEOUT_MS=2000",
      // The managed-task bridge, with the contract's variable names, pointed at the kit's control-plane fixture.
      "AWP_AGENT_MANAGED_TASKS_OPT_IN=1", "AWP_CONTROL_PLANE_URL={{fixture.controlplane}}", "AWP_CONTROL_PLANE_API_KEY={{fixture.controlplane_token}}",
    ],
  });
  return [
    {
      name: "reference-provider",
      protocol: "provider",
      argv: [join(examples, "reference-provider", "provider.mjs")],
      configFile: join(examples, "reference-provider", "valid-config.json"),
      invalidConfigFile: join(examples, "reference-provider", "invalid-configs.json"),
    },
    agent("awp-jsonl"),
    agent("stream-json"),
  ];
}
