import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROC_ROOT, readStat } from "../../src/runner/proc-read.js";

const CLI = fileURLToPath(new URL("../../examples/reference-agent-cli/agent-cli.mjs", import.meta.url));
const API_KEY = "sk-test-DO-NOT-PRINT-7f3a9c";

type Json = Record<string, any>;

// ---------- a scriptable OpenAI-compatible SSE stub ----------

interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Json;
}

type Reply = (res: ServerResponse) => void;

function sseHead(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
}

function chunk(delta: Json, finish: string | null = null): string {
  return `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function usageChunk(input: number, output: number): string {
  return `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: input, completion_tokens: output } })}\n\n`;
}

/** A streamed text answer, one SSE event per piece. */
function textReply(pieces: string[], usage: [number, number] = [10, 5]): Reply {
  return (res) => {
    sseHead(res);
    res.write(chunk({ role: "assistant", content: "" }));
    for (const piece of pieces) res.write(chunk({ content: piece }));
    res.write(chunk({}, "stop"));
    res.write(usageChunk(...usage));
    res.end("data: [DONE]\n\n");
  };
}

/** One tool call whose arguments arrive in fragments. */
function toolReply(id: string, name: string, argFragments: string[]): Reply {
  return (res) => {
    sseHead(res);
    res.write(chunk({ role: "assistant", tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: "" } }] }));
    for (const part of argFragments) res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }));
    res.write(chunk({}, "tool_calls"));
    res.write(usageChunk(7, 3));
    res.end("data: [DONE]\n\n");
  };
}

/** Several complete tool calls in one answer: [id, name, arguments]. */
function multiToolReply(calls: readonly (readonly [string, string, string])[]): Reply {
  return (res) => {
    sseHead(res);
    res.write(chunk({ role: "assistant", tool_calls: calls.map(([id, name, args], index) => ({ index, id, type: "function", function: { name, arguments: args } })) }));
    res.write(chunk({}, "tool_calls"));
    res.write(usageChunk(7, 3));
    res.end("data: [DONE]\n\n");
  };
}

function statusReply(status: number): Reply {
  return (res) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "scripted failure" } }));
  };
}

/** Starts streaming, then goes silent forever (until the test ends). */
function stallReply(firstPiece: string | null = "partial"): Reply {
  return (res) => {
    sseHead(res);
    if (firstPiece !== null) res.write(chunk({ content: firstPiece }));
  };
}

class Stub {
  readonly requests: RecordedRequest[] = [];
  private readonly replies: Reply[] = [];
  private readonly server: Server;
  private waiters: Array<() => void> = [];
  base = "";

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        this.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: JSON.parse(text) as Json });
        for (const wake of this.waiters.splice(0)) wake();
        const reply = this.replies.shift() ?? statusReply(599);
        reply(res);
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  script(...replies: Reply[]): void {
    this.replies.push(...replies);
  }

  /** Resolves once `count` requests have arrived. */
  async waitForRequests(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// ---------- running the CLI ----------

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

class Cli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly events: Json[] = [];
  stdout = "";
  stderr = "";
  readonly exited: Promise<Exit>;
  private pending = "";
  private waiters: Array<() => void> = [];

  constructor(args: string[], env: Record<string, string>, cwd?: string) {
    this.child = spawn(process.execPath, [CLI, ...args], { env: env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"], ...(cwd !== undefined ? { cwd } : {}) });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (text: string) => {
      this.stdout += text;
      this.pending += text;
      const lines = this.pending.split("\n");
      this.pending = lines.pop() ?? "";
      for (const line of lines) this.events.push(JSON.parse(line) as Json);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.on("data", (text: string) => (this.stderr += text));
    this.child.stdin.on("error", () => {}); // the CLI may exit before we stop writing
    this.exited = new Promise((resolve) => this.child.on("close", (code, signal) => resolve({ code, signal })));
  }

  send(line: Json | string): void {
    this.child.stdin.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`);
  }

  sendText(text: string): void {
    this.send({ type: "user", message: { role: "user", content: [{ type: "text", text }] } });
  }

  results(): Json[] {
    return this.events.filter((e) => e.type === "result");
  }

  /** Waits until `count` result events have been written. */
  async waitForResults(count: number, timeoutMs = 5000): Promise<Json[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.results().length < count) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} results; stdout=${this.stdout} stderr=${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.results();
  }

  /** Closes stdin and waits for the exit. */
  async end(): Promise<Exit> {
    this.child.stdin.end();
    return this.exited;
  }
}

