import { describe, expect, it } from "vitest";
import { wireJson } from "../../../src/core/json/index.js";
import { gatherEvidence } from "../../../src/core/provider/admission-evidence.js";
import { describeRequest, validateConfigRequest } from "../../../src/core/provider/requests.js";
import type { JsonObject, ProviderExchange, ProviderTranscript, Purpose } from "../../../src/core/provider/types.js";

const API = "aw-provider/v1alpha1";
const encode = (value: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(value)}\n`);

function exchange(seq: number, purpose: Purpose, request: JsonObject, response: unknown): ProviderExchange {
  const stdout = encode(response);
  return {
    seq, scenario: purpose, purpose, method: String(request.method), requestId: String(request.request_id), request: new TextEncoder().encode(wireJson(request)), requestValue: request, timeoutMs: 1000,
    outcome: { exitCode: 0, signal: null, timedOut: false, stdoutCapped: false, stderrCapped: false, durationMs: 5, stdoutBytes: stdout.length, stderrBytes: 0, killedByKit: false },
    stdout, stderr: new Uint8Array(),
  };
}

function transcript(describeAnswer: unknown, validateAnswer: unknown, configGiven = true): ProviderTranscript {
  return {
    argv: ["(test)"],
    context: { config: {}, configGiven, invalidConfigsGiven: 0, secrets: [], notes: [] },
    exchanges: [exchange(1, "describe", describeRequest("describe-1"), describeAnswer), exchange(2, "config-valid", validateConfigRequest("validate-1", {}), validateAnswer)],
  };
}

const OPS = [{ name: "check", events: ["tool.before"], effects: ["observe", "block"] }];
const described = { api_version: API, request_id: "describe-1", status: "ok", operations: OPS };
const validated = { api_version: API, request_id: "validate-1", status: "ok" };

describe("admission evidence from describe and validate_config", () => {
  it("takes the operations of a checked description and an accepted validation", () => {
    expect(gatherEvidence(transcript(described, validated))).toEqual({ evidence: { operations: OPS, validation: { given: true, accepted: true } }, protocolFailures: [] });
  });

  it("an error answer is no evidence, and not a protocol failure", () => {
    const { evidence, protocolFailures } = gatherEvidence(transcript({ api_version: API, request_id: "describe-1", status: "error", error_code: "not_ready" }, { ...validated, status: "error", error_code: "invalid_config" }, false));
    expect(protocolFailures).toEqual([]);
    expect(evidence).toEqual({ describeProblem: "describe was not answered ok (error_code not_ready)", validation: { given: false, accepted: false, detail: "error_code invalid_config" } });
  });

  it("a describe answer failing a clause gives no description; the validation it does not concern stands", () => {
    const { evidence, protocolFailures } = gatherEvidence(transcript({ ...described, operations: [...OPS, OPS[0]] }, validated));
    expect(protocolFailures.map((f) => f.clause)).toEqual(["provider/describe/operation-names"]);
    expect(evidence.operations).toBeUndefined();
    expect(evidence.describeProblem).toBe("the describe answer failed provider/describe/operation-names");
    expect(evidence.validation.accepted).toBe(true);
  });

  it("an envelope failure counts against the answer it names", () => {
    const { evidence, protocolFailures } = gatherEvidence(transcript(described, { ...validated, request_id: "validate-2" }));
    expect(protocolFailures.map((f) => f.clause)).toEqual(["provider/envelope/echoes-request-id"]);
    expect(evidence.operations).toEqual(OPS);
    expect(evidence.validation).toEqual({ given: true, accepted: false, detail: "the answer failed provider/envelope/echoes-request-id" });
  });
});
