// controlplane.mjs: the two control-plane calls of the managed-task bridge.
//
//   POST <origin>/v1/tasks
//        {"task_type":"command","payload":{"argv":[...]},"idempotency_key":"..."}
//        -> {"id":"<uuid v1-5>"}
//   GET  <origin>/v1/tasks/<id>
//        -> {"status":"pending"|"running"|"success"|"failed"|"error"|"cancelled",
//            "result":{"output":{"exit_code":N,"stdout":"...","stderr":"..."}}}
//
// Every request carries `Authorization: Bearer <AWP_CONTROL_PLANE_API_KEY>`,
// refuses redirects (the key must not follow a Location header anywhere),
// gets at most REQUEST_TIMEOUT_MS, and its answer must be JSON of at most
// MAX_BODY_BYTES. Failures are ToolError codes:
//
//   control_plane_redirect_rejected   a 3xx answer
//   control_plane_http_<status>       any other non-2xx answer
//   control_plane_timeout             no complete answer within 5 s
//   control_plane_request_failed      connection refused, reset, DNS, TLS...
//   control_plane_response_not_json   content-type not JSON, bad UTF-8, not JSON
//   control_plane_response_too_large  an answer over 2 MiB
//   invalid_control_plane_task_id     the submission's id is not a uuid (v1-5)
//   invalid_control_plane_task_status a status outside the list above
//
// Requests go through globalThis.fetch (looked up at call time).

import { setTimeout as sleep } from "node:timers/promises";
import { StoppedError, ToolError } from "./codes.mjs";

const REQUEST_TIMEOUT_MS = requestTimeout(process.env.AWP_REFERENCE_CONTROL_PLANE_TIMEOUT_MS);

/** AWP_REFERENCE_CONTROL_PLANE_TIMEOUT_MS: 1..60000 ms per control-plane request; anything else keeps 5000. */
function requestTimeout(text) {
  const value = /^\d{1,5}$/.test(text ?? "") ? Number(text) : NaN;
  return value >= 1 && value <= 60_000 ? value : 5_000;
}
const MAX_BODY_BYTES = 2 * 1024 * 1024;
export const POLL_INTERVAL_MS = 500;
const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const TERMINAL = new Set(["success", "failed", "error", "cancelled"]);
const RUNNING = new Set(["pending", "running"]);

/** Thrown by request() when the caller's wait ran out during the request. */
class WaitOver extends Error {}

/**
 * Submits one command task; resolves to its id.
 * io: { bridge: {origin, apiKey}, stopSignal, diag }
 */
export async function submitTask(io, argv, idempotencyKey) {
  const body = { task_type: "command", payload: { argv }, idempotency_key: idempotencyKey };
  const answer = await request(io, "POST", "/v1/tasks", body, null);
  const id = isObject(answer) ? answer.id : undefined;
  if (typeof id !== "string" || !TASK_ID.test(id)) throw new ToolError("invalid_control_plane_task_id");
  return id;
}

/**
 * Polls the task every POLL_INTERVAL_MS until a final status or `deadline`
 * (a Date.now() value). Resolves to { status, output } where output is the
 * answer's result.output (may be undefined), or { status: "timeout" }.
 */
export async function waitForTask(io, id, deadline) {
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return { status: "timeout" };
    let answer;
    try {
      // A poll still running when the wait is over is abandoned: a timeout.
      answer = await request(io, "GET", `/v1/tasks/${id}`, undefined, AbortSignal.timeout(left));
    } catch (error) {
      if (error instanceof WaitOver) return { status: "timeout" };
      throw error;
    }
    const status = isObject(answer) ? answer.status : undefined;
    if (TERMINAL.has(status)) return { status, output: isObject(answer.result) ? answer.result.output : undefined };
    if (!RUNNING.has(status)) throw new ToolError("invalid_control_plane_task_status");
    const pause = Math.min(POLL_INTERVAL_MS, deadline - Date.now());
    if (pause > 0) {
      try {
        await sleep(pause, undefined, { signal: io.stopSignal });
      } catch {
        throw new StoppedError();
      }
    }
  }
}

/** One JSON request; resolves to the parsed answer. */
async function request(io, method, path, body, waitSignal) {
  if (io.stopSignal.aborted) throw new StoppedError();
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const done = new AbortController();
  const signal = AbortSignal.any([io.stopSignal, timeout, done.signal, ...(waitSignal ? [waitSignal] : [])]);
  const headers = { authorization: `Bearer ${io.bridge.apiKey}`, accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const response = await fetch(`${io.bridge.origin}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      redirect: "manual",
      signal,
    });
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      io.diag(`control plane answered ${method} ${path.split("/").slice(0, 3).join("/")} with a redirect; refused`);
      throw new ToolError("control_plane_redirect_rejected");
    }
    if (!response.ok) {
      io.diag(`control plane answered HTTP ${response.status}`);
      throw new ToolError(`control_plane_http_${response.status}`);
    }
    if (!isJsonType(response.headers.get("content-type"))) throw new ToolError("control_plane_response_not_json");
    const text = await readCapped(response.body);
    try {
      return JSON.parse(text);
    } catch {
      throw new ToolError("control_plane_response_not_json");
    }
  } catch (error) {
    if (io.stopSignal.aborted) throw new StoppedError();
    if (waitSignal?.aborted) throw new WaitOver();
    if (timeout.aborted) {
      io.diag(`no complete answer from the control plane within ${REQUEST_TIMEOUT_MS} ms`);
      throw new ToolError("control_plane_timeout");
    }
    if (error instanceof ToolError) throw error;
    // fetch() puts the reason in `cause`; neither carries the request headers.
    io.diag(`control-plane request failed: ${error?.cause?.code ?? error?.cause?.message ?? error?.message}`);
    throw new ToolError("control_plane_request_failed");
  } finally {
    done.abort(); // releases the connection if the body was not read to the end
  }
}

function isJsonType(type) {
  const essence = (type ?? "").split(";")[0].trim().toLowerCase();
  return essence === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(essence);
}

async function readCapped(body) {
  if (!body) return "";
  const reader = body.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new ToolError("control_plane_response_too_large");
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ToolError("control_plane_response_not_json");
  }
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
