/**
 * Stubs for test/examples/reference-managed-tasks.test.ts: a loopback control plane whose
 * behaviour per task is chosen by argv[1] (the plan), a scripted OpenAI-style model, and a
 * runner for the reference agent CLI (no shell, every child killed by the test's cleanup).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../examples/reference-agent-cli/agent-cli.mjs", import.meta.url));
export const CP_KEY = "cp-key-DO-NOT-PRINT-5b8e41d07a";
export const MODEL_KEY = "sk-model-3c9d2a";
export const STDOUT = "task says hi";
export const STDERR = "task warns";
/** huge stdout: "a" then two-byte characters, so a cut at 65536 bytes would split one. */
export const HUGE = `a${"é".repeat(600_000)}`;

export type Json = Record<string, unknown>;

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  text: string;
  at: number;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

abstract class Stub {
  readonly requests: Recorded[] = [];
  protected readonly server: Server;
  origin = "";

  constructor() {
    this.server = createServer((req, res) => {
      void body(req).then((text) => {
        const entry: Recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, text, at: Date.now() };
        this.requests.push(entry);
        this.answer(entry, res);
      });
    });
  }

  protected abstract answer(request: Recorded, res: ServerResponse): void;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Plans (argv[1]): success (running, then success), pending, http-500, redirect, not-json, bad-id, bad-status, slow, huge, echo-key. */
export class ControlPlane extends Stub {
  private readonly tasks = new Map<string, { plan: string; polls: number }>();

  submissions(): Json[] {
    return this.requests.filter((r) => r.method === "POST").map((r) => JSON.parse(r.text) as Json);
  }

  protected answer(request: Recorded, res: ServerResponse): void {
    if (request.headers.authorization !== `Bearer ${CP_KEY}`) return json(res, 401, { detail: "unauthorized" });
    if (request.method === "POST" && request.url === "/v1/tasks") {
      const argv = ((JSON.parse(request.text) as Json).payload as Json).argv as string[];
      const plan = argv[1] ?? "success";
      if (plan === "http-500") return json(res, 500, { detail: "boom" });
      if (plan === "redirect") {
        res.writeHead(307, { location: `${this.origin}/v1/elsewhere` });
        return void res.end();
      }
      if (plan === "not-json") {
        res.writeHead(200, { "content-type": "text/plain" });
        return void res.end("ok");
      }
      if (plan === "bad-id") return json(res, 201, { id: "../not-a-task" });
      const id = randomUUID();
      this.tasks.set(id, { plan, polls: 0 });
      if (plan === "slow") return void setTimeout(() => json(res, 201, { id }), 6_500).unref();
      return json(res, 201, { id });
    }
    const id = /^\/v1\/tasks\/([^/]+)$/.exec(request.url)?.[1];
    const task = id === undefined ? undefined : this.tasks.get(id);
    if (request.method !== "GET" || task === undefined) return json(res, 404, { detail: "not found" });
    task.polls += 1;
    if (task.plan === "pending" || (task.plan === "success" && task.polls === 1)) return json(res, 200, { id, status: task.polls === 1 ? "running" : "pending" });
    if (task.plan === "bad-status") return json(res, 200, { id, status: "exploded" });
    const stdout = task.plan === "huge" ? HUGE : task.plan === "echo-key" ? `key=${CP_KEY}` : STDOUT;
    return json(res, 200, { id, status: "success", result: { output: { exit_code: 3, stdout, stderr: STDERR } } });
  }
}

/** One model answer: text, or tool calls [id, name, arguments object]. */
export type Reply = { text: string } | { calls: Array<[string, string, unknown]> };

function sse(res: ServerResponse, delta: Json, finish: string, usage: [number, number]): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (d: Json, finish: string | null): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta: d, finish_reason: finish }] })}\n\n`;
  res.write(chunk(delta, null));
  res.write(chunk({}, finish));
  res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: usage[0], completion_tokens: usage[1] } })}\n\n`);
  res.end("data: [DONE]\n\n");
}

/** An OpenAI chat-completions stub answering the scripted replies in order (text "end" when none is left). */
export class Model extends Stub {
  private readonly replies: Reply[] = [];
  base = "";

  script(...replies: Reply[]): void {
    this.replies.push(...replies);
  }

  bodies(): Json[] {
    return this.requests.map((r) => JSON.parse(r.text) as Json);
  }

  override async start(): Promise<this> {
    await super.start();
    this.base = `${this.origin}/v1`;
    return this;
  }

  protected answer(_request: Recorded, res: ServerResponse): void {
    const reply = this.replies.shift() ?? { text: "end" };
    if ("text" in reply) return sse(res, { content: reply.text }, "stop", [10, 2]);
    const tool_calls = reply.calls.map(([id, name, args], index) => ({ index, id, type: "function", function: { name, arguments: JSON.stringify(args) } }));
    sse(res, { tool_calls }, "tool_calls", [5, 1]);
  }
}

export const call = (id: string, args: unknown): [string, string, unknown] => [id, "awp_run_managed_task", args];

export class Cli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly events: Json[] = [];
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    let pending = "";
    this.child.stdout.on("data", (text: string) => {
      this.stdout += text;
      const lines = (pending + text).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) this.events.push(JSON.parse(line) as Json);
    });
    this.child.stderr.on("data", (text: string) => (this.stderr += text));
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
  }

  send(value: unknown): void {
    this.child.stdin.write(`${JSON.stringify(value)}\n`);
  }

  say(text: string): void {
    this.send({ type: "user", message: { role: "user", content: text } });
  }

  results(): Json[] {
    return this.events.filter((e) => e.type === "result");
  }

  async waitForResults(count: number, timeoutMs = 12_000): Promise<Json[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.results().length < count) {
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`no ${count} results; stdout=${this.stdout.slice(0, 2000)} stderr=${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.results();
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }
}
