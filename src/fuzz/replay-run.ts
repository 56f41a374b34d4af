import type { AgentMode } from "../core/agent-cli/types.js";
import type { JsonObject } from "../core/provider/types.js";
import type { Finding } from "../core/report/types.js";
import { runAgentSteps } from "./agent-cli/index.js";
import { evaluateProviderCase } from "./provider-run.js";
import { deserializeCase, type ReplayFile } from "./replay.js";
import type { SerializedProviderCase } from "./types.js";

/** Reruns the one case of a replay file against argv and returns every finding it produces. */
export async function replayCase(file: ReplayFile, argv: string[]): Promise<Finding[]> {
  if (file.protocol === "provider") {
    const c = deserializeCase(file.case as SerializedProviderCase);
    const timeoutMs = file.candidate.timeoutMs ?? (c.budgetMs ?? 5000) + 1000;
    return evaluateProviderCase(c, { argv, config: (file.candidate.config ?? {}) as JsonObject, timeoutMs });
  }
  const [executable, ...prefixArgs] = argv;
  const steps = "steps" in file.case ? file.case.steps : [];
  const { findings } = await runAgentSteps(steps, {
    config: { executable: executable ?? "", prefixArgs, mode: (file.candidate.mode ?? "awp-jsonl") as AgentMode, model: file.candidate.model ?? "awp-conformance-model", env: file.candidate.env ?? {} },
    turnTimeoutMs: file.candidate.turnTimeoutMs ?? 10_000,
  });
  return findings;
}