let stub: Stub;
let home: string;
const running: Cli[] = [];

beforeEach(async () => {
  stub = new Stub();
  await stub.start();
  home = mkdtempSync(join(tmpdir(), "awp-ref-cli-"));
});

afterEach(async () => {
  for (const cli of running.splice(0)) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill("SIGKILL");
  await stub.close();
  rmSync(home, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    AWP_REFERENCE_API_BASE_URL: stub.base,
    AWP_REFERENCE_API_KEY: API_KEY,
    AWP_REFERENCE_STATE_DIR: join(home, "state"),
    ...extra,
  };
}

function start(args: string[] = ["--model", "test-model"], extra: Record<string, string> = {}, cwd?: string): Cli {
  const cli = new Cli(args, env(extra), cwd);
  running.push(cli);
  return cli;
}

/** User + system CPU time of a live process (all its threads) in ms, from /proc (100 ticks a second); undefined once it is gone. */
function cpuMs(pid: number): number | undefined {
  const ticks = readStat(PROC_ROOT, pid)?.cpuTicks;
  return ticks === undefined ? undefined : ticks * 10;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const types = (events: Json[]) => events.map((e) => e.type as string);

function expectErrorResult(event: Json | undefined, code: string, sessionId: string): void {
  expect(event).toEqual({ type: "result", subtype: "error", is_error: true, session_id: sessionId, result: code });
}

// ---------- the tests ----------

describe("reference agent CLI: a turn", () => {
  it("writes nothing before the first line, then init, streamed deltas and one result", async () => {
    stub.script(textReply(["Hel", "lo ", "world"], [12, 8]));
    const cli = start();
    await sleep(300);
    expect(cli.stdout).toBe("");
    expect(stub.requests).toHaveLength(0);

    cli.sendText("Explain this failure");
    await cli.waitForResults(1);
    const sessionId = cli.events[0]!.session_id as string;
    expect(sessionId).toMatch(/^ref-[0-9a-f-]{36}$/);
    expect(cli.events).toEqual([
      { type: "system", subtype: "init", session_id: sessionId, model: "test-model", cwd: process.cwd(), tools: ["read_file"] },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo " } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "world" } },
      { type: "content_block_stop", index: 0 },
      { type: "result", subtype: "success", is_error: false, session_id: sessionId, result: "Hello world", usage: { input_tokens: 12, output_tokens: 8 } },
    ]);
    // Compact JSON, one object per line.
    expect(cli.stdout.split("\n").slice(0, -1).every((line) => line === JSON.stringify(JSON.parse(line)))).toBe(true);

    const [request] = stub.requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/v1/chat/completions");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.body).toEqual({
      model: "test-model",
      messages: [{ role: "user", content: [{ type: "text", text: "Explain this failure" }] }],
      tools: [{ type: "function", function: { name: "read_file", description: expect.any(String) as unknown, parameters: { type: "object", properties: { path: { type: "string", description: expect.any(String) as unknown } }, required: ["path"], additionalProperties: false } } }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(await cli.end()).toEqual({ code: 0, signal: null });
    expect(cli.stdout + cli.stderr).not.toContain(API_KEY);

    const saved = JSON.parse(readFileSync(join(home, "state", "sessions", `${sessionId}.json`), "utf8")) as Json[];
    expect(saved).toEqual([
      { role: "user", content: [{ type: "text", text: "Explain this failure" }] },
      { role: "assistant", content: "Hello world" },
    ]);
  });

  it("keeps history across two turns in one process (plain string content too)", async () => {
    stub.script(textReply(["first answer"]), textReply(["second answer"]));
    const cli = start();
    cli.sendText("one");
    cli.send({ type: "user", message: { role: "user", content: "two" } });
    const results = await cli.waitForResults(2);
    expect(results.map((r) => r.result)).toEqual(["first answer", "second answer"]);
    expect(types(cli.events).filter((t) => t === "system")).toHaveLength(1);
    expect(stub.requests[1]!.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "one" }] },
      { role: "assistant", content: "first answer" },
      { role: "user", content: [{ type: "text", text: "two" }] },
    ]);
    expect(await cli.end()).toEqual({ code: 0, signal: null });
  });

  it("offers read_file, shows each tool call, runs it inside its folder only and asks the model again", async () => {
    const work = join(home, "work");
    mkdirSync(join(work, "sub"), { recursive: true });
    writeFileSync(join(work, "a.txt"), "alpha text\n");
    writeFileSync(join(home, "secret.txt"), "outside\n");
    symlinkSync(join(home, "secret.txt"), join(work, "link.txt"));
    const calls = [
      ["call_1", "read_file", '{"path":"a.txt"}'],
      ["call_2", "read_file", '{"path":"../secret.txt"}'],
      ["call_3", "read_file", '{"path":"link.txt"}'],
      ["call_4", "read_file", JSON.stringify({ path: join(work, "a.txt") })],
      ["call_5", "read_file", '{"path":"sub"}'],
      ["call_6", "read_file", '{"path":"missing.txt"}'],
      ["call_7", "read_file", '{"file":"a.txt"}'],
      ["call_8", "run_shell_command", '{"command":"ls"}'],
    ] as const;
    stub.script(multiToolReply(calls), textReply(["done reading"], [20, 4]));
    const cli = start(["--model", "test-model"], {}, work);
    cli.sendText("read a.txt");
    const [result] = await cli.waitForResults(1);
    const sessionId = result!.session_id as string;
    expect(cli.events.find((e) => e.type === "system")).toMatchObject({ tools: ["read_file"] });
    expect(cli.events.find((e) => e.type === "assistant")).toEqual({
      type: "assistant",
      session_id: sessionId,
      message: { role: "assistant", content: calls.map(([id, name, args]) => ({ type: "tool_use", id, name, input: JSON.parse(args) as unknown })) },
    });
    expect(result).toEqual({ type: "result", subtype: "success", is_error: false, session_id: sessionId, result: "done reading", usage: { input_tokens: 27, output_tokens: 7 } });
    const answers = (stub.requests[1]!.body.messages as Json[]).filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content]);
    expect(answers).toEqual([
      ["call_1", "alpha text\n"],
      ["call_2", "tool_error: path_outside_workspace"],
      ["call_3", "tool_error: path_outside_workspace"],
      ["call_4", "tool_error: path_outside_workspace"],
      ["call_5", "tool_error: not_a_regular_file"],
      ["call_6", "tool_error: file_not_found"],
      ["call_7", "tool_error: invalid_arguments"],
      ["call_8", "tool_not_available: run_shell_command"],
    ]);
    expect(stub.requests[1]!.body.tools).toEqual(stub.requests[0]!.body.tools);
    expect(await cli.end()).toEqual({ code: 0, signal: null });
  });

  it("reads at most 64 KiB of a file and says it cut the rest", async () => {
    const work = join(home, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "big.txt"), "x".repeat(70_000));
    stub.script(toolReply("call_1", "read_file", ['{"path":"big.txt"}']), textReply(["ok"]));
    const cli = start(["--model", "test-model"], {}, work);
    cli.sendText("read big.txt");
    await cli.waitForResults(1);
    const answer = (stub.requests[1]!.body.messages as Json[]).find((m) => m.role === "tool")?.content as string;
    expect(answer).toBe(`${"x".repeat(65_536)}\n[truncated: the file has 70000 bytes]`);
    expect(await cli.end()).toEqual({ code: 0, signal: null });
  });

  it("sends images as data URLs, documents as a text fallback, and rejects other blocks", async () => {
    stub.script(textReply(["seen"]));
    const cli = start();
    cli.send({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "hi" }] } });
    cli.send({
      type: "user",
      message: {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
          { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" } },
        ],
      },
    });
    const [rejected, accepted] = await cli.waitForResults(2);
    const sessionId = accepted!.session_id as string;
    expectErrorResult(rejected, "unsupported_content_block", sessionId);
    expect(accepted!.subtype).toBe("success");
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]!.body.messages[0].content).toEqual([
      { type: "text", text: "look" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      { type: "text", text: "[document omitted: application/pdf, 9 bytes]" },
    ]);
    expect(await cli.end()).toEqual({ code: 0, signal: null });
  });

  it("answers each malformed line with one error result and keeps serving", async () => {
    stub.script(textReply(["still here"]));
    const cli = start();
    cli.send("{not json");
    cli.send("");
    cli.send("   ");
    cli.send("[1,2]");
    cli.send({ message: { role: "user", content: "no type" } });
    cli.send({ type: "assistant", message: { role: "assistant", content: "hi" } });
    cli.send({ type: "user" });
    cli.send({ type: "user", message: { role: "user", content: [] } });
    cli.send({ type: "user", message: { role: "user", content: [{ type: "text", text: "  " }] } });
    cli.send({ type: "user", message: { role: "user", content: [{ type: "text" }] } });
    cli.send({ type: "user", message: { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png" } }] } });
    cli.sendText("fine");
    const results = await cli.waitForResults(10);
    const sessionId = results[9]!.session_id as string;
    const codes = [
      "invalid_input_json",
      "invalid_input_message",
      "invalid_input_message",
      "invalid_input_message",
      "invalid_input_message",
      "empty_input_content",
      "empty_input_content",
      "invalid_input_message",
      "invalid_input_message",
    ];
    codes.forEach((code, i) => expectErrorResult(results[i], code, sessionId));
    expect(results[9]).toMatchObject({ subtype: "success", result: "still here" });
    // init comes with the first accepted turn, after the rejected lines.
    expect(types(cli.events).indexOf("system")).toBe(9);
    expect(stub.requests).toHaveLength(1);
    expect(await cli.end()).toEqual({ code: 0, signal: null });
  });
});

describe("reference agent CLI: provider failures", () => {
  it("reports HTTP 500 as provider_http_500 and does not save the failed turn", async () => {
    stub.script(statusReply(500), textReply(["recovered"]));
    const cli = start();
    cli.sendText("first");
    cli.sendText("second");
    const [failed, ok] = await cli.waitForResults(2);
    expectErrorResult(failed, "provider_http_500", ok!.session_id as string);
    expect(ok).toMatchObject({ subtype: "success", result: "recovered" });
    expect(stub.requests[1]!.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "second" }] }]);
    expect(await cli.end()).toEqual({ code: 0, signal: null });
  });

  it("times out a silent stream with provider_timeout, then serves the next turn", async () => {
    // A first turn pays the process's first fetch (slow on a loaded machine, and counted by the
    // idle timer), so the stalled turn's first piece surely comes before its idle timer runs out.
    stub.script(textReply(["warm"]), stallReply("partial"), textReply(["after the stall"]));
    const cli = start(undefined, { AWP_REFERENCE_TIMEOUT_MS: "1000" });
    cli.sendText("warm up");
    cli.sendText("stall please");
    cli.sendText("again");
    const [warm, failed, ok] = await cli.waitForResults(3);
    expect(warm).toMatchObject({ subtype: "success", result: "warm" });
    expectErrorResult(failed, "provider_timeout", ok!.session_id as string);
    // The opened block is closed before the error result.
    const all = types(cli.events);
    const stalled = all.slice(all.indexOf("result") + 1, all.indexOf("result", all.indexOf("result") + 1) + 1);
    expect(stalled).toEqual(["content_block_start", "content_block_delta", "content_block_stop", "result"]);
    expect(ok).toMatchObject({ subtype: "success", result: "after the stall" });
    expect(await cli.end()).toEqual({ code: 0, signal: null });
  });

  it("reports a refused connection and malformed SSE without ever printing the API key", async () => {
    const refused = new Stub();
    await refused.start();
    const deadBase = refused.base;
    await refused.close();
    const cli = start(undefined, { AWP_REFERENCE_API_BASE_URL: deadBase });
    cli.sendText("anyone there?");
    const [failed] = await cli.waitForResults(1);
    expect(failed).toMatchObject({ subtype: "error", is_error: true, result: "provider_request_failed" });
    expect(await cli.end()).toEqual({ code: 0, signal: null });
    expect(cli.stderr).toMatch(/ECONNREFUSED/);
    expect(cli.stdout + cli.stderr).not.toContain(API_KEY);

    stub.script((res) => {
      sseHead(res);
      res.end("data: {broken\n\n");
    });
    const second = start();
    second.sendText("hi");
    const [invalid] = await second.waitForResults(1);
    expect(invalid).toMatchObject({ subtype: "error", result: "provider_response_invalid" });
    expect(await second.end()).toEqual({ code: 0, signal: null });
    expect(second.stdout + second.stderr).not.toContain(API_KEY);
  });
});

