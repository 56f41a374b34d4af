// turn.mjs: one accepted user line -> streamed events -> exactly ONE result.
//
// For every accepted line the Desktop waits for a terminal event; without
// one, its UI would show the turn as running forever. So every path out of
// runTurn() writes exactly one `result`, except when the process is being
// stopped (then the contract wants no partial result at all).
//
// Events of a turn, in order:
//
//   {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
//   {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"..."}}  (one per piece)
//   {"type":"content_block_stop","index":0}
//   {"type":"assistant","session_id":ID,"message":{"role":"assistant",
//        "content":[{"type":"tool_use","id":...,"name":...,"input":{...}}]}}  (only if the model calls tools)
//   ... the same again for each further model round ...
//   {"type":"result","subtype":"success","is_error":false,"session_id":ID,
//        "result":"<all text of the turn>","usage":{"input_tokens":N,"output_tokens":N}}
//
// Tools: this reference offers one harmless tool, read_file (tools.mjs), in
// every model request and in system/init, and awp_run_managed_task
// (managed-task.mjs) too when the managed-task bridge is on. Every call the
// model makes is shown to the Desktop as a tool_use block, run (read_file,
// awp_run_managed_task) or answered with "tool_not_available: <name>" (any
// other name), and the model is asked again with the results, for at most
// MAX_ROUNDS requests per turn. An answer of the last request that still
// calls tools ends the turn (tool_round_limit, or managed_tool_round_limit
// when it calls awp_run_managed_task); so does an answer that would take the
// turn past MAX_MANAGED_CALLS managed calls (managed_tool_call_limit). Calls
// refused that way are shown but not run.

import { StoppedError, TurnError } from "./codes.mjs";
import { streamChat } from "./provider.mjs";
import { saveHistory } from "./session.mjs";
import { MANAGED_TOOL_NAME, messagesDigest, runManagedTask } from "./managed-task.mjs";
import { runTool, toolDefinitions } from "./tools.mjs";

const MAX_ROUNDS = 4;
const MAX_MANAGED_CALLS = 4;
// The final result repeats all text of the turn on one line, and the Desktop
// stops a runtime whose unbroken stdout line exceeds 4 MiB. Keep well below.
const MAX_RESULT_BYTES = 3 * 1024 * 1024;

/**
 * ctx: { session: {id, messages}, model, config, stateDir, out, stopSignal, root }
 *      (root: the folder read_file may read under; config.controlPlane: the
 *      managed-task bridge, or null)
 * parts: the user's OpenAI content parts (see content.mjs).
 */
export async function runTurn(ctx, parts) {
  const { session, out } = ctx;
  // The messages this turn adds to the history. They are only saved if the
  // whole turn succeeds: a failed turn leaves the session as it was.
  const added = [{ role: "user", content: parts }];
  const usage = { input_tokens: 0, output_tokens: 0 };
  let text = "";
  let resultBytes = 0;
  let block = null;
  let managedCalls = 0;
  const bridge = ctx.config.controlPlane ?? null;
  const isManaged = (call) => bridge !== null && call.name === MANAGED_TOOL_NAME;
  let digest = null;
  const managedTurn = {
    sessionId: session.id,
    // The messages the turn started with: the history and this user message.
    turnDigest: () => (digest ??= messagesDigest([...session.messages, added[0]])),
    bridge,
    stopSignal: ctx.stopSignal,
    diag: out.diag,
  };

  try {
    for (let round = 1; ; round += 1) {
      block = textBlock(out);
      const reply = await streamChat({
        config: ctx.config,
        model: ctx.model,
        messages: [...session.messages, ...added],
        tools: toolDefinitions(bridge),
        stopSignal: ctx.stopSignal,
        diag: out.diag,
        onText(piece) {
          resultBytes += Buffer.byteLength(JSON.stringify(piece));
          if (resultBytes > MAX_RESULT_BYTES) throw new TurnError("provider_response_too_large");
          block.delta(piece);
        },
      });
      block.stop();
      text += reply.text;
      usage.input_tokens += reply.usage.input_tokens;
      usage.output_tokens += reply.usage.output_tokens;

      if (reply.toolCalls.length === 0) {
        added.push({ role: "assistant", content: reply.text });
        break;
      }
      out.emit({
        type: "assistant",
        session_id: session.id,
        message: { role: "assistant", content: reply.toolCalls.map(toolUseBlock) },
      });
      // OpenAI history: the assistant message WITH its tool_calls, then one
      // `tool` message answering each call by id.
      added.push({
        role: "assistant",
        content: reply.text === "" ? null : reply.text,
        tool_calls: reply.toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      });
      // Limits are checked before anything of this answer runs.
      const managed = reply.toolCalls.filter(isManaged).length;
      if (round === MAX_ROUNDS) throw new TurnError(managed > 0 ? "managed_tool_round_limit" : "tool_round_limit");
      managedCalls += managed;
      if (managedCalls > MAX_MANAGED_CALLS) throw new TurnError("managed_tool_call_limit");
      for (const call of reply.toolCalls) {
        const content = isManaged(call) ? await runManagedTask(call, managedTurn) : await runTool(call, ctx.root);
        if (ctx.stopSignal.aborted) throw new StoppedError();
        added.push({ role: "tool", tool_call_id: call.id, content });
      }
    }

    const history = [...session.messages, ...added];
    try {
      await saveHistory(ctx.stateDir, session.id, history);
    } catch (error) {
      out.diag(`cannot save session history: ${error.code ?? error.message}`);
      throw new TurnError("session_state_write_failed");
    }
    session.messages = history;
    out.emit({ type: "result", subtype: "success", is_error: false, session_id: session.id, result: text, usage });
  } catch (error) {
    if (error instanceof StoppedError) return;
    block?.stop(); // an opened text block is closed before the error result
    let code = error instanceof TurnError ? error.code : null;
    if (code === null) {
      out.diag(`internal error: ${error?.stack ?? error}`);
      code = "internal_error";
    }
    out.emit(errorResult(session.id, code));
  }
}

/** The one failure shape, also used for rejected input lines. */
export function errorResult(sessionId, code) {
  return { type: "result", subtype: "error", is_error: true, session_id: sessionId, result: code };
}

/** Text block at index 0: started lazily on the first piece, stopped once. */
function textBlock(out) {
  let state = "new";
  return {
    delta(piece) {
      if (state === "new") {
        out.emit({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
        state = "open";
      }
      out.emit({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } });
    },
    stop() {
      if (state === "open") out.emit({ type: "content_block_stop", index: 0 });
      state = "done";
    },
  };
}

/** An assembled OpenAI tool call -> the protocol's tool_use block. */
function toolUseBlock(call) {
  let input = {};
  try {
    const parsed = JSON.parse(call.arguments);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) input = parsed;
  } catch {
    // Partial or non-JSON arguments: show the call with an empty input.
  }
  return { type: "tool_use", id: call.id, name: call.name, input };
}
