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
}

export function bundledCandidates(): BundledCandidate[] {
  const examples = join(packageRoot(), "examples");
  return [
    {
      name: "reference-provider",
      protocol: "provider",
      argv: [join(examples, "reference-provider", "provider.mjs")],
      configFile: join(examples, "reference-provider", "valid-config.json"),
      invalidConfigFile: join(examples, "reference-provider", "invalid-configs.json"),
    },
  ];
}