describe("reference agent CLI: sessions and arguments", () => {
  it("restores history with --resume in a new process and ignores --mcp-config", async () => {
    stub.script(textReply(["remembered"]), textReply(["still remembered"]));
    const mcpPath = join(home, "secret-mcp-path-9d1e.json");
    const streamJsonArgs = ["--output-format", "stream-json", "--input-format", "stream-json", "--print", "--verbose"];
    const first = start([...streamJsonArgs, "--model", "test-model", "--mcp-config", mcpPath]);
    first.sendText("remember 42");
    const [result] = await first.waitForResults(1);
    const sessionId = result!.session_id as string;
    expect(await first.end()).toEqual({ code: 0, signal: null });

    const second = start(["--model", "test-model", "--resume", sessionId, "--mcp-config", mcpPath]);
    await sleep(100);
    expect(second.stdout).toBe("");
    second.sendText("what was it?");
    const [resumed] = await second.waitForResults(1);
    expect(second.events[0]).toMatchObject({ type: "system", subtype: "init", session_id: sessionId });
    expect(resumed).toMatchObject({ subtype: "success", session_id: sessionId });
    expect(stub.requests[1]!.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "remember 42" }] },
      { role: "assistant", content: "remembered" },
      { role: "user", content: [{ type: "text", text: "what was it?" }] },
    ]);
    expect(await second.end()).toEqual({ code: 0, signal: null });
    for (const request of stub.requests) expect(JSON.stringify(request.body)).not.toMatch(/mcp/);
  });

  it("starts empty when resuming an id without history", async () => {
    stub.script(textReply(["fresh"]));
    const cli = start(["--model", "test-model", "--resume", "thread:7.a-b_c"]);
    cli.sendText("hello");
    const [result] = await cli.waitForResults(1);
    expect(result).toMatchObject({ subtype: "success", session_id: "thread:7.a-b_c" });
    expect(stub.requests[0]!.body.messages).toHaveLength(1);
    expect(await cli.end()).toEqual({ code: 0, signal: null });
  });

  it.each([
    ["an unknown flag", ["--model", "m", "--dangerously-skip-permissions"], {}, "invalid_arguments"],
    ["a prompt argument", ["--model", "m", "hello"], {}, "invalid_arguments"],
    ["a flag without its value", ["--model", "m", "--mcp-config"], {}, "invalid_arguments"],
    ["no model", [], {}, "invalid_arguments"],
    ["a model with control characters", ["--model", "m\u0007"], {}, "invalid_model"],
    ["a bad resume id", ["--model", "m", "--resume", "../etc/passwd"], {}, "invalid_resume_session_id"],
    ["no base URL", ["--model", "m"], { AWP_REFERENCE_API_BASE_URL: "" }, "missing_api_base_url"],
    ["a remote plain-http base", ["--model", "m"], { AWP_REFERENCE_API_BASE_URL: "http://api.example.com/v1" }, "insecure_remote_url"],
  ] as Array<[string, string[], Record<string, string>, string]>)("refuses %s at startup", async (_name, args, extra, code) => {
    const cli = start(args, extra);
    const exit = await cli.exited;
    expect(exit).toEqual({ code: 1, signal: null });
    expect(cli.stdout).toBe(`${JSON.stringify({ type: "result", subtype: "startup_error", is_error: true, result: code })}\n`);
    expect(cli.stderr).not.toContain(API_KEY);
  });
});

