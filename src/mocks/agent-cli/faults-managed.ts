/**
 * The managed-task bridge faults: each bends the reference's bridge so exactly one
 * agent-cli/managed-tasks clause fails. The control-plane requests and model follow-ups go
 * through fetch, the tool_use and result lines through stdout. The control plane still gets
 * a task it plans the same way, so every other clause sees what the reference would have done.
 */
import { at, isObj, list, parseObject, randomBytesFrom, type Obj } from "../process.js";
import { fixed, jsonBody, textOf, turnTag, type AgentFault } from "./state.js";
import type { AgentHooks } from "./main.js";

const TOOL = "awp_run_managed_task";
const isTasksUrl = (url: unknown): boolean => /\/v1\/tasks(?:$|[/?])/.test(String(url));

/** A control-plane submission (POST /v1/tasks) with its JSON body edited; every other request as it is. */
function editSubmission(edit: (body: Obj) => void): AgentHooks {
  return {
    fetch: (url, init, next) => {
      const body = init?.method === "POST" && isTasksUrl(url) ? jsonBody(init) : undefined;
      if (body === undefined) return next(url, init);
      edit(body);
      return next(url, { ...init, body: JSON.stringify(body) });
    },
  };
}

/** A submission sent as another task API would take it: its URL and JSON body rewritten; every other request as it is. */
function otherTaskApi(url: (sent: string) => string, edit: (body: Obj) => Obj): AgentHooks {
  return {
    fetch: (target, init, next) => {
      const body = init?.method === "POST" && isTasksUrl(target) ? jsonBody(init) : undefined;
      if (body === undefined) return next(target, init);
      return next(url(String(target)), { ...init, body: JSON.stringify(edit(body)) });
    },
  };
}

/** The argv of a submission body of the kit's API. */
const argvOf = (body: Obj): unknown => (isObj(body.payload) ? body.payload.argv : undefined);

/** The turn tag of a model request: the directive of its last user message that holds text. */
function requestTurn(messages: readonly unknown[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    const tag = isObj(message) && message.role === "user" ? turnTag(textOf(message.content)) : undefined;
    if (tag !== undefined) return tag;
  }
  return undefined;
}

/** A model request of turn `tag` with its tool-result messages edited (OpenAI role "tool"). */
function editToolResults(tag: string, edit: (message: Obj) => void): AgentHooks {
  return {
    fetch: (url, init, next) => {
      const body = isTasksUrl(url) ? undefined : jsonBody(init);
      if (body === undefined || !Array.isArray(body.messages) || requestTurn(body.messages) !== tag) return next(url, init);
      for (const message of body.messages) if (isObj(message) && message.role === "tool") edit(message);
      return next(url, { ...init, body: JSON.stringify(body) });
    },
  };
}

/** Edits the JSON content of a tool message. */
function editContent(message: Obj, change: (value: Obj) => Obj): void {
  const value = typeof message.content === "string" ? parseObject(message.content) : undefined;
  if (value !== undefined) message.content = JSON.stringify(change(value));
}

/** The words a shell would split argv into: what a CLI that joins argv into one command string sends. */
const shellSplit = (argv: readonly unknown[]): unknown[] => argv.flatMap((arg, i) => (i === 0 || typeof arg !== "string" || arg.includes("=") ? [arg] : arg.split(/\s+/).filter((w) => w !== "")));

const MIB = 1024 * 1024;

export const MANAGED_FAULTS: Readonly<Record<string, AgentFault>> = {
  // gated: the bridge is on without its opt-in whenever the URL and key are there.
  "managed-ignore-gate": fixed({
    startup: () => {
      if (process.env.AWP_CONTROL_PLANE_URL && process.env.AWP_CONTROL_PLANE_API_KEY) process.env.AWP_AGENT_MANAGED_TASKS_OPT_IN = "1";
    },
  }),
  // argv-not-shell: argv elements with spaces reach the control plane split as a shell would split them.
  "managed-argv-string": fixed(
    editSubmission((body) => {
      const payload = body.payload;
      if (isObj(payload) && Array.isArray(payload.argv)) payload.argv = shellSplit(payload.argv);
    }),
  ),
  // idempotency-key: every submission carries the same key.
  "managed-same-key": fixed(
    editSubmission((body) => {
      body.idempotency_key = "awp-fake:one-key-for-everything";
    }),
  ),
  // idempotency-resubmission: every submission carries a fresh key, the repeated call too.
  "managed-key-per-submission": (_p, ctx) =>
    editSubmission((body) => {
      body.idempotency_key = `awp-fake:${randomBytesFrom(ctx.random, 8).toString("hex")}`;
    }),
  // result-framing: the succeeding task's results go back under another tool-call id.
  "managed-result-no-id": fixed(
    editToolResults("mt-succeed", (message) => {
      message.tool_call_id = "call_not_the_models";
    }),
  ),
  // bounded-output: the 1 MiB stdout goes back to the model whole (the cut one, repeated to its size).
  "managed-uncut-output": fixed(
    editToolResults("mt-huge", (message) =>
      editContent(message, (value) => (typeof value.stdout === "string" && value.stdout !== "" ? { ...value, stdout: value.stdout.repeat(Math.ceil(MIB / value.stdout.length)).slice(0, MIB) } : value)),
    ),
  ),
  // wait-limit: the model is not told that the wait for the pending task ran out.
  "managed-timeout-untold": fixed(editToolResults("mt-pending", (message) => editContent(message, (value) => (value.status === "timeout" ? { ...value, status: "unknown" } : value)))),
  // control-plane-failures: the turn whose control plane answered 500 ends twice.
  "managed-double-result-on-500": fixed({ output: (text, object, _s, owed) => (object?.type === "result" && owed?.tag === "mt-fail-http-500" ? `${text}\n${text}\n` : `${text}\n`) }),
  // call-limit: the turn whose model calls the tool in every round never ends (its error result is dropped).
  "managed-no-call-limit": fixed({ output: (text, object, _s, owed) => (object?.type === "result" && owed?.tag === "mt-every" ? "" : `${text}\n`) }),
  // key-not-leaked: the control-plane key in a diagnostic.
  "managed-leak-key": fixed({
    startup: () => {
      const key = process.env.AWP_CONTROL_PLANE_API_KEY;
      if (key) process.stderr.write(`awp-conformance-mock: control plane key ${key}\n`);
    },
  }),
  // tool-use-shown: the managed tool's calls are never shown on stdout.
  "managed-hide-tool-use": fixed({
    output: (text, object) => {
      const content = object?.type === "assistant" ? list(at(object, "message", "content")) : [];
      return content.some((block) => isObj(block) && block.type === "tool_use" && block.name === TOOL) ? "" : `${text}\n`;
    },
  }),
  // control-plane-api: another task API, as a CLI written against another control plane would speak it:
  // POST {"kind":"command","argv":[...]} to /tasks (the fixture serves no such path: 404).
  "managed-other-task-path": fixed(otherTaskApi((url) => url.replace(/\/v1\/tasks$/, "/tasks"), (body) => ({ kind: "command", argv: argvOf(body) }))),
  // control-plane-api: the right path, another body: argv and the key at the top level (400).
  "managed-other-task-body": fixed(otherTaskApi((url) => url, (body) => ({ type: "command", argv: argvOf(body), idempotency_key: body.idempotency_key }))),
  // control-plane-api: submissions claim to be shell tasks.
  "managed-task-type-shell": fixed(
    editSubmission((body) => {
      body.task_type = "shell";
    }),
  ),
};
