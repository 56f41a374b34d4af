#!/usr/bin/env node
// agent-host.mjs: a small agent-cli host that reacts to a misbehaving CLI as the contract and the
// upstream launcher do, for the check-launch reaction tests (test/integration/host-reactions.test.ts).
// Node.js built-ins only.
//
//   node agent-host.mjs EXECUTABLE [--turn TEXT]... [--grace MS] [--wrong BEHAVIOUR]
//
// One conversation, one process at a time: a line per turn, then a wait for its terminal event
// (a result or message_stop) or the process's exit. stdout is cut into lines at the newline
// whatever the reads; a malformed line or an event it does not know is skipped; an unbroken
// stdout buffer over 4 MiB stops the runtime (SIGTERM) and ends the conversation. A failed turn
// is reported, never sent again; a turn after a process exited goes to a new process that
// resumes the session. A CLI that exits before it answers the first turn is not started again.
// At the end, every live CLI gets SIGTERM, then SIGKILL after the grace. Prefix arguments
// from AWP_AGENT_CLI_ARGS_JSON, the configured environment from AWP_AGENT_CLI_ENV_JSON.
//
// Deliberately wrong hosts (--wrong): no-output-guard (buffers without bound and goes on writing
// turns), restart-on-bad-output (stops the CLI on a malformed line or an unknown event and goes on
// in a new process), second-process (starts a second process for the conversation while the
// first runs), replay-on-failure (writes a failed turn's line again), quit-leaves-running (exits
// without stopping its CLI), retry-start (starts a CLI that failed at start-up again, 5 times).
import { childEnv, jsonEnv, signalGroup, start, within } from "./host-process.mjs";

const [executable, ...rest] = process.argv.slice(2);
const options = { turn: [], grace: "3000" };
for (let i = 0; i < rest.length; i++) {
  const name = rest[i].replace(/^--/, "");
  if (name === "turn") options.turn.push(rest[++i]);
  else options[name] = rest[++i];
}
const wrong = options.wrong ?? "";
const OUTPUT_GUARD = 4 * 1024 * 1024;
const KNOWN = new Set(["system", "assistant", "user", "result", "message_stop", "message_start", "message_delta", "content_block_start", "content_block_delta", "content_block_stop", "stream_event"]);
const live = new Set();
let sessionId;

/** Starts a CLI for the conversation (resuming its session when one is known) and reads its stdout. */
function launch() {
  const args = [...jsonEnv("AWP_AGENT_CLI_ARGS_JSON", []), "--model", "mock-model", ...(sessionId === undefined ? [] : ["--resume", sessionId])];
  const cli = start(executable, args, childEnv("AWP_AGENT_CLI_ENV_JSON"));
  cli.state = "running";
  live.add(cli);
  void cli.exited.then(() => {
    live.delete(cli);
    if (cli.state === "running") cli.state = "exited";
    cli.wake?.();
  });
  // The unterminated line so far, as the chunks that make it (each chunk is scanned once: a host
  // that rescans its whole buffer per chunk takes seconds to see 4 MiB on a loaded machine).
  let parts = [];
  let pending = 0;
  const onLine = (text) => {
    if (text.trim() === "") return;
    let event;
    try {
      event = JSON.parse(text);
    } catch {
      event = undefined;
    }
    const known = event !== null && typeof event === "object" && KNOWN.has(event.type);
    if (typeof event?.session_id === "string") sessionId = event.session_id;
    if (!known) {
      if (wrong === "restart-on-bad-output" && cli.state === "running") void stop(cli, "restarted");
      return;
    }
    if (event.type === "result" || event.type === "message_stop") {
      cli.outcome = event.type === "result" && event.is_error === true ? "error" : "ok";
      cli.wake?.();
    }
  };
  cli.stdout.setEncoding("utf8");
  cli.stdout.on("data", (chunk) => {
    let from = 0;
    for (let nl = chunk.indexOf("\n"); nl !== -1; nl = chunk.indexOf("\n", from)) {
      parts.push(chunk.slice(from, nl));
      const line = parts.join("");
      parts = [];
      pending = 0;
      from = nl + 1;
      onLine(line);
    }
    if (from < chunk.length) {
      parts.push(chunk.slice(from));
      pending += chunk.length - from;
    }
    if (pending > OUTPUT_GUARD && wrong !== "no-output-guard" && cli.state === "running") {
      parts = [];
      pending = 0;
      void stop(cli, "oversize");
    }
  });
  return cli;
}

/** SIGTERM, then SIGKILL once the grace has passed. */
async function stop(cli, why) {
  if (cli.state === "running") cli.state = why;
  cli.wake?.();
  signalGroup(cli, "SIGTERM");
  if (!(await within(cli.exited, Number(options.grace)))) signalGroup(cli, "SIGKILL");
  await cli.exited;
}

/** Writes one turn and waits for its terminal event or the end of the process: "ok", "error", or why the process is gone. */
async function send(cli, text) {
  cli.outcome = undefined;
  const answered = new Promise((resolve) => (cli.wake = resolve));
  cli.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text }] } })}\n`);
  await within(answered, 15_000);
  return cli.outcome ?? (cli.state === "running" ? "timeout" : cli.state);
}

let cli = launch();
const first = cli;
for (const text of options.turn.length > 0 ? options.turn : ["hello"]) {
  if (wrong === "second-process" && sessionId !== undefined && cli === first) cli = launch();
  if (cli.state !== "running") {
    if (cli.state === "oversize") break;
    await cli.exited;
    cli = launch();
  }
  let outcome = await send(cli, text);
  if (outcome === "exited" && sessionId === undefined) {
    // It failed at start-up: reported, not started again (the wrong host loops).
    if (wrong !== "retry-start") break;
    for (let retry = 0; retry < 5 && outcome === "exited"; retry++) outcome = await send((cli = launch()), text);
  }
  if (wrong === "replay-on-failure" && outcome !== "ok") {
    if (cli.state !== "running") cli = launch();
    await send(cli, text);
  }
  if (outcome === "oversize") break;
}
if (wrong === "quit-leaves-running") process.exit(0);
await Promise.all([...live].filter((c) => c.state === "running").map((c) => stop(c, "stopped")));
process.stdout.write(`${JSON.stringify({ sessionId })}\n`);
