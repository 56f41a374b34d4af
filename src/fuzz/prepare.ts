import { configRevision } from "../core/provider/digest.js";
import { invocableOperations } from "../core/provider/plan.js";
import { describeRequest, validateConfigRequest } from "../core/provider/requests.js";
import { readResponse } from "../core/provider/response.js";
import type { JsonObject } from "../core/provider/types.js";
import { wireJson } from "../core/json/index.js";
import { callProvider } from "../runner/provider/call.js";
import type { ProviderFuzzContext } from "./types.js";

const encoder = new TextEncoder();

/** Asks the provider to describe itself and accept the configuration: what valid requests are generated from. */
export async function prepareProviderFuzz(argv: string[], config: { value: JsonObject; document: string }, budgetMs: number, timeoutMs: number): Promise<ProviderFuzzContext | { reason: string }> {
  const ask = async (request: JsonObject): Promise<JsonObject | undefined> => {
    const { outcome, stdout } = await callProvider(argv, encoder.encode(wireJson(request)), { timeoutMs });
    return outcome.exitCode === 0 ? readResponse(stdout).object : undefined;
  };
  const described = await ask(describeRequest("fuzz-describe"));
  const operations = described?.status === "ok" ? invocableOperations(described) : [];
  if (operations.length === 0) return { reason: "describe gave no operation to invoke, so no requests can be generated" };
  const accepted = await ask(validateConfigRequest("fuzz-validate", config.value));
  if (accepted?.status !== "ok") return { reason: "the configuration was not accepted; give one with --config-json or --config-file" };
  return { operations, config: config.value, configRevision: configRevision(config.document), budgetMs };
}
