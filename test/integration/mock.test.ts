/**
 * The mocks as a host runs them (the built bins): faults from the environment and composed,
 * the launch record, signals. The fault tables (test/integration/*-faults.ts) run every
 * fault through the kit; this file runs a few the way a host would.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, useTempDirs } from "./cli.js";

const temp = useTempDirs("awp-mock-");
const AGENT = join(ROOT, "dist/src/mocks/agent-cli.js");
const PROVIDER = join(ROOT, "dist/src/mocks/provider.js");
const DESCRIBE = '{"api_version":"aw-provider/v1alpha1","method":"describe","request_id":"describe-1"}\n';
const user = (text: string): string => `${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text }] } })}\n`;

type Line = Record<string, unknown> & { event: string };
const record = (file: string): Line[] => readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Line);

/** Resolves once `test` holds for what the stream wrote so far (bounded). */
function until(child: ChildProcess, test: (out: string) => boolean, ms = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`timed out; stdout so far: ${out.slice(0, 500)}`)), ms);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
  });
}

const exited = (child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));

describe("the mocks, run as a host runs them", () => {
  it("agent-cli bin, faults and record from the environment: raw stdin lines, a SIGTERM ignored (alive beats) until SIGKILL, double results", async () => {
    const file = join(temp(), "launch.jsonl");
    const env = {
      PATH: process.env.PATH ?? "",
      AWP_CONFORMANCE_MOCK_FAULTS: "ignore-sigterm,double-result",
      AWP_CONFORMANCE_MOCK_RECORD: file,
      // A closed loopback port: every turn ends at once with an error result.
      AWP_REFERENCE_API_BASE_URL: "http://127.0.0.1:9",
      AWP_REFERENCE_API_KEY: "sk-mock-secret-value",
    };
    const child = spawn(AGENT, ["--model", "m-1"], { env, stdio: ["pipe", "pipe", "pipe"] });
    const results = until(child, (out) => (out.match(/"type":"result"/g) ?? []).length >= 4);
    child.stdin?.write(user("first"));
    child.stdin?.write(user("second"));
    const out = await results;
    expect(out.split("\n").filter((l) => l.includes('"type":"result"'))).toHaveLength(4);
    const end = exited(child);
    child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(child.exitCode).toBeNull();
    child.kill("SIGKILL");
    expect(await end).toEqual({ code: null, signal: "SIGKILL" });

    const lines = record(file);
    const [launch] = lines;
    expect(launch).toMatchObject({ v: 1, protocol: "agent-cli", pid: child.pid, event: "launch", mockArgs: ["--model", "m-1"], faults: ["ignore-sigterm", "double-result"], execPath: process.execPath });
    expect(launch?.argv).toEqual([AGENT, "--model", "m-1"]);
    expect(launch?.mcpConfig).toBeNull();
    expect(launch?.stdin).toMatchObject({ isTTY: false });
    expect((launch?.env as Record<string, string>).AWP_REFERENCE_API_KEY).toBe("[redacted]");
    expect(JSON.stringify(lines)).not.toContain("sk-mock-secret-value");
    expect(lines.filter((l) => l.event === "stdin-line")).toEqual([
      expect.objectContaining({ index: 0, bytes: user("first").length - 1, json: { type: "user" }, truncated: false }),
      expect.objectContaining({ index: 1, text: user("second").trimEnd() }),
    ]);
    const signal = lines.findIndex((l) => l.event === "signal");
    expect(lines[signal]).toMatchObject({ name: "SIGTERM", action: "ignored" });
    expect(lines.slice(signal + 1).length).toBeGreaterThanOrEqual(2);
    expect(lines.slice(signal + 1).every((l) => l.event === "alive")).toBe(true);
  }, 10_000);

  it("agent-cli bin without a model URL answers turns with the built-in model; a configured URL still wins", async () => {
    const converse = async (extra: Record<string, string>): Promise<string[]> => {
      const env = { PATH: process.env.PATH ?? "", HOME: temp(), ...extra };
      const child = spawn(AGENT, ["--output-format", "stream-json", "--input-format", "stream-json", "--print", "--verbose", "--model", "m-1"], { env, stdio: ["pipe", "pipe", "pipe"] });
      const end = exited(child);
      const out = until(child, (text) => (text.match(/"type":"result"/g) ?? []).length >= 2);
      child.stdin?.write(user("first"));
      child.stdin?.end(user("second"));
      const results = (await out).split("\n").filter((l) => l.includes('"type":"result"')).map((l) => JSON.parse(l) as { subtype: string; result: string });
      expect(await end).toEqual({ code: 0, signal: null });
      return results.map((r) => `${r.subtype}: ${r.result}`);
    };
    // Nothing configured (a host author with no model server), or an empty value: the kit's deterministic model.
    const builtin = ["success: Reply 1 from the awp-conformance fixture (turn 1).", "success: Reply 2 from the awp-conformance fixture (turn 2)."];
    expect(await converse({})).toEqual(builtin);
    expect(await converse({ AWP_REFERENCE_API_BASE_URL: "" })).toEqual(builtin);
    // A configured URL is used, even one that does not answer (a closed loopback port): no built-in model behind it.
    const configured = await converse({ AWP_REFERENCE_API_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(configured).toHaveLength(2);
    for (const result of configured) expect(result).not.toContain("awp-conformance fixture");
    expect(configured.every((r) => !r.startsWith("success"))).toBe(true);
  }, 15_000);

  it("`mock --path` prints the standalone bin as an absolute path to a regular file; a wrong protocol is a usage error", () => {
    const printed = spawnSync(process.execPath, [CLI, "mock", "--path", "agent-cli"], { encoding: "utf8", timeout: 10_000 });
    expect(printed.status).toBe(0);
    expect(printed.stdout).toBe(`${realpathSync(AGENT)}\n`);
    expect(lstatSync(printed.stdout.trimEnd()).isFile()).toBe(true);
    expect(spawnSync(process.execPath, [CLI, "mock", "--path", "provider"], { encoding: "utf8", timeout: 10_000 }).stdout).toBe(`${realpathSync(PROVIDER)}\n`);
    const wrong = spawnSync(process.execPath, [CLI, "mock", "--path", "agent"], { encoding: "utf8", timeout: 10_000 });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe("awp-conformance mock: --path takes one of agent-cli or provider: awp-conformance mock --path agent-cli\n");
  });

  it("provider through `awp-conformance mock`, two composed faults and --record: the answer bent by both, one request, a normal exit", () => {
    const file = join(temp(), "calls.jsonl");
    const result = spawnSync(process.execPath, [CLI, "mock", "provider", "--fault", "wrong-request-id", "--record", file, "--fault", "trailing-document"], { input: DESCRIBE, encoding: "utf8", timeout: 10_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\{"api_version":"aw-provider\/v1alpha1","request_id":"describe-1-x","status":"ok",.*\}\n\{\}\n$/);
    const lines = record(file);
    expect(lines.map((l) => l.event)).toEqual(["launch", "stdin-data", "stdin-end", "request", "answer", "exit"]);
    expect(lines[0]).toMatchObject({ argv: [CLI, "mock", "provider", "--fault", "wrong-request-id", "--record", file, "--fault", "trailing-document"], mockArgs: [], faults: ["wrong-request-id", "trailing-document"] });
    expect(lines[0]).not.toHaveProperty("mcpConfig");
    expect(lines[1]).toMatchObject({ bytes: DESCRIBE.length });
    expect(lines[2]).toMatchObject({ partial: 0 });
    expect(lines[3]).toMatchObject({ bytes: DESCRIBE.length, documents: 1, method: "describe", id: "describe-1", deadline: null, json: true });
    // What it answered, and that both faults turned the answer into a failed call for a host.
    expect(lines[4]).toMatchObject({ status: "ok", failures: ["wrong-request-id", "trailing-document"] });
    expect(lines[5]).toMatchObject({ code: 0, reason: "done" });
  });

  it("provider bin that hangs: a SIGTERM ends it as the signal would (recorded), and usage mistakes exit 2 with one line", async () => {
    const file = join(temp(), "hang.jsonl");
    const child = spawn(PROVIDER, ["--fault", "hang", "--record", file], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdin?.end(DESCRIBE);
    const end = exited(child);
    for (let i = 0; i < 50 && !readFileSync(file, { encoding: "utf8", flag: "a+" }).includes('"request"'); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGTERM");
    expect(await end).toEqual({ code: null, signal: "SIGTERM" });
    expect(record(file).slice(-2)).toEqual([expect.objectContaining({ event: "signal", name: "SIGTERM", action: "exit" }), expect.objectContaining({ event: "exit", code: 143, reason: "signal" })]);

    const wrong = spawnSync(process.execPath, [CLI, "mock", "agent-cli", "--fault", "wrong-digest"], { encoding: "utf8", timeout: 10_000 });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe('awp-conformance mock: fault "wrong-digest" is a provider fault, not an agent-cli one (list them: awp-conformance mock --list --protocol agent-cli)\n');
  });
});
