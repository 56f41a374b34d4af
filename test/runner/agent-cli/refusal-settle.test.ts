/** Which processes the kit lets end by themselves before it stops them at the end of a scenario. */
import { describe, expect, it } from "vitest";
import type { ModelCall } from "../../../src/core/agent-cli/types.js";
import { looksLikeRefusal } from "../../../src/runner/agent-cli/terminal.js";
import type { StdoutLine } from "../../../src/runner/agent-cli/session.js";

const line = (value: unknown, index = 0): StdoutLine => ({ index, t: 10, text: JSON.stringify(value), json: value });
const call = (receivedAt: number): ModelCall => ({ seq: 1, receivedAt, api: "openai", method: "POST", path: "/v1/chat/completions", stream: true, authorized: true, userText: "", status: 200, replyText: "", outcome: "complete" });
const ERROR = { type: "result", subtype: "startup_error", is_error: true, result: "unknown_option:--mcp-config" };

describe("looksLikeRefusal", () => {
  it("is one error result and nothing else, with no model request since the launch", () => {
    expect(looksLikeRefusal([line(ERROR)], [call(5)], 100)).toBe(true);
  });

  it("is not a served turn, an error after a model request, or more output", () => {
    expect(looksLikeRefusal([line({ ...ERROR, is_error: false, subtype: "success" })], [], 0)).toBe(false);
    expect(looksLikeRefusal([line(ERROR)], [call(150)], 100)).toBe(false);
    expect(looksLikeRefusal([line({ type: "system", subtype: "init" }), line(ERROR, 1)], [], 0)).toBe(false);
    expect(looksLikeRefusal([], [], 0)).toBe(false);
  });
});
