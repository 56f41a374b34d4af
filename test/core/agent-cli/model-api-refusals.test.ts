/**
 * A turn whose model request the kit's fixture refused as the real API would (issue 26, "a
 * model stand-in more lenient than the real one") fails the clause of that turn or block,
 * with the refusal quoted; an error result after such a refusal is not an explicit rejection.
 */
import { describe, expect, it } from "vitest";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ModelCall } from "../../../src/core/agent-cli/types.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { runOf, Script } from "./transcripts.js";

const PNG = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
const PDF = { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQ=" } };
const PROBE = { type: "awp_conformance_probe", marker: "awp-probe-alone-5c1e" };
const VERSION = "HTTP 400: anthropic-version: header is required (https://docs.anthropic.com/en/api/versioning)";
const IMAGE_URL = "HTTP 400: messages.0.content.1: Input tag 'image_url' found using 'type' does not match any of the expected tags (https://docs.anthropic.com/en/api/messages)";

function results(...scripts: Script[]): Map<string, ClauseResult> {
  return new Map(judgeAgentRun(runOf(...scripts)).results.map((r) => [r.id, r]));
}

const refused = (refusal: string, status = 400): Partial<ModelCall> => ({
  api: "anthropic", path: "/v1/messages", status, outcome: status === 401 ? "unauthorized" : "bad-request", refusal,
});
const answered = (text: string): Partial<ModelCall> => ({ api: "anthropic", path: "/v1/messages", replyText: text, body: { messages: [{ role: "user", content: [{ type: "text", text }, PNG] }] } });
const failed = (s: Script): Script => s.failure({ subtype: "error", result: "provider_http_400" });
/** A first turn the model answered: the refusal is this turn's alone, not the run's (every request refused is one root cause, judged in model-refusal.test.ts). */
const content = (): Script => new Script("content").launch().user("Warm-up turn.").model(answered("Warm-up turn.")).deltas("ok").success("ok");

describe("a turn the fixture refused as the real API would", () => {
  it("fails text-block, quoting the status, the API's message and the page of the rule", () => {
    const s = failed(content().user("Plain text question.").model(refused(VERSION)));
    const r = results(s).get("agent-cli/input/text-block");
    expect(r?.status).toBe("fail");
    expect(r?.findings[0]?.message).toContain("refused its model request as the real Anthropic Messages API would");
    expect(r?.findings[0]?.message).toContain(`POST /v1/messages -> ${VERSION}`);
    expect(r?.findings[0]?.seen).toBe(VERSION);
    expect(r?.findings[0]?.evidence?.map((e) => e.excerpt)).toContainEqual(`model call #2 POST /v1/messages -> 400 bad-request: ${VERSION}`);
  });

  it("fails image-block and document-block although the turn ended in an error result (before: passed as an explicit rejection)", () => {
    const image = failed(content().user("Look.", [PNG]).model(refused(IMAGE_URL)));
    const r = results(image).get("agent-cli/input/image-block");
    expect(r?.status).toBe("fail");
    expect(r?.findings[0]?.message).toMatch(/^the image turn failed because the kit's model fixture refused its model request/);
    expect(r?.findings[0]?.message).toContain("Input tag 'image_url'");
    const doc = failed(content().user("Read.", [PDF]).model(refused("HTTP 400: messages.0.content.1: Input tag 'file' found using 'type' does not match any of the expected tags (https://docs.anthropic.com/en/api/messages)")));
    expect(results(doc).get("agent-cli/input/document-block")?.status).toBe("fail");
  });

  it("fails on a 401 for the right key in the wrong header (Authorization: Bearer on /v1/messages)", () => {
    const s = failed(content().user("Plain text question.").model(refused("HTTP 401: x-api-key header is required (https://docs.anthropic.com/en/api/overview)", 401)));
    expect(results(s).get("agent-cli/input/text-block")?.findings[0]?.message).toContain("HTTP 401: x-api-key header is required");
  });

  it("names how many of the turn's requests were refused when the CLI retried", () => {
    const s = failed(content().user("Plain text question.").model(refused(VERSION)).model(refused(VERSION)));
    expect(results(s).get("agent-cli/input/text-block")?.findings[0]?.message).toContain("(2 of its requests were refused)");
  });
});

describe("what stays as it was", () => {
  it("passes an explicit error result given before any model request", () => {
    expect(results(failed(content().user("Look.", [PNG]))).get("agent-cli/input/image-block")?.status).not.toBe("fail");
  });

  it("passes a turn that succeeded after the CLI fell back from a refused request to one the API accepts", () => {
    const s = content().user("Look.", [PNG]).model(refused(IMAGE_URL)).model(answered("Look.")).deltas("ok").success("ok");
    expect(results(s).get("agent-cli/input/image-block")?.status).toBe("pass");
  });

  it("passes an unknown block passed on raw and refused by the API: the turn failed visibly, which is a rejection", () => {
    const probe = "HTTP 400: messages.0.content.0: Input tag 'awp_conformance_probe' found using 'type' does not match any of the expected tags (https://docs.anthropic.com/en/api/messages)";
    const s = failed(content().send(JSON.stringify({ type: "user", message: { role: "user", content: [PROBE] } })).model(refused(probe)));
    expect(results(s).get("agent-cli/input/unsupported-block")?.status).toBe("pass");
  });

  it("does not count a wrong key or a wrong path as the turn's refusal", () => {
    const wrongPath = failed(content().user("Look.", [PNG]).model({ status: 404, outcome: "bad-request", refusal: "HTTP 404: no such path: /v1/chat (https://platform.openai.com/docs/guides/error-codes)" }));
    expect(results(wrongPath).get("agent-cli/input/image-block")?.status).not.toBe("fail");
    const text = failed(content().user("Plain text question.").model({ status: 404, outcome: "bad-request", refusal: "HTTP 404: no such path: /v1/chat (x)" }));
    expect(results(text).get("agent-cli/input/text-block")?.findings[0]?.message).toBe("a plain text turn was not answered with success");
  });
});

describe("every request refused under the API's rules: one root cause", () => {
  it("fails text-block once, quoting the rule and its page; the key is not called missing when it came in the wrong header", () => {
    const bearer = "HTTP 401: x-api-key header is required (https://docs.anthropic.com/en/api/overview)";
    const s = failed(new Script("content").launch().user("Plain text question.").model(refused(bearer, 401)));
    const all = results(s);
    const text = all.get("agent-cli/input/text-block");
    expect(text?.status).toBe("fail");
    expect(text?.findings).toHaveLength(1);
    expect(text?.findings[0]?.message).toContain("refused every request the CLI sent, the first with HTTP 401 to POST /v1/messages: x-api-key header is required (https://docs.anthropic.com/en/api/overview)");
    const fidelity = all.get("agent-cli/fidelity/streamed-text");
    expect(fidelity?.status).toBe("skip");
    expect(fidelity?.reason).toContain("was refused (HTTP 401 to POST /v1/messages: x-api-key header is required");
    expect(fidelity?.reason).not.toContain("lacked the fixture's API key");
  });
});
