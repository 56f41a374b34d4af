/** The small rules the managed-task checks are made of, on hand-written values. */
import { describe, expect, it } from "vitest";
import type { OutLine } from "../../../src/core/agent-cli/analysis.js";
import { showsExitCode, TIMEOUT_WORD } from "../../../src/core/agent-cli/checks/managed-tasks-results.js";
import { argvProblem, locateArgv } from "../../../src/core/agent-cli/checks/managed-tasks-submit.js";
import { toolUseBlocks } from "../../../src/core/agent-cli/checks/managed-tasks-turns.js";
import { jsonEqual, resultFor, toolResults } from "../../../src/core/agent-cli/checks/managed-tasks-view.js";
import type { ModelCall } from "../../../src/core/agent-cli/types.js";

const ARGV = ["awp-conformance-task", "plan=succeed", "two words; echo $HOME"];
const body = (argv: unknown): unknown => ({ task_type: "command", payload: { argv }, idempotency_key: "k" });

describe("argv, never a shell", () => {
  it("accepts the model's argv element for element", () => {
    expect(argvProblem(body([...ARGV]), ARGV)).toBeUndefined();
  });

  it.each([
    ["one string", body(ARGV.join(" ")), /one command string/],
    ["sh -c", body(["sh", "-c", ARGV.join(" ")]), /wrapped in a shell/],
    ["/bin/bash -lc", body(["/bin/bash", "-lc", ARGV.join(" ")]), /wrapped in a shell/],
    ["no argv anywhere", { task_type: "command", args: 3 }, /carries no payload\.argv/],
    ["a command line in a body of another shape", { kind: "command", command: ARGV.join(" ") }, /one command string \(command\)/],
    ["argv split, in a body of another shape", { kind: "command", argv: [...ARGV.slice(0, 2), "two", "words;"] }, /^argv has 4 element/],
    ["a number inside", body([ARGV[0], 3]), /payload\.argv\[1\] is 3, not a string/],
    ["an element dropped", body(ARGV.slice(0, 2)), /has 2 element\(s\), the model asked for 3/],
    ["an element split", body([...ARGV.slice(0, 2), "two", "words;"]), /has 4 element/],
    ["an element quoted", body([ARGV[0], ARGV[1], `'${ARGV[2] ?? ""}'`]), /payload\.argv\[2\] is "'two words; echo \$HOME'", the model asked for "two words; echo \$HOME"/],
    ["a body that is not JSON", undefined, /not a JSON object/],
  ])("refuses %s", (_, submitted, says) => {
    expect(argvProblem(submitted, ARGV)).toMatch(says);
  });

  it("finds the model's argv in a body of another shape: a property argv, or an array equal to it", () => {
    expect(argvProblem({ kind: "command", argv: [...ARGV] }, ARGV)).toBeUndefined();
    expect(argvProblem({ task: { command: [...ARGV] } }, ARGV)).toBeUndefined();
    expect(locateArgv({ spec: { run: { argv: [...ARGV] } } }, ARGV)).toEqual({ where: "spec.run.argv", value: ARGV });
    expect(locateArgv({ kind: "command" }, ARGV)).toBeUndefined();
    expect(locateArgv("not an object", ARGV)).toBeUndefined();
  });

  it("does not call a model's own shell argv a wrapper", () => {
    expect(argvProblem(body(["sh", "-c", "true"]), ["sh", "-c", "true"])).toBeUndefined();
  });
});

describe("what a tool result must say", () => {
  it.each(['{"exit_code":3}', '{"exit_code": 3, "stdout": "1 2"}', "exit code: 3", "Exited with status 3.", "exitCode=3", "returncode 3", "EXIT 3"])("finds exit code 3 in %s", (text) => {
    expect(showsExitCode(text, 3)).toBe(true);
  });

  it.each(['{"exit_code":13}', '{"exit_code":30}', "3 files changed", '{"exit_code":null,"stdout":"a very long text 3"}', "context 3"])("finds no exit code 3 in %s", (text) => {
    expect(showsExitCode(text, 3)).toBe(false);
  });

  it.each(['{"status":"timeout"}', "the task timed out", "Time-out after 2 seconds", "error: control_plane_timeout", "TIMEOUT", "timedout"])("hears a timeout in %s", (text) => {
    expect(TIMEOUT_WORD.test(text)).toBe(true);
  });

  it.each(['{"timeout_seconds":2}', "timeoutSeconds", "overtime outside", "pending"])("hears none in %s", (text) => {
    expect(TIMEOUT_WORD.test(text)).toBe(false);
  });
});

describe("tool results in a model request", () => {
  const call = (b: unknown): ModelCall => ({ seq: 1, api: "openai", method: "POST", path: "/", stream: true, authorized: true, body: b, userText: "", status: 200, replyText: "", outcome: "complete" });

  it("reads OpenAI tool messages and Anthropic tool_result blocks, string or text-block content", () => {
    const request = {
      messages: [
        { role: "user", content: "run it" },
        { role: "tool", tool_call_id: "a", content: "first" },
        { role: "tool", tool_call_id: "b", content: [{ type: "text", text: "one" }, { type: "image" }, { type: "text", text: "two" }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "c", content: "third" }, { type: "text", text: "and" }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: [{ type: "text", text: "again" }] }] },
      ],
    };
    expect(toolResults(request)).toEqual([
      { id: "a", text: "first" },
      { id: "b", text: "one\ntwo" },
      { id: "c", text: "third" },
      { id: "a", text: "again" },
    ]);
    expect(resultFor({ call: call(request), at: 0, t: 0 }, "a")?.text).toBe("again");
    expect(resultFor({ call: call(request), at: 0, t: 0 }, "z")).toBeUndefined();
    expect(toolResults(undefined)).toEqual([]);
  });
});

describe("tool_use blocks on stdout", () => {
  const lines = (...objects: unknown[]): OutLine[] => objects.map((object, at) => ({ event: { kind: "stdout", t: at, process: 1, line: JSON.stringify(object) }, at, json: object, object: object as Record<string, unknown>, blank: false }));

  it("reads assistant blocks, raw starts with their input, and input streamed as input_json_delta", () => {
    const blocks = toolUseBlocks(
      lines(
        { type: "assistant", message: { content: [{ type: "text", text: "x" }, { type: "tool_use", id: "a", name: "t", input: { argv: ["x"] } }] } },
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "b", name: "t", input: { argv: ["y"] } } },
        { type: "content_block_stop", index: 0 },
        { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "c", name: "t", input: {} } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"argv":' } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '["z"]}' } },
        { type: "content_block_stop", index: 1 },
      ),
    );
    expect(blocks.map(({ id, input }) => ({ id, input }))).toEqual([
      { id: "a", input: { argv: ["x"] } },
      { id: "b", input: { argv: ["y"] } },
      { id: "c", input: { argv: ["z"] } },
    ]);
  });

  it("compares inputs as JSON, whatever the key order", () => {
    expect(jsonEqual({ argv: ["a"], timeout_seconds: 2 }, { timeout_seconds: 2, argv: ["a"] })).toBe(true);
    expect(jsonEqual({ argv: ["a"] }, { argv: ["a"], timeout_seconds: 2 })).toBe(false);
    expect(jsonEqual([1, [2]], [1, [2]])).toBe(true);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(false);
  });
});
