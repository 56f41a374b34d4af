#!/usr/bin/env node
// provider-host.mjs: a small policy-provider host for the check-launch reaction tests
// (test/integration/provider-host.test.ts). Node.js built-ins only.
//
//   node provider-host.mjs CONFIG.json [--invoke-first] [--start-disabled] [--late-spawn]
//        [--twice] [--retry] [--as-block] [--wrong-cwd] [--wrong-env]
//
// CONFIG: {"budget_ms": N, "outcomes": FILE,
//          "providers": {NAME: {"argv": [...], "cwd": DIR, "env": {...}, "on_error": "report"|"block", "enabled": bool}},
//          "steps": [{"provider": NAME, "operation": OP}], "events": [{"call_id": ID, "tool": NAME}]}
//
// As the contract says: every enabled provider is prepared first (describe, then validate_config,
// the providers side by side), a provider that fails either is not admitted; then each event runs
// its steps in order under one shared deadline (budget_ms from the event's start): each step gets
// the remaining budget, is not started once nothing is left, and is killed (SIGKILL to its group) at
// the deadline. An answer is checked (exit 0, stdout within 1 MiB, one JSON object, the same
// api_version, request_id and input_digest, status ok, only admitted effects); anything else is a
// failure the provider's on_error applies to (report: go on; block: stop the event), never a block
// decision, and the provider is not called again for that event. Writes {request_id: "failure" |
// "decision"} for every invoke to the outcomes file.
//
// Deliberately broken hosts, one flag each: --invoke-first (runs the events before preparing),
// --start-disabled (prepares disabled providers too), --late-spawn (each step gets a fresh budget
// and is started, after a 1 s back-off, even once the event's deadline has passed), --twice (runs
// the first event's last step in two processes at once), --retry (calls a provider again once
// after a failed invoke), --as-block (takes a failed call as a block decision), --wrong-cwd (runs
// providers in /), --wrong-env (changes the value of every configured POLICY_* entry).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const [configFile, ...flags] = process.argv.slice(2);
const broken = new Set(flags.map((f) => f.replace(/^--/, "")));
const config = JSON.parse(readFileSync(configFile, "utf8"));
const API = "aw-provider/v1alpha1";
const OUTPUT_CAP = 1024 * 1024;
const POLICY = { blocked_tools: ["example_tool"] };
const ALLOWED = ["observe", "block"];
/** describe and validate_config have no budget; the host still bounds them. */
const PREPARE_BOUND_MS = 10_000;
const outcomes = {};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Compact JSON with sorted keys: the invocation binding for requests without floats. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

/** Runs one method call: one process, the request on stdin, stdin closed, killed at `budget` ms when given. */
function call(provider, request, budget) {
  const env = { PATH: process.env.PATH ?? "", ...provider.env };
  if (broken.has("wrong-env")) for (const name of Object.keys(env)) if (name.startsWith("POLICY_")) env[name] = `${env[name]}-changed`;
  const [executable, ...args] = provider.argv;
  const child = spawn(executable, args, { cwd: broken.has("wrong-cwd") ? "/" : provider.cwd, env, stdio: ["pipe", "pipe", "ignore"], detached: true });
  const chunks = [];
  let size = 0;
  const kill = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  };
  child.stdout.on("data", (chunk) => {
    size += chunk.length;
    if (size > OUTPUT_CAP) kill();
    else chunks.push(chunk);
  });
  child.stdin.on("error", () => undefined);
  child.stdin.end(`${JSON.stringify(request)}\n`);
  const timer = budget === undefined ? undefined : setTimeout(kill, budget);
  return new Promise((resolve) => {
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, over: size > OUTPUT_CAP, text: Buffer.concat(chunks).toString("utf8") });
    });
  });
}

