/**
 * A CLI that refuses to start: the same verdict whatever the moment its answer and its exit
 * reached the kit (before or after the first input line, before or after the kit's own stop),
 * one finding for one cause, and a refusal tied to one flag judged by that flag's clause.
 */
import { describe, expect, it } from "vitest";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { runOf, Script } from "./transcripts.js";

const STARTUP_ERROR = { type: "result", subtype: "startup_error", is_error: true, result: "missing_api_base_url" };
const STDERR = "awp-reference-agent-cli: AWP_REFERENCE_API_BASE_URL is not set\n";
const ARGV = ["/opt/cli", "--model", "m"];
const MCP_ARGV = [...ARGV, "--mcp-config", "/tmp/work/awp-mcp-config.json"];

/** When the refusal's answer and exit came, relative to the kit's first line and its own stop. */
type Timing = "exit-before-input" | "answer-before-input" | "answer-after-input" | "ended-after-host-asked";

/** What the kit does right after a first turn answered (or not): the scenario's own next step. */
const HOST_STEP: Readonly<Record<string, (s: Script) => Script>> = {
  basic: (s) => s.user("Write a long answer.").action("close-stdin"),
  resume: (s) => s.action("close-stdin"),
  shutdown: (s) => s.send('{"type":"shutdown"}'),
  "sigterm-idle": (s) => s.action("sigterm"),
  tools: (s) => s.action("stop"),
  mcp: (s) => s.action("stop"),
};

/** One scenario's launch of a CLI that refuses to start (a required variable unset), as the given timing recorded it. */
function refusing(scenario: string, timing: Timing, argv: string[] = ARGV): Script {
  const s = new Script(scenario).launch(argv);
  if (timing === "exit-before-input") return s.err(STDERR).out(STARTUP_ERROR).exit(1);
  if (timing === "answer-before-input") return s.err(STDERR).out(STARTUP_ERROR).user("Say hello.").exit(1);
  s.user("Say hello.").err(STDERR).out(STARTUP_ERROR);
  const step = HOST_STEP[scenario];
  if (timing === "answer-after-input" || step === undefined) return s.exit(1);
  step(s);
  // Stopped by the kit, ended by the SIGTERM, or by its own exit(1): whichever came first.
  return scenario === "tools" || scenario === "mcp" ? s.exit(null, true, "SIGTERM") : scenario === "sigterm-idle" ? s.exit(null, false, "SIGTERM") : s.exit(1);
}

const SCENARIOS = ["basic", "queued", "tools", "mcp", "resume", "failures-error", "shutdown", "sigterm-idle"] as const;
const TIMINGS: readonly Timing[] = ["exit-before-input", "answer-before-input", "answer-after-input", "ended-after-host-asked"];

/** The whole verdict, moments left out: status, reason, judged count and finding messages of every clause. */
function verdict(results: readonly ClauseResult[]): unknown[] {
  return results.map((r) => [r.id, r.status, r.reason ?? "", r.findings.map((f) => `${f.message} | ${f.seen ?? ""}`)]);
}

function runWith(pick: (scenario: string, i: number) => Timing): ReturnType<typeof judgeAgentRun> {
  return judgeAgentRun(runOf(...SCENARIOS.map((scenario, i) => refusing(scenario, pick(scenario, i), scenario === "mcp" ? MCP_ARGV : ARGV))));
}

