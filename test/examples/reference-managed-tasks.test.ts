import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, Cli, ControlPlane, CP_KEY, HUGE, type Json, Model, MODEL_KEY, type Reply, STDERR, STDOUT } from "./managed-tasks-stubs.js";

const home = mkdtempSync(join(tmpdir(), "awp-ref-mt-"));
const cleanup: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  rmSync(home, { recursive: true, force: true });
});

async function stubs(): Promise<{ model: Model; cp: ControlPlane }> {
  const model = await new Model().start();
  const cp = await new ControlPlane().start();
  cleanup.push(() => model.close(), () => cp.close());
  return { model, cp };
}

function launch(model: Model, extra: Record<string, string>, args: string[] = ["--model", "m"]): Cli {
  const env = { PATH: process.env.PATH ?? "", HOME: home, AWP_REFERENCE_API_BASE_URL: model.base, AWP_REFERENCE_API_KEY: MODEL_KEY, AWP_REFERENCE_STATE_DIR: join(home, "state"), ...extra };
  const cli = new Cli(args, env);
  cleanup.push(() => cli.kill());
  return cli;
}

const bridge = (cp: ControlPlane): Record<string, string> => ({ AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: cp.origin, AWP_CONTROL_PLANE_API_KEY: CP_KEY });
const STREAM_JSON = ["--output-format", "stream-json", "--input-format", "stream-json", "--print", "--verbose", "--model", "m"];
const toolNames = (body: Json): unknown[] => (body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
const toolUses = (cli: Cli): unknown[] => cli.events.filter((e) => e.type === "assistant").flatMap((e) => (e.message as { content: unknown[] }).content);
const shown = (calls: Array<[string, string, unknown]>): unknown[] => calls.map(([id, name, input]) => ({ type: "tool_use", id, name, input }));

/** The content of the tool message answering `id` in the model request `body`, parsed. */
function toolResult(body: Json, id: string): Json {
  const message = (body.messages as Json[]).find((m) => m.role === "tool" && m.tool_call_id === id);
  if (message === undefined) throw new Error(`no tool result for ${id}`);
  return JSON.parse(message.content as string) as Json;
}

describe("reference agent CLI: managed-task bridge gating", () => {
  it("refuses every incomplete or unsafe bridge configuration at startup, before any input", async () => {
    const { model } = await stubs();
    const url = "http://127.0.0.1:9";
    const cases: Array<[Record<string, string>, string]> = [
      [{ AWP_CONTROL_PLANE_URL: url }, "managed_tasks_require_explicit_opt_in"],
      [{ AWP_CONTROL_PLANE_API_KEY: CP_KEY }, "managed_tasks_require_explicit_opt_in"],
      [{ AWP_CONTROL_PLANE_URL: url, AWP_CONTROL_PLANE_API_KEY: CP_KEY }, "managed_tasks_require_explicit_opt_in"],
      [{ AWP_AGENT_MANAGED_TASKS_OPT_IN: "true", AWP_CONTROL_PLANE_URL: url, AWP_CONTROL_PLANE_API_KEY: CP_KEY }, "managed_tasks_require_explicit_opt_in"],
      [{ AWP_AGENT_MANAGED_TASKS_OPT_IN: "1" }, "managed_tasks_configuration_incomplete"],
      [{ AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: url }, "managed_tasks_configuration_incomplete"],
      [{ AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_API_KEY: CP_KEY }, "managed_tasks_configuration_incomplete"],
      ...["http://127.0.0.1:9/v1", "http://127.0.0.1:9/?a=1", "http://127.0.0.1:9?", "http://u:p@127.0.0.1:9", "http://127.0.0.1:9/#x", "ftp://127.0.0.1:9", "not a url"].map(
        (bad): [Record<string, string>, string] => [{ AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: bad, AWP_CONTROL_PLANE_API_KEY: CP_KEY }, "invalid_control_plane_url"],
      ),
      [{ AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: "http://cp.example.com", AWP_CONTROL_PLANE_API_KEY: CP_KEY, AWP_AGENT_REMOTE_API_OPT_IN: "1" }, "remote_control_plane_requires_https"],
      [{ AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: "https://cp.example.com", AWP_CONTROL_PLANE_API_KEY: CP_KEY }, "remote_control_plane_requires_explicit_opt_in"],
      ...["short-key-15byt", `${"k".repeat(20)} x`, `${"k".repeat(20)}\tx`, `${"k".repeat(20)}\u0085`, "k".repeat(4097)].map(
        (bad): [Record<string, string>, string] => [{ AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: url, AWP_CONTROL_PLANE_API_KEY: bad }, "invalid_control_plane_token"],
      ),
    ];
    const runs = cases.map(([extra]) => launch(model, extra));
    const exits = await Promise.all(runs.map((cli) => cli.exited));
    cases.forEach(([, code], i) => {
      expect({ i, exit: exits[i], stdout: runs[i]!.stdout }).toEqual({ i, exit: 1, stdout: `${JSON.stringify({ type: "result", subtype: "startup_error", is_error: true, result: code })}\n` });
      expect(runs[i]!.stderr).not.toContain(CP_KEY);
    });
    expect(model.requests).toHaveLength(0);
  });

  it("starts with a valid configuration (a remote https one with the remote opt-in too) and stays silent until input", async () => {
    const { model } = await stubs();
    const configs: Array<Record<string, string>> = [
      { AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: "https://cp.example.com", AWP_CONTROL_PLANE_API_KEY: CP_KEY, AWP_AGENT_REMOTE_API_OPT_IN: "1" },
      { AWP_AGENT_MANAGED_TASKS_OPT_IN: "1", AWP_CONTROL_PLANE_URL: "http://[::1]:9/", AWP_CONTROL_PLANE_API_KEY: "k".repeat(16) },
      { AWP_AGENT_MANAGED_TASKS_OPT_IN: "0" },
    ];
    const ok = configs.map((extra) => launch(model, extra));
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const cli of ok) cli.child.stdin.end();
    expect(await Promise.all(ok.map((cli) => cli.exited))).toEqual([0, 0, 0]);
    expect(ok.map((cli) => cli.stdout)).toEqual(["", "", ""]);
  });

  it("without the bridge offers only read_file, answers a managed call tool_not_available and never reaches a control plane", async () => {
    const { model, cp } = await stubs();
    model.script({ calls: [call("call_x", { argv: ["awp-task"] })] }, { text: "ok" });
    const cli = launch(model, {});
    cli.say("run something");
    const [result] = await cli.waitForResults(1);
    expect(result).toMatchObject({ subtype: "success", result: "ok" });
    expect(cli.events[0]).toMatchObject({ type: "system", subtype: "init", tools: ["read_file"] });
    expect(model.bodies().map(toolNames)).toEqual([["read_file"], ["read_file"]]);
    expect((model.bodies()[1]!.messages as Json[]).find((m) => m.role === "tool")?.content).toBe("tool_not_available: awp_run_managed_task");
    expect(cp.requests).toHaveLength(0);
    cli.child.stdin.end();
    expect(await cli.exited).toBe(0);
  });
});