/** Why an answer is a failed call, or undefined with the response when it is a checked answer. */
function check(result, request) {
  if (result.signal !== null) return { failure: `ended by ${result.signal}` };
  if (result.over) return { failure: "stdout over 1 MiB" };
  if (result.code !== 0) return { failure: `exit ${result.code}` };
  let response;
  try {
    response = JSON.parse(result.text);
  } catch {
    return { failure: "not one JSON document" };
  }
  if (response === null || typeof response !== "object" || Array.isArray(response)) return { failure: "not a JSON object" };
  if (response.api_version !== API || response.request_id !== request.request_id) return { failure: "another api_version or request_id" };
  if (response.status !== "ok") return { failure: `status ${response.status}` };
  if (request.method !== "invoke") return { response };
  if (response.input_digest !== request.input_digest) return { failure: "another input_digest" };
  const effects = Array.isArray(response.effects) ? response.effects : [];
  if (!Array.isArray(response.effects) || effects.some((e) => !request.allowed_effects.includes(e?.type))) return { failure: "an effect not admitted" };
  return { response };
}

async function prepare(name, provider) {
  const describe = { api_version: API, method: "describe", request_id: `describe-${name}` };
  const described = check(await call(provider, describe, PREPARE_BOUND_MS), describe);
  if (described.failure !== undefined) return false;
  const validate = { api_version: API, method: "validate_config", request_id: `validate-${name}`, config: POLICY };
  return check(await call(provider, validate, PREPARE_BOUND_MS), validate).failure === undefined;
}

function invocation(event, step, id, budget) {
  const native = { tool_name: event.tool, call_id: event.call_id };
  const request = {
    api_version: API,
    method: "invoke",
    request_id: id,
    operation: step.operation,
    config: POLICY,
    config_revision: createHash("sha256").update(JSON.stringify(POLICY)).digest("hex"),
    budget_ms: budget,
    allowed_effects: ALLOWED,
    event: { name: "tool.before", agent: { adapter: "qoder", binding_id: "b1", instance_id: null }, session_id: "s-1", tool: { name: event.tool, native_name: event.tool, call_id: event.call_id, input: { command: "ls" }, result: null }, native },
  };
  return { ...request, input_digest: `sha256:${createHash("sha256").update(canonical(request)).digest("hex")}` };
}

/** One step of an event: returns "block" when the event is to stop there. */
async function step(event, step, deadline, first) {
  const provider = config.providers[step.provider];
  const remaining = Math.floor(deadline - Date.now());
  if (broken.has("late-spawn") && remaining <= 0) await sleep(1000);
  else if (remaining <= 0) return provider.on_error === "block" ? "block" : "go on";
  const budget = broken.has("late-spawn") ? config.budget_ms : remaining;
  const runs = broken.has("twice") && first ? 2 : 1;
  for (let attempt = 0; attempt < (broken.has("retry") ? 2 : 1); attempt++) {
    const id = `${event.call_id}-${step.provider}${attempt > 0 ? "-retry" : ""}`;
    const request = invocation(event, step, id, attempt > 0 ? Math.max(1, Math.floor(deadline - Date.now())) : budget);
    const results = await Promise.all(Array.from({ length: runs }, () => call(provider, request, request.budget_ms)));
    const checked = check(results[0], request);
    if (checked.failure === undefined) {
      outcomes[id] = "decision";
      return checked.response.effects.some((e) => e.type === "block") ? "block" : "go on";
    }
    outcomes[id] = broken.has("as-block") ? "decision" : "failure";
    if (broken.has("as-block")) return "block";
    if (attempt === 0 && broken.has("retry") && deadline - Date.now() > 0) continue;
    return provider.on_error === "block" ? "block" : "go on";
  }
  return "go on";
}

async function runEvents(admitted) {
  for (const [index, event] of config.events.entries()) {
    const deadline = Date.now() + config.budget_ms;
    const steps = config.steps.filter((s) => admitted.has(s.provider));
    for (const [at, s] of steps.entries()) {
      if ((await step(event, s, deadline, index === 0 && at === steps.length - 1)) === "block") break;
    }
  }
}

const providers = Object.entries(config.providers).filter(([, p]) => p.enabled !== false || broken.has("start-disabled"));
const enabled = new Set(Object.entries(config.providers).filter(([, p]) => p.enabled !== false).map(([name]) => name));
if (broken.has("invoke-first")) await runEvents(enabled);
const prepared = await Promise.all(providers.map(async ([name, p]) => [name, await prepare(name, p)]));
if (!broken.has("invoke-first")) await runEvents(new Set(prepared.filter(([name, ok]) => ok && enabled.has(name)).map(([name]) => name)));
writeFileSync(config.outcomes, `${JSON.stringify(outcomes)}\n`);
