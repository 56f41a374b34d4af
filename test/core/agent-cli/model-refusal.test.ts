/**
 * A model endpoint that refuses every request (a wrong path, no key, a request the API would
 * refuse) is one root cause: agent-cli/input/text-block fails for it once, and every clause
 * that needs a model reply is skipped naming it.
 */
import { describe, expect, it } from "vitest";
import { UNAUTHORIZED_REASON } from "../../../src/core/agent-cli/causes.js";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ModelCall } from "../../../src/core/agent-cli/types.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { runOf, Script } from "./transcripts.js";

const INIT = { type: "system", subtype: "init", session_id: "s-1" };
type Refused = Partial<ModelCall>;
const NOT_FOUND: Refused = { path: "/v1/wrong/chat/completions", status: 404, outcome: "bad-request", error: "no such path: /v1/wrong/chat/completions" };
const NO_KEY: Refused = { authorized: false, status: 401, outcome: "unauthorized", error: "missing or wrong API key" };
const BAD_REQUEST: Refused = { status: 400, outcome: "bad-request", error: "max_tokens: field required" };

/** One turn the CLI answers with the error its refused model request gave it. */
function turn(s: Script, text: string, refused: Refused, tag: string): Script {
  const code = `provider_http_${refused.status ?? 0}`;
  const line = `${text} [[awp-fixture turn=${tag}]]`;
  return s.user(line).out(INIT).model({ ...refused, userText: line, directive: { turn: tag } }).failure({ subtype: "error", result: code });
}

/** Every scenario whose verdict needs a model reply, with each request refused the same way. */
function refusedRun(refused: Refused): Map<string, ClauseResult> {
  const basic = new Script("basic").launch();
  turn(basic, "Say hello.", refused, "basic-1").action("close-stdin").exit(0);
  const content = turn(new Script("content").launch(), "Plain text question.", refused, "content-1");
  const mcp = turn(new Script("mcp").launch(["/opt/cli", "--model", "m", "--mcp-config", "/tmp/w/awp-mcp-config.json"]), "A turn with an MCP configuration.", refused, "mcp-1");
  const resume = turn(new Script("resume").launch(), "Remember.", refused, "resume-1").action("close-stdin").exit(0);
  turn(resume.launch(["/opt/cli", "--model", "m", "--resume", "s-1"]), "Which word?", refused, "resume-2");
  const failing = new Script("failures-error").launch();
  failing.user("This one fails. [[awp-fixture turn=fail-500 status=500]]").out(INIT).model({ ...refused, directive: { turn: "fail-500", status: 500 } }).failure({ subtype: "error", result: "provider_http_404" });
  turn(failing, "And this one works.", refused, "fail-500-next");
  const malformed = turn(new Script("malformed").launch(), "Before.", refused, "malformed-1");
  malformed.send("this is not json").failure({ subtype: "error", result: "invalid_input_json" });
  turn(malformed, "After.", refused, "malformed-2");
  return new Map(judgeAgentRun(runOf(basic, content, mcp, resume, failing, malformed)).results.map((r) => [r.id, r]));
}

const NEEDS_A_REPLY = ["agent-cli/input/mcp-config", "agent-cli/input/survives-malformed-line", "agent-cli/resume/accepts-id", "agent-cli/failures/model-error", "agent-cli/fidelity/streamed-text", "agent-cli/turns/terminal-in-order", "agent-cli/consistency/streamed-turn-succeeds"];

describe("a model endpoint that refuses every request", () => {
  it.each([
    ["HTTP 404 (a wrong path)", NOT_FOUND, "HTTP 404 to POST /v1/wrong/chat/completions: no such path: /v1/wrong/chat/completions"],
    ["HTTP 400 (a request the real API refuses)", BAD_REQUEST, "HTTP 400 to POST /v1/chat/completions: max_tokens: field required"],
  ])("%s fails text-block once, and every clause that needs a model reply is skipped naming it", (_, refused, kind) => {
    const results = refusedRun(refused);
    expect([...results.values()].filter((r) => r.status === "fail").map((r) => r.id)).toEqual(["agent-cli/input/text-block"]);
    const text = results.get("agent-cli/input/text-block");
    expect(text?.findings).toHaveLength(1);
    expect(text?.findings[0]?.message).toContain("the kit's model fixture refused every request the CLI sent, the first with HTTP");
    const reason = results.get("agent-cli/input/mcp-config")?.reason ?? "";
    expect(reason).toContain(`every request the CLI sent the kit's model fixture was refused (${kind}`);
    expect(reason).toContain("the kit fails agent-cli/input/text-block for it");
    for (const id of NEEDS_A_REPLY) expect([id, results.get(id)?.status, results.get(id)?.reason]).toEqual([id, "skip", reason]);
  });

  it("all without the key: text-block fails, the rest are skipped with the key's reason", () => {
    const results = refusedRun(NO_KEY);
    expect([...results.values()].filter((r) => r.status === "fail").map((r) => r.id)).toEqual(["agent-cli/input/text-block"]);
    for (const id of NEEDS_A_REPLY) expect([id, results.get(id)?.reason]).toEqual([id, UNAUTHORIZED_REASON]);
  });

  it("is no cause once one request got through: each clause judges its own turns", () => {
    const s = new Script("content").launch();
    turn(s, "Plain text question.", NOT_FOUND, "content-1");
    s.user("Again. [[awp-fixture turn=content-2]]").model({ userText: "Again. [[awp-fixture turn=content-2]]", directive: { turn: "content-2" } }).deltas("Fine.").success("Fine.");
    const results = new Map(judgeAgentRun(runOf(s)).results.map((r) => [r.id, r]));
    expect(results.get("agent-cli/input/text-block")?.findings.map((f) => f.message)).toEqual(["a plain text turn was not answered with success"]);
  });
});