describe.concurrent("reference agent CLI: managed tasks", () => {
  it("submits argv as given with idempotency keys, frames results, cuts output, times out, maps failures, enforces limits", async ({ expect }) => {
    const { model, cp } = await stubs();
    const args1 = { argv: ["awp-task", "success", "two words; echo $HOME", "$(id)"], timeout_seconds: 10 };
    const turns: Array<{ rounds: Array<Array<[string, string, unknown]>>; text?: string }> = [
      { rounds: [[call("call_A", args1)], [call("call_A", args1)], [call("call_B", args1)]], text: "done 1" },
      { rounds: [[call("call_A", args1)], [call("call_A", { ...args1, timeout_seconds: 11 })]], text: "done 2" },
      { rounds: [[call("call_H", { argv: ["awp-task", "huge"] })]], text: "done 3" },
      { rounds: [[call("call_P", { argv: ["awp-task", "pending"], timeout_seconds: 1 })]], text: "done 4" },
      { rounds: [["http-500", "redirect", "not-json", "bad-id"].map((plan) => call(`call_${plan}`, { argv: ["awp-task", plan] }))], text: "done 5" },
      { rounds: [[call("call_bs", { argv: ["awp-task", "bad-status"] }), call("call_ek", { argv: ["awp-task", "echo-key"] })]], text: "done 6" },
      {
        rounds: [[call("bad_1", { argv: ["sh -c", "x"] }), call("bad_2", { argv: [] }), call("bad_3", { argv: ["ls"], cwd: "/" }), call("bad_4", { argv: ["ls"], timeout_seconds: 301 })]],
        text: "done 7",
      },
      { rounds: [[1, 2, 3, 4, 5].map((n) => call(`many_${n}`, { argv: ["awp-task", "success"] }))] },
      { rounds: [1, 2, 3, 4].map((n) => [call(`again_${n}`, { argv: ["awp-task", "success"] })]) },
      { rounds: [], text: "plain" },
    ];
    for (const turn of turns) model.script(...turn.rounds.map((calls): Reply => ({ calls })), ...(turn.text !== undefined ? [{ text: turn.text }] : []));
    const cli = launch(model, bridge(cp));
    turns.forEach((_, i) => cli.say(`turn ${i + 1}`));
    const results = await cli.waitForResults(turns.length, 14_000);
    cli.child.stdin.end();
    expect(await cli.exited).toBe(0);

    // One terminal event per turn: text turns succeed with summed usage; the limits are errors.
    expect(results.map((r) => r.result)).toEqual(["done 1", "done 2", "done 3", "done 4", "done 5", "done 6", "done 7", "managed_tool_call_limit", "managed_tool_round_limit", "plain"]);
    expect(results.map((r) => r.subtype)).toEqual(["success", "success", "success", "success", "success", "success", "success", "error", "error", "success"]);
    expect(results[0]!.usage).toEqual({ input_tokens: 25, output_tokens: 5 });
    // Every call the model made is shown, in order, in awp-jsonl mode.
    expect(cli.events[0]).toMatchObject({ type: "system", tools: ["read_file", "awp_run_managed_task"] });
    expect(toolUses(cli)).toEqual(shown(turns.flatMap((t) => t.rounds.flat())));

    // The tool offered, exactly.
    const bodies = model.bodies();
    const offered = (bodies[0]!.tools as Json[])[1] as { function: { name: string; parameters: Json } };
    expect(offered.function.name).toBe("awp_run_managed_task");
    expect(offered.function.parameters).toMatchObject({ type: "object", required: ["argv"], additionalProperties: false, properties: { argv: { type: "array", minItems: 1, maxItems: 32 }, timeout_seconds: { type: "number", minimum: 1, maximum: 300, default: 60 } } });

    // Submissions: argv unchanged, the API's shape and headers, keys equal only for the same call.
    const posts = cp.requests.filter((r) => r.method === "POST");
    for (const post of posts) {
      expect(post.url).toBe("/v1/tasks");
      expect(post.headers["content-type"]).toBe("application/json");
      expect(post.headers.authorization).toBe(`Bearer ${CP_KEY}`);
    }
    const subs = cp.submissions();
    expect(subs[0]).toEqual({ task_type: "command", payload: { argv: args1.argv }, idempotency_key: expect.stringMatching(/^awp-reference-agent:[0-9a-f]{64}$/) as unknown });
    const keys = subs.map((s) => s.idempotency_key);
    expect(keys[0]).toBe(keys[1]); // call_A twice in turn 1
    expect(new Set([keys[0], keys[2], keys[3], keys[4]]).size).toBe(4); // call_B; call_A in turn 2; other args
    expect(new Set(keys.slice(2)).size).toBe(keys.length - 2);
    // 3 + 2 + 1 + 1 + 4 + 2 + 0 (bad arguments) + 0 (call limit) + 3 (round limit: the 4th round is not run)
    expect(subs).toHaveLength(16);
    expect(cp.requests.some((r) => r.url === "/v1/elsewhere")).toBe(false);

    // Results back to the model, tied to the call id.
    const first = toolResult(bodies[1]!, "call_A");
    expect(first).toEqual({ task_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown, status: "success", exit_code: 3, stdout: STDOUT, stderr: STDERR });
    expect(cp.requests.some((r) => r.method === "GET" && r.url === `/v1/tasks/${first.task_id as string}`)).toBe(true);
    const huge = toolResult(bodies.find((b) => JSON.stringify(b.messages).includes("call_H"))!, "call_H");
    expect(Buffer.byteLength(huge.stdout as string)).toBe(65_535);
    expect(huge).toMatchObject({ status: "success", stdout: HUGE.slice(0, 32_768), stdout_truncated: true, stderr: STDERR });
    const pendingBody = bodies.find((b) => JSON.stringify(b.messages).includes("call_P"))!;
    expect(toolResult(pendingBody, "call_P")).toMatchObject({ status: "timeout", exit_code: null, stdout: "", stderr: "" });
    const pendingPost = posts[6]!;
    const followUp = model.requests[bodies.indexOf(pendingBody)]!;
    expect(followUp.at - pendingPost.at).toBeLessThan(1000 + 1500);
    expect(followUp.at - pendingPost.at).toBeGreaterThan(800);
    expect(cp.requests.filter((r) => r.method === "GET" && r.at > pendingPost.at && r.at < followUp.at).length).toBeGreaterThanOrEqual(2);
    const fifth = bodies.find((b) => JSON.stringify(b.messages).includes("call_bad-id"))!;
    expect(["http-500", "redirect", "not-json", "bad-id"].map((plan) => toolResult(fifth, `call_${plan}`))).toEqual(
      ["control_plane_http_500", "control_plane_redirect_rejected", "control_plane_response_not_json", "invalid_control_plane_task_id"].map((error) => ({ error })),
    );
    const sixth = bodies.find((b) => JSON.stringify(b.messages).includes("call_ek"))!;
    expect(toolResult(sixth, "call_bs")).toEqual({ error: "invalid_control_plane_task_status" });
    expect(toolResult(sixth, "call_ek")).toMatchObject({ status: "success", stdout: "key=[redacted]" });
    const seventh = bodies.find((b) => JSON.stringify(b.messages).includes("bad_4"))!;
    expect(["bad_1", "bad_2", "bad_3", "bad_4"].map((id) => toolResult(seventh, id))).toEqual(
      ["invalid_argv_program", "invalid_argv", "invalid_tool_arguments", "invalid_timeout_seconds"].map((error) => ({ error })),
    );

    // The control-plane key is nowhere but in its own Authorization headers.
    expect(cli.stdout + cli.stderr).not.toContain(CP_KEY);
    for (const request of model.requests) expect(request.text + JSON.stringify(request.headers)).not.toContain(CP_KEY);
  });

  it("shows the tool call in stream-json mode too and frames its result", async ({ expect }) => {
    const { model, cp } = await stubs();
    const calls = [call("call_S", { argv: ["awp-task", "success", "a b"], timeout_seconds: 5 })];
    model.script({ calls }, { text: "seen it" });
    const cli = launch(model, bridge(cp), STREAM_JSON);
    cli.say("run it");
    const [result] = await cli.waitForResults(1);
    expect(result).toMatchObject({ subtype: "success", result: "seen it", usage: { input_tokens: 15, output_tokens: 3 } });
    expect(toolUses(cli)).toEqual(shown(calls));
    expect(cp.submissions()[0]).toMatchObject({ payload: { argv: ["awp-task", "success", "a b"] } });
    expect(toolResult(model.bodies()[1]!, "call_S")).toMatchObject({ status: "success", exit_code: 3, stdout: STDOUT, stderr: STDERR });
    expect(cli.stdout + cli.stderr).not.toContain(CP_KEY);
    cli.child.stdin.end();
    expect(await cli.exited).toBe(0);
  });

  it("gives up on a submission after 5 s (control_plane_timeout) and keeps serving", async ({ expect }) => {
    const { model, cp } = await stubs();
    model.script({ calls: [call("call_slow", { argv: ["awp-task", "slow"], timeout_seconds: 30 })] }, { text: "after slow" }, { text: "next" });
    const cli = launch(model, bridge(cp));
    cli.say("slow one");
    cli.say("next one");
    const results = await cli.waitForResults(2, 12_000);
    expect(results.map((r) => r.result)).toEqual(["after slow", "next"]);
    expect(toolResult(model.bodies()[1]!, "call_slow")).toEqual({ error: "control_plane_timeout" });
    const waited = model.requests[1]!.at - cp.requests[0]!.at;
    expect(waited).toBeGreaterThan(4_900);
    expect(waited).toBeLessThan(6_400);
    cli.child.stdin.end();
    expect(await cli.exited).toBe(0);
  });

  it("stops at once on a shutdown line while waiting for a task, without a result", async ({ expect }) => {
    const { model, cp } = await stubs();
    model.script({ calls: [call("call_wait", { argv: ["awp-task", "pending"], timeout_seconds: 60 })] });
    const cli = launch(model, bridge(cp));
    cli.say("wait forever");
    while (!cp.requests.some((r) => r.method === "GET")) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = Date.now();
    cli.send({ type: "shutdown" });
    expect(await cli.exited).toBe(0);
    expect(Date.now() - before).toBeLessThan(1500);
    expect(cli.results()).toHaveLength(0);
  });
});