describe("a CLI that refuses to start in every scenario", () => {
  // Each scenario takes every timing in turn; the queued and failure scenarios have no stop of the
  // host after their first turn, so at least they always end on their own, as in a live run.
  const runs = TIMINGS.map((timing, k) => runWith((scenario, i) => (["queued", "failures-error"].includes(scenario) && timing === "ended-after-host-asked" ? "answer-after-input" : TIMINGS[(i + k) % TIMINGS.length] as Timing)));
  const uniform = TIMINGS.map((timing) => runWith((scenario) => (["queued", "failures-error"].includes(scenario) && timing === "ended-after-host-asked" ? "answer-after-input" : timing)));

  it("gets the same verdict, clause by clause and finding by finding, whatever the moment of its answer and its exit", () => {
    const first = verdict((runs[0] as ReturnType<typeof judgeAgentRun>).results);
    for (const run of [...runs, ...uniform]) expect(verdict(run.results)).toEqual(first);
  });

  it("fails session/stays-up once, quoting the startup error and stderr, and halts the run naming that cause", () => {
    const run = runs[0] as ReturnType<typeof judgeAgentRun>;
    expect(run.results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual(["agent-cli/session/stays-up"]);
    const stays = run.results.find((r) => r.id === "agent-cli/session/stays-up");
    expect(stays?.findings).toHaveLength(1);
    expect(stays?.findings[0]?.message).toContain(`each of ${SCENARIOS.length} launches`);
    expect(stays?.findings[0]?.message).toContain('"result":"missing_api_base_url"');
    expect(stays?.findings[0]?.message).toContain("stderr says: awp-reference-agent-cli: AWP_REFERENCE_API_BASE_URL is not set");
    expect(run.halted).toMatch(/^the CLI refused to start: every launch \(8\) ended before serving a turn/);
    expect(run.halted).toContain("missing_api_base_url");
    // The refusal is reported the way the upstream reference does it.
    expect(run.results.find((r) => r.id === "agent-cli/session/refusal-reported")?.status).toBe("pass");
  });

  it("skips every clause that needed a served turn with that one cause, never with a reason false of the run", () => {
    const run = runs[0] as ReturnType<typeof judgeAgentRun>;
    const skipped = run.results.filter((r) => r.status === "skip" || r.status === "not-applicable");
    expect(skipped.length).toBeGreaterThan(20);
    for (const r of skipped.filter((c) => !c.id.startsWith("agent-cli/launch/") && !c.id.startsWith("agent-cli/managed-tasks/"))) expect([r.id, r.reason]).toEqual([r.id, run.halted]);
    const reasons = run.results.map((r) => r.reason ?? "").join("\n");
    expect(reasons).not.toMatch(/the (basic|shutdown|sigterm-idle) scenario did not run|never called the kit's model/);
  });
});

describe("a CLI that refuses to start only with one flag", () => {
  const served = (scenario: string): Script =>
    new Script(scenario).launch().user("Say hello.").out({ type: "system", subtype: "init", session_id: "s-1" }).model({ userText: "Say hello." }).deltas("Hello.").success().action("close-stdin").exit(0);
  const MCP_ERROR = { type: "result", subtype: "startup_error", is_error: true, result: "unknown_option:--mcp-config" };

  // (A kit that stopped the process between its answer and its exit could not tell: the runner lets such a process end first.)
  it.each(["exit-before-input", "answer-before-input", "answer-after-input"] as const)("fails agent-cli/input/mcp-config quoting its answer, not stays-up or a turns clause (%s)", (timing) => {
    const mcp = new Script("mcp").launch(MCP_ARGV);
    if (timing === "exit-before-input") mcp.err("unknown option --mcp-config\n").out(MCP_ERROR).exit(1);
    else if (timing === "answer-before-input") mcp.err("unknown option --mcp-config\n").out(MCP_ERROR).user("A turn with an MCP configuration.").exit(1);
    else mcp.user("A turn with an MCP configuration.").err("unknown option --mcp-config\n").out(MCP_ERROR).exit(1);
    const run = judgeAgentRun(runOf(served("basic"), mcp));
    const failed = run.results.filter((r) => r.status === "fail");
    expect(failed.map((r) => r.id)).toEqual(["agent-cli/input/mcp-config"]);
    expect(failed[0]?.findings[0]?.message).toBe(
      'launched with --mcp-config, the CLI refused to start (exit code 1) while 1 launch without it served turns; it answered {"type":"result","subtype":"startup_error","is_error":true,"result":"unknown_option:--mcp-config"}; stderr says: unknown option --mcp-config',
    );
    expect(run.halted).toBeUndefined();
    expect(run.results.find((r) => r.id === "agent-cli/session/stays-up")?.status).toBe("pass");
  });

  it("fails mcp-config even when the CLI never called the kit's model (the model cause does not hide it)", () => {
    const chat = new Script("basic").launch().user("Say hello.").out({ type: "system", subtype: "init", session_id: "s-1" }).deltas("Hello.").success().action("close-stdin").exit(0);
    const mcp = new Script("mcp").launch(MCP_ARGV).user("A turn.").err("unknown option --mcp-config\n").out(MCP_ERROR).exit(1);
    const results = new Map(judgeAgentRun(runOf(chat, mcp)).results.map((r) => [r.id, r]));
    expect(results.get("agent-cli/input/mcp-config")?.status).toBe("fail");
    expect(results.get("agent-cli/input/text-block")?.reason).toContain("never called the kit's model fixture");
  });

  it("fails agent-cli/resume/accepts-id when only the launch with --resume refuses, and says so for the other resume clauses", () => {
    const resume = new Script("resume").launch().user("Remember.").out({ type: "system", subtype: "init", session_id: "s-1" }).model({ userText: "Remember." }).deltas("Ok.").success().action("close-stdin").exit(0);
    resume.launch([...ARGV, "--resume", "s-1"]).user("Which word?").err("unknown option --resume\n").out({ ...MCP_ERROR, result: "unknown_option:--resume" }).exit(1);
    const results = new Map(judgeAgentRun(runOf(resume)).results.map((r) => [r.id, r]));
    expect([...results.values()].filter((r) => r.status === "fail").map((r) => r.id)).toEqual(["agent-cli/resume/accepts-id"]);
    expect(results.get("agent-cli/resume/accepts-id")?.findings[0]?.message).toContain("launched with --resume s-1, the CLI refused to start (exit code 1) while 1 launch without it served turns");
    expect(results.get("agent-cli/resume/keeps-id")?.reason).toBe("the process launched with --resume s-1 refused to start (see agent-cli/resume/accepts-id)");
  });

  it("leaves the start's cause to stays-up when no launch without the flag ran, and says how to tell", () => {
    const mcp = new Script("mcp").launch(MCP_ARGV).user("A turn.").err("unknown option --mcp-config\n").out(MCP_ERROR).exit(1);
    const run = judgeAgentRun(runOf(mcp));
    expect(run.results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual(["agent-cli/session/stays-up"]);
    expect(run.halted).toContain("every launch carried --mcp-config: run the basic scenario too, so the kit can tell whether --mcp-config is the cause");
  });
});

describe("what is not a refused start", () => {
  it("a process that ends on a malformed line it was given before it wrote anything, or after it asked the model", () => {
    const malformed = new Script("malformed").launch().send("this is not json").err("not json, giving up\n").exit(1);
    const asked = new Script("basic").launch().user("hi").model({ userText: "hi", status: 500, outcome: "error" }).out({ type: "result", subtype: "error", is_error: true, result: "provider_http_500" }).exit(1);
    for (const s of [malformed, asked]) expect(judgeAgentRun(runOf(s)).results.find((r) => r.id === "agent-cli/session/stays-up")?.status).toBe("pass");
  });
});

describe("agent-cli/session/refusal-reported", () => {
  const status = (...scripts: Script[]): ClauseResult | undefined => judgeAgentRun(runOf(...scripts)).results.find((r) => r.id === "agent-cli/session/refusal-reported");

  it("is not applicable when no launch refused, with a reason true of such a run", () => {
    const s = new Script("basic").launch().user("hi").model({ userText: "hi" }).deltas("hello").success().action("close-stdin").exit(0);
    expect(status(s)).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("no launch refused to start") });
  });

  it("fails a refusal with nothing on stdout and exit status 0, once for every launch that gave it", () => {
    const r = status(new Script("basic").launch().exit(0), new Script("queued").launch().user("hi").exit(0));
    expect(r?.status).toBe("fail");
    expect(r?.findings.map((f) => f.message)).toEqual(["each of 2 launches (basic, queued) refused to start, and it wrote no error result on stdout, and it exited with status 0"]);
  });

  it("fails an error result without a code; passes the upstream form; judges no exit status the kit's stop may have caused", () => {
    expect(status(new Script("basic").launch().out({ type: "result", subtype: "error", is_error: true, result: "Missing API key!" }).exit(1))?.findings[0]?.message).toBe("the launch refused to start, and its error result names no machine-readable code");
    expect(status(new Script("basic").launch().out(STARTUP_ERROR).exit(1))?.status).toBe("pass");
    // Exit 0 after the kit's SIGTERM (a twin of the basic launch's refusal) is not the CLI's status to judge.
    expect(status(new Script("basic").launch().out(STARTUP_ERROR).exit(1), new Script("sigterm-idle").launch().user("hi").out(STARTUP_ERROR).action("sigterm").exit(0))?.status).toBe("pass");
  });
});
