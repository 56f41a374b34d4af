#!/usr/bin/env node
// agent-cli.mjs: the reference AWP agent CLI (JSON Lines over stdin/stdout).
//
// The AWP Desktop starts one process like this per conversation:
//
//   agent-cli.mjs [--output-format stream-json --input-format stream-json --print --verbose]
//                 --model <model> [--resume <session id>] [--mcp-config <path>]
//
// then writes one JSON line per user turn to stdin and reads JSON Lines
// events from stdout. The life of the process:
//
//   1. startup   args.mjs, config.mjs, bridge-config.mjs (+ session.mjs for
//                --resume). Any problem: ONE startup_error result on stdout,
//                exit 1.
//                Otherwise NOTHING is written until the first line arrives.
//   2. serving   lines.mjs splits stdin; input.mjs classifies each line;
//                lines are handled strictly one after another. Before the
//                first accepted turn we announce the session (system/init);
//                turn.mjs streams the model's answer and ends every turn with
//                exactly one result. A bad line gets one error result and
//                the process keeps serving.
//   3. stopping  end of stdin: finish queued turns, exit 0.
//                {"type":"shutdown"} (Windows), SIGTERM or SIGINT: abort the
//                model request, write nothing more, exit 0 at once.

import { setFlagsFromString } from "node:v8";
import { StartupError } from "./codes.mjs";
import { parseArgs } from "./args.mjs";
import { readBridgeConfig } from "./bridge-config.mjs";
import { readConfig } from "./config.mjs";
import { classifyLine } from "./input.mjs";
import { readLines } from "./lines.mjs";
import { createOutput, exitAfterFlush } from "./output.mjs";
import { loadHistory, newSessionId } from "./session.mjs";
import { toolNames } from "./tools.mjs";
import { errorResult, runTurn } from "./turn.mjs";

// "Exit at once" needs one Node setting. fetch() parses HTTP with a
// WebAssembly build of llhttp, and V8 recompiles its hot parser with its
// optimising compiler on a background thread; a Node process cannot exit
// while such a job runs. Measured: SIGTERM right after a turn took 200-300 ms
// to end the process on an idle machine, over 3 s on a loaded one (the
// Desktop kills with SIGKILL after 3 s). The baseline compiler alone
// (Liftoff) has no such job, and parses a chat stream fast enough. This must
// run before the first fetch().
setFlagsFromString("--liftoff-only");

async function startup() {
  const args = parseArgs(process.argv.slice(2));
  // controlPlane: the managed-task bridge's origin and key, or null (off).
  const config = { ...readConfig(process.env), controlPlane: readBridgeConfig(process.env) };
  // The session id is chosen now but only announced with the first accepted
  // turn. With --resume the Desktop's id is kept, and its history restored.
  const id = args.resume ?? newSessionId();
  const messages = args.resume === null ? [] : await loadHistory(config.stateDir, id);
  return { model: args.model, config, session: { id, messages } };
}

function serve({ model, config, session }) {
  const out = createOutput({ secrets: [config.apiKey, config.controlPlane?.apiKey] });
  const stopController = new AbortController();
  // read_file reads only under the folder the Desktop started us in.
  const ctx = { session, model, config, stateDir: config.stateDir, out, stopSignal: stopController.signal, root: process.cwd() };
  let announced = false;

  // Stopping mid-turn: no partial result, no further events of any kind.
  const stop = (why) => {
    out.close();
    stopController.abort();
    out.diag(`stopping (${why})`);
    exitAfterFlush(0);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  async function handle(item) {
    if (item.kind === "error") {
      out.emit(errorResult(session.id, item.code));
      return;
    }
    if (!announced) {
      // Announced once, before anything else of the first accepted turn. The
      // Desktop stores session_id with its thread and passes it back later
      // as --resume. `tools` names the tools the model is offered.
      out.emit({ type: "system", subtype: "init", session_id: session.id, model, cwd: process.cwd(), tools: toolNames(config.controlPlane) });
      announced = true;
    }
    await runTurn(ctx, item.content);
  }

  // One worker drains the queue, so turn N's result is written before line
  // N+1 is looked at.
  const queue = [];
  let busy = false;
  let inputEnded = false;
  async function pump() {
    if (busy) return;
    busy = true;
    while (queue.length > 0) await handle(queue.shift());
    busy = false;
    if (inputEnded) exitAfterFlush(0);
  }

  function enqueue(item) {
    queue.push(item);
    void pump();
  }

  readLines(process.stdin, {
    onLine(line) {
      const item = classifyLine(line);
      if (item.kind === "blank") return;
      // Acted on when it arrives, not when its turn in the queue comes:
      // "exit at once" must not wait for a long model answer.
      if (item.kind === "shutdown") return stop("shutdown line");
      enqueue(item);
    },
    onOversize() {
      enqueue({ kind: "error", code: "input_line_too_long" });
    },
    onEnd() {
      inputEnded = true;
      void pump();
    },
  });
}

startup().then(serve, (error) => {
  if (!(error instanceof StartupError)) {
    process.stderr.write(`awp-reference-agent-cli: internal error: ${error?.stack ?? error}\n`);
    error = new StartupError("startup_failed");
  } else {
    process.stderr.write(`awp-reference-agent-cli: ${error.message}\n`);
  }
  process.stdout.on("error", () => {});
  process.stdout.write(`${JSON.stringify({ type: "result", subtype: "startup_error", is_error: true, result: error.code })}\n`);
  exitAfterFlush(1);
});