describe("reference agent CLI: managed-task arguments and cuts", () => {
  interface ManagedTaskModule {
    parseManagedArgs(text: string): unknown;
    cut(text: string): { text: string; cut: boolean };
  }
  const load = async (): Promise<ManagedTaskModule> => (await import(new URL("../../examples/reference-agent-cli/managed-task.mjs", import.meta.url).href)) as ManagedTaskModule;
  const codeOf = (mod: ManagedTaskModule, args: unknown): string => {
    try {
      mod.parseManagedArgs(typeof args === "string" ? args : JSON.stringify(args));
      return "ok";
    } catch (error) {
      return (error as { code: string }).code;
    }
  };

  it("checks each bound of argv and timeout_seconds at its edge", async () => {
    const mod = await load();
    expect(mod.parseManagedArgs('{"argv":["ls"]}')).toEqual({ argv: ["ls"], timeout_seconds: 60 });
    const cases: Array<[unknown, string]> = [
      ["[1]", "invalid_tool_arguments"],
      ["not json", "invalid_tool_arguments"],
      [{ argv: Array(32).fill("x") }, "ok"],
      [{ argv: Array(33).fill("x") }, "invalid_argv"],
      [{ argv: ["x", "é".repeat(8192)] }, "ok"],
      [{ argv: ["x", "é".repeat(8193)] }, "invalid_argv"],
      [{ argv: ["x", "😀".repeat(8192)] }, "ok"],
      [{ argv: ["x", ""] }, "invalid_argv"],
      [{ argv: ["x", "a\u0000b"] }, "invalid_argv"],
      [{ argv: ["x", 1] }, "invalid_argv"],
      [{ argv: "ls -l" }, "invalid_argv"],
      [{ argv: ["a".repeat(128)] }, "ok"],
      [{ argv: ["a".repeat(129)] }, "invalid_argv_program"],
      [{ argv: ["/bin/ls"] }, "invalid_argv_program"],
      [{ argv: ["x", ...Array(7).fill("a".repeat(8192)), "a".repeat(8191)] }, "ok"],
      [{ argv: ["x", ...Array(8).fill("a".repeat(8192))] }, "argv_too_large"],
      [{ argv: ["x"], timeout_seconds: 1 }, "ok"],
      [{ argv: ["x"], timeout_seconds: 300 }, "ok"],
      [{ argv: ["x"], timeout_seconds: 2.5 }, "ok"],
      [{ argv: ["x"], timeout_seconds: 0.5 }, "invalid_timeout_seconds"],
      [{ argv: ["x"], timeout_seconds: "60" }, "invalid_timeout_seconds"],
    ];
    expect(cases.map(([args]) => codeOf(mod, args))).toEqual(cases.map(([, code]) => code));
  });

  it("cuts output to 64 KiB of UTF-8 without splitting a character", async () => {
    const mod = await load();
    expect(mod.cut("a".repeat(65_536))).toEqual({ text: "a".repeat(65_536), cut: false });
    expect(mod.cut("a".repeat(65_537))).toEqual({ text: "a".repeat(65_536), cut: true });
    expect(mod.cut(`ab${"😀".repeat(20_000)}`).text).toBe(`ab${"😀".repeat(16_383)}`);
  });
});
