// agent-cli-fake-managed.mjs: the managed-task bridge faults of agent-cli-fake.mjs.
//
// Each bends the reference's bridge (examples/reference-agent-cli) through the hooks of
// agent-cli-fake-hooks.mjs so exactly one agent-cli/managed-tasks clause fails: the
// control-plane requests and model follow-ups go through globalThis.fetch, the tool_use
// and result lines through stdout. The control plane still gets a task it plans the same
// way, so every other clause sees what the reference would have done.

import { randomBytes } from "node:crypto";
import { parseObject, textOf, turnTag } from "./agent-cli-fake-hooks.mjs";

const TOOL = "awp_run_managed_task";
const isTasksUrl = (url) => /\/v1\/tasks(?:$|[/?])/.test(String(url));

/** A control-plane submission (POST /v1/tasks) with its JSON body edited; every other request as it is. */
function editSubmission(edit) {
  return (url, init, state) => {
    const body = init?.method === "POST" && isTasksUrl(url) && typeof init.body === "string" ? parseObject(init.body) : undefined;
    if (body === undefined) return state.fetch(url, init);
    edit(body);
    return state.fetch(url, { ...init, body: JSON.stringify(body) });
  };
}

/** The turn tag of a model request: the directive of its last user message that holds text. */
function requestTurn(messages) {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const tag = messages[i]?.role === "user" ? turnTag(textOf(messages[i].content)) : undefined;
    if (tag !== undefined) return tag;
  }
  return undefined;
}

/** A model request of turn `tag` with its tool-result messages edited (OpenAI role "tool"). */
function editToolResults(tag, edit) {
  return (url, init, state) => {
    const body = !isTasksUrl(url) && typeof init?.body === "string" ? parseObject(init.body) : undefined;
    if (body === undefined || !Array.isArray(body.messages) || requestTurn(body.messages) !== tag) return state.fetch(url, init);
    for (const message of body.messages) if (message?.role === "tool") edit(message);
    return state.fetch(url, { ...init, body: JSON.stringify(body) });
  };
}

/** Edits the JSON content of a tool message. */
function editContent(message, change) {
  const value = typeof message.content === "string" ? parseObject(message.content) : undefined;
  if (value !== undefined) message.content = JSON.stringify(change(value));
}

/** A word a shell would split: what a CLI that joins argv into one command string sends. */
const shellSplit = (argv) => argv.flatMap((arg, i) => (i === 0 || arg.includes("=") ? [arg] : arg.split(/\s+/).filter((w) => w !== "")));

export const MANAGED_FAULTS = {
  // gated: the bridge is on without its opt-in whenever the URL and key are there.
  "managed-ignore-gate": {
    startup: () => {
      if (process.env.AWP_CONTROL_PLANE_URL && process.env.AWP_CONTROL_PLANE_API_KEY) process.env.AWP_AGENT_MANAGED_TASKS_OPT_IN = "1";
    },
  },
  // argv-not-shell: argv elements with spaces reach the control plane split as a shell would split them.
  "managed-argv-string": {
    fetch: editSubmission((body) => {
      if (Array.isArray(body.payload?.argv)) body.payload.argv = shellSplit(body.payload.argv);
    }),
  },
  // idempotency-key: every submission carries the same key.
  "managed-same-key": {
    fetch: editSubmission((body) => {
      body.idempotency_key = "awp-fake:one-key-for-everything";
    }),
  },
  // idempotency-resubmission: every submission carries a fresh key, the repeated call too.
  "managed-key-per-submission": {
    fetch: editSubmission((body) => {
      body.idempotency_key = `awp-fake:${randomBytes(8).toString("hex")}`;
    }),
  },
  // result-framing: the succeeding task's results go back under another tool-call id.
  "managed-result-no-id": {
    fetch: editToolResults("mt-succeed", (message) => {
      message.tool_call_id = "call_not_the_models";
    }),
  },
  // bounded-output: the 1 MiB stdout goes back to the model whole (the cut one, repeated to its size).
  "managed-uncut-output": {
    fetch: editToolResults("mt-huge", (message) =>
      editContent(message, (value) => (typeof value.stdout === "string" && value.stdout !== "" ? { ...value, stdout: value.stdout.repeat(Math.ceil((1024 * 1024) / value.stdout.length)).slice(0, 1024 * 1024) } : value)),
    ),
  },
  // wait-limit: the model is not told that the wait for the pending task ran out.
  "managed-timeout-untold": {
    fetch: editToolResults("mt-pending", (message) => editContent(message, (value) => (value.status === "timeout" ? { ...value, status: "unknown" } : value))),
  },
  // control-plane-failures: the turn whose control plane answered 500 ends twice.
  "managed-double-result-on-500": {
    output: (text, object, _state, owed) => (object?.type === "result" && owed?.tag === "mt-fail-http-500" ? `${text}\n${text}\n` : `${text}\n`),
  },
  // call-limit: the turn whose model calls the tool in every round never ends (its error result is dropped).
  "managed-no-call-limit": {
    output: (text, object, _state, owed) => (object?.type === "result" && owed?.tag === "mt-every" ? "" : `${text}\n`),
  },
  // key-not-leaked: the control-plane key in a diagnostic.
  "managed-leak-key": {
    startup: () => {
      const key = process.env.AWP_CONTROL_PLANE_API_KEY;
      if (key) process.stderr.write(`agent-cli-fake: control plane key ${key}\n`);
    },
  },
  // tool-use-shown: the managed tool's calls are never shown on stdout.
  "managed-hide-tool-use": {
    output: (text, object) => {
      const content = object?.type === "assistant" ? object.message?.content : undefined;
      return Array.isArray(content) && content.some((block) => block?.type === "tool_use" && block.name === TOOL) ? "" : `${text}\n`;
    },
  },
  // control-plane-api: submissions claim to be shell tasks.
  "managed-task-type-shell": {
    fetch: editSubmission((body) => {
      body.task_type = "shell";
    }),
  },
};
