import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, runCli, useTempDirs } from "./cli.js";

const REFERENCE = join(ROOT, "examples/reference-agent-cli/agent-cli.mjs");
const REFERENCE_ENV = ["--env", "AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "--env", "AWP_REFERENCE_API_KEY={{fixture.token}}", "--env", "AWP_REFERENCE_TIMEOUT_MS=2000"];
const temp = useTempDirs();

describe("awp-conformance record", () => {
  it("saves a live session as a transcript that check then judges", async () => {
    const dir = temp();
    const file = join(dir, "session.jsonl");
    const recorded = await runCli(["record", "--scenario", "tools", "--out", file, ...REFERENCE_ENV, REFERENCE]);
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toMatch(/recorded tools \(\d+ events\)/);
    const text = readFileSync(file, "utf8");
    expect(JSON.parse(text.split("\n")[0] ?? "{}")).toMatchObject({ kind: "header", scenario: "tools", mode: "awp-jsonl" });
    expect(text).not.toMatch(/sk-awp-/);
    const checked = await runCli(["check", "--verbose", file]);
    // One recorded scenario cannot show the launch configuration or the other scenarios' MUST clauses: incomplete.
    expect(checked.code).toBe(4);
    expect(checked.stdout).toMatch(/^INCOMPLETE — \d+ MUST clauses could not be judged/m);
    expect(checked.stdout).not.toMatch(/^FAIL /m);
    expect(checked.stdout).toMatch(/PASS {2}SHOULD agent-cli\/turns\/tool-use/);
  });

  it("refuses more than one scenario", async () => {
    const result = await runCli(["record", "--scenario", "basic,tools", "--out", "x.jsonl", REFERENCE]);
    expect(result.code).toBe(2);
  });
});

describe("awp-conformance fixture", () => {
  it("serves the scripted model and the control plane alone until interrupted", async () => {
    const child = execa(process.execPath, [CLI, "fixture", "--port", "0"], { reject: false, cwd: ROOT });
    const seen = await new Promise<string>((resolve, reject) => {
      let text = "";
      const timer = setTimeout(() => reject(new Error(`no URLs in: ${text}`)), 10_000);
      child.stdout?.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes("Ctrl-C stops it.")) {
          clearTimeout(timer);
          resolve(text);
        }
      });
    });
    const value = (name: string): string => new RegExp(`\\{\\{fixture\\.${name}\\}\\}\\s+(\\S+)`).exec(seen)?.[1] ?? "";
    const response = await fetch(`${value("openai")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi [[awp-fixture reply=Hello%20there]]" }] }),
    });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe("Hello there");

    const origin = value("controlplane");
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const token = value("controlplane_token");
    expect(token).toMatch(/^awp-cp-[0-9a-f]{48}$/);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const task = { task_type: "command", payload: { argv: ["awp-conformance-task", "plan=pending"] }, idempotency_key: "k" };
    const submitted = await fetch(`${origin}/v1/tasks`, { method: "POST", headers, body: JSON.stringify(task) });
    const { id } = (await submitted.json()) as { id: string };
    expect(await (await fetch(`${origin}/v1/tasks/${id}`, { headers })).json()).toEqual({ id, status: "pending" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill("SIGINT");
    const result = await child;
    expect(result.exitCode === 130 || result.exitCode === 0).toBe(true);
    const out = String(result.stdout);
    expect(out).toMatch(/#1 openai \/v1\/chat\/completions -> 200 complete/);
    expect(out).toMatch(/cp #1 POST \/v1\/tasks -> 201 complete \(plan pending\)/);
    expect(out).toMatch(/cp #2 GET \/v1\/tasks\/\S+ -> 200 complete \(plan pending\) pending/);
    expect(out).toContain("plan=pending");
    await expect(fetch(`${origin}/v1/tasks/${id}`, { headers })).rejects.toThrow();
  });
});