describe("reference agent CLI: termination", () => {
  it("exits 0 at once on a shutdown line, aborting the in-flight request", async () => {
    stub.script(stallReply(null));
    const cli = start();
    cli.sendText("take your time");
    await stub.waitForRequests(1);
    const before = Date.now();
    cli.send({ type: "shutdown" });
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - before).toBeLessThan(1500);
    expect(cli.results()).toHaveLength(0);
  });

  it("exits promptly on SIGTERM mid-stream without a partial result", async () => {
    stub.script(stallReply("half an ans"));
    const cli = start();
    cli.sendText("stream slowly");
    const deadline = Date.now() + 3000;
    while (!cli.events.some((e) => e.type === "content_block_delta") && Date.now() < deadline) await sleep(20);
    const before = Date.now();
    cli.child.kill("SIGTERM");
    const exit = await cli.exited;
    expect(Date.now() - before).toBeLessThan(3000);
    expect(exit.code === 0 || exit.signal === "SIGTERM").toBe(true);
    expect(types(cli.events)).toEqual(["system", "content_block_start", "content_block_delta"]);
  });

  it("after a turn, SIGTERM ends the process with almost no work left (under 100 ms of CPU)", async (ctx) => {
    // CPU time, not wall time, so a loaded machine cannot fail it. Node's fetch parses with a
    // WebAssembly llhttp whose optimising recompile runs on a background thread after a turn, and
    // the exit waited for it (200-300 ms of CPU; past the Desktop's 3 s on a loaded machine).
    if (!existsSync("/proc/self/stat")) return ctx.skip("needs /proc (Linux) to read the process's CPU time");
    stub.script(textReply(["a ", "reply ", "to ", "parse"]), textReply(["and ", "another"]));
    const cli = start();
    cli.sendText("one");
    await cli.waitForResults(1);
    cli.sendText("two");
    await cli.waitForResults(2);
    const pid = cli.child.pid as number;
    const before = cpuMs(pid);
    let last = before;
    let exited = false;
    void cli.exited.then(() => (exited = true));
    cli.child.kill("SIGTERM");
    while (!exited) {
      last = cpuMs(pid) ?? last;
      await sleep(2);
    }
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(before).toBeDefined();
    expect((last as number) - (before as number)).toBeLessThan(100);
  });

  it("finishes the current turn when stdin ends, then exits 0", async () => {
    stub.script(textReply(["last words"]));
    const cli = start();
    cli.child.stdin.end(`${JSON.stringify({ type: "user", message: { role: "user", content: "bye" } })}`); // no trailing newline
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.results()).toEqual([expect.objectContaining({ subtype: "success", result: "last words" })]);
  });
});
