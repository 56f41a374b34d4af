/** The managed-gated scenario of a simulated CLI: one launch per bridge setting left out (see managed-sim.ts). */
import { GATED_PARTS, MANAGED_TOOL, MANAGED_TURNS } from "../../../src/core/agent-cli/managed-tasks.js";
import type { ModelApi, Transcript } from "../../../src/core/agent-cli/types.js";
import { directiveText, OPENAI_JSON, Sim } from "./managed-sim.js";

export type GatedBehaviour = "refuse" | "chat" | "offer" | "submit";

/** The managed-gated scenario: one launch per bridge setting left out, each behaving as asked. */
export function gatedTranscript(each: GatedBehaviour | readonly GatedBehaviour[], api: ModelApi = "openai"): Transcript {
  const sim = new Sim({ ...OPENAI_JSON, api });
  GATED_PARTS.forEach((part, i) => {
    const how = typeof each === "string" ? each : (each[i] ?? "chat");
    sim.push({ kind: "note", text: `managed-gated: launch without ${part}` });
    sim.launch();
    if (how === "refuse") {
      sim.out({ type: "result", subtype: "startup_error", is_error: true, result: "managed_tasks_configuration_incomplete" });
      sim.push({ kind: "exit", code: 1, signal: null, killedByKit: false });
      return;
    }
    const turn = { tag: `mt-gated-${part}`, prompt: "Run the task.", task: MANAGED_TURNS[0]?.task ?? { argv: [] } };
    const text = directiveText(turn);
    sim.user(text);
    const offered = how !== "chat";
    const body = { model: "m", messages: [{ role: "user", content: text }], tools: offered ? [{ type: "function", function: { name: MANAGED_TOOL } }] : [] };
    sim.model({ directive: { turn: turn.tag, task: turn.task }, round: 0, body, userText: text, toolsOffered: offered ? [MANAGED_TOOL] : [], ...(offered ? { toolCall: { id: `call_awp_${turn.tag}_A`, name: MANAGED_TOOL, arguments: JSON.stringify(turn.task) } } : { replyText: "No tools here." }) });
    if (how === "submit") sim.cp({ method: "POST", path: "/v1/tasks", contentType: "application/json", body: { task_type: "command", payload: { argv: turn.task.argv }, idempotency_key: "k" }, status: 201, taskId: "t-1" });
    sim.text("No tools here.");
    sim.result();
    sim.push({ kind: "action", action: "close-stdin" });
    sim.push({ kind: "exit", code: 0, signal: null, killedByKit: false });
  });
  return { scenario: "managed-gated", mode: "awp-jsonl", events: sim.events };
}

