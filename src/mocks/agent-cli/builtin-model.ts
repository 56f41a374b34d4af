/**
 * The agent-cli mock's own model, for a host that has none. The mock runs the reference agent
 * CLI, which needs an OpenAI-compatible base URL (AWP_REFERENCE_API_BASE_URL). A host author
 * testing a launcher has no model server, so when that variable is unset or empty the mock
 * serves the kit's deterministic model fixture (src/servers: the same request handling the kit
 * runs against candidates, so replies read "Reply N from the awp-conformance fixture ...") on
 * 127.0.0.1, inside the mock process, and points the reference at it. A configured URL always
 * wins: the built-in model is only started when none is given.
 *
 * The server is unreferenced, so it never keeps the mock alive (the reference ends the process
 * itself, and a fault that keeps it running keeps a timer of its own), and it keeps no record
 * of the requests it answers: nobody reads them, and a long host session would only grow it.
 */
import { createServer } from "node:http";
import { once } from "node:events";
import { CallLog } from "../../servers/call-log.js";
import { handleRequest, type HandlerContext } from "../../servers/handler.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_STALL_LIMIT_MS } from "../../servers/server.js";

export const MODEL_URL_ENV = "AWP_REFERENCE_API_BASE_URL";

/** A call log that forgets: the handler's bookkeeping with nothing kept. */
class NoLog extends CallLog {
  override begin(): void {
    // Not kept: finish() and show() then find nothing to do.
  }
}

/** Whether the mock must bring its own model: no model URL is configured. */
export function needsBuiltinModel(env: NodeJS.ProcessEnv): boolean {
  return (env[MODEL_URL_ENV] ?? "") === "";
}

/**
 * Starts the built-in model on 127.0.0.1 (an ephemeral port) and returns its OpenAI base URL
 * (`http://127.0.0.1:PORT/v1`). It takes any API key (the reference may send one).
 */
export async function startBuiltinModel(): Promise<string> {
  let seq = 0;
  const ctx: HandlerContext = { token: undefined, stallLimitMs: DEFAULT_STALL_LIMIT_MS, maxBodyBytes: DEFAULT_MAX_BODY_BYTES, log: new NoLog(), nextSeq: () => (seq += 1) };
  const server = createServer({ noDelay: true }, (req, res) => handleRequest(ctx, req, res));
  server.listen({ port: 0, host: "127.0.0.1" });
  await once(server, "listening");
  server.unref();
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the mock's built-in model has no TCP address");
  return `http://127.0.0.1:${address.port}/v1`;
}

/** Points the reference at the built-in model when no model URL is configured; a configured one is left alone. */
export async function useBuiltinModelUnlessConfigured(env: NodeJS.ProcessEnv): Promise<void> {
  if (needsBuiltinModel(env)) env[MODEL_URL_ENV] = await startBuiltinModel();
}
