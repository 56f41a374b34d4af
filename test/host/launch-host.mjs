#!/usr/bin/env node
// launch-host.mjs: a small host that launches a candidate exactly as the contracts say, for the
// check-launch tests (test/integration/host-launch.test.ts). Node.js built-ins only.
//
//   node launch-host.mjs agent-cli EXECUTABLE [--mode awp-jsonl|stream-json] [--model M]
//        [--resume ID] [--mcp-config PATH] [--turn TEXT]... [--grace MS]
//        [--via-shell] [--kill-after MS]
//     prefix args from AWP_AGENT_CLI_ARGS_JSON, configured env from AWP_AGENT_CLI_ENV_JSON (this
//     process's environment, as the Desktop reads them). One line per turn, waiting for its
//     terminal event; then SIGTERM, and SIGKILL after the grace. Prints {"sessionId":...}.
//   node launch-host.mjs provider EXECUTABLE [--budget MS] [--sigkill] [--via-shell] [--no-deadline]
//     args from AWP_PROVIDER_ARGS_JSON, env the allowlist plus AWP_PROVIDER_ENV_JSON; one process per method (describe, validate_config,
//     invoke), one request on stdin, stdin closed, the invoke ended at its budget_ms (SIGTERM, then
//     SIGKILL 200 ms later; with --sigkill at once, as the aw host does).
//
// Deliberately broken hosts: --via-shell (runs the command line through /bin/sh -c),
// --kill-after MS (SIGKILL that long after SIGTERM, whatever the grace), --no-deadline (waits
// for a slow invoke instead of ending it at budget_ms).
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import { childEnv, COMPAT, jsonEnv, signalGroup, sleep, start as startChild, within } from "./host-process.mjs";

const [protocol, executable, ...rest] = process.argv.slice(2);
const options = { turn: [] };
for (let i = 0; i < rest.length; i++) {
  const name = rest[i].replace(/^--/, "");
  if (["via-shell", "no-deadline", "sigkill"].includes(name)) options[name] = true;
  else if (name === "turn") options.turn.push(rest[++i]);
  else options[name] = rest[++i];
}
const number = (value, fallback) => (value === undefined ? fallback : Number(value));

/** Starts the candidate in its own process group, without a shell unless told. */
const start = (args) => startChild(executable, args, childEnv(protocol === "provider" ? "AWP_PROVIDER_ENV_JSON" : "AWP_AGENT_CLI_ENV_JSON"), options["via-shell"] === true);

async function agentCli() {
  const mode = options.mode ?? "awp-jsonl";
  const args = [...jsonEnv("AWP_AGENT_CLI_ARGS_JSON", []), ...(mode === "stream-json" ? COMPAT : []), "--model", options.model ?? "mock-model"];
  if (options.resume !== undefined) args.push("--resume", options.resume);
  if (options["mcp-config"] !== undefined) args.push("--mcp-config", options["mcp-config"]);
  const child = start(args);
  let sessionId;
  let terminal;
  createInterface({ input: child.stdout }).on("line", (line) => {
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof event?.session_id === "string") sessionId = event.session_id;
    if (event?.type === "result" || event?.type === "message_stop") terminal?.();
  });
  for (const text of options.turn.length > 0 ? options.turn : ["hello"]) {
    const answered = new Promise((resolve) => (terminal = resolve));
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text }] } })}\n`);
    if (!(await within(Promise.race([answered, child.exited]), number(options["turn-timeout"], 15_000)))) break;
  }
  // Shutdown: SIGTERM, then SIGKILL once the grace (or the broken host's own delay) has passed.
  signalGroup(child, "SIGTERM");
  const wait = number(options["kill-after"], number(options.grace, 3000));
  // Through a shell, the child is the shell: SIGTERM ends it at once, so its exit says nothing
  // about the CLI, and waiting on it would SIGKILL the CLI with no grace at all.
  if (options["kill-after"] !== undefined || options["via-shell"]) await sleep(wait);
  else await within(child.exited, wait);
  signalGroup(child, "SIGKILL");
  await child.exited;
  process.stdout.write(`${JSON.stringify({ sessionId })}\n`);
}

/** JSON with sorted object keys: the digest's compact serialization for requests without floats. */
function sorted(value) {
  if (Array.isArray(value)) return `[${value.map(sorted).join(",")}]`;
  if (value !== null && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sorted(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

async function provider() {
  const budget = number(options.budget, 1000);
  const base = { api_version: "aw-provider/v1alpha1" };
  const event = { name: "tool.before", agent: { adapter: "qoder", binding_id: "b1", instance_id: null }, session_id: null, tool: { name: "bash", native_name: "bash", call_id: null, input: { command: "ls" }, result: null }, native: {} };
  // The reference provider's own configuration shape (the mock behaves like it).
  const config = { blocked_tools: ["example_tool"] };
  const invoke = { ...base, method: "invoke", request_id: "invoke-1", operation: "check", config, config_revision: createHash("sha256").update(JSON.stringify(config)).digest("hex"), budget_ms: budget, allowed_effects: ["observe"], event };
  const requests = [
    { ...base, method: "describe", request_id: "describe-1" },
    { ...base, method: "validate_config", request_id: "validate-1", config },
    { ...invoke, input_digest: `sha256:${createHash("sha256").update(sorted(invoke)).digest("hex")}` },
  ];
  for (const request of requests) {
    const child = start(jsonEnv("AWP_PROVIDER_ARGS_JSON", []));
    child.stdout.resume();
    child.stdin.end(`${JSON.stringify(request)}\n`);
    const deadline = request.method === "invoke" && !options["no-deadline"];
    if (deadline && !(await within(child.exited, budget))) {
      if (options.sigkill) signalGroup(child, "SIGKILL");
      else {
        signalGroup(child, "SIGTERM");
        if (!(await within(child.exited, 200))) signalGroup(child, "SIGKILL");
      }
    }
    await child.exited;
  }
}

await (protocol === "provider" ? provider() : agentCli());
