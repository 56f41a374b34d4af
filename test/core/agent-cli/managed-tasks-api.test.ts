/**
 * One root cause, one finding: a bridge that speaks another task API than the kit's control
 * plane fails agent-cli/managed-tasks/control-plane-api once, saying what it sent and what the
 * fixture serves; the clauses that need a task the control plane ran are skipped naming it;
 * the clauses that can be judged on what the CLI sent are judged on that.
 */
import { describe, expect, it } from "vitest";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import type { Transcript } from "../../../src/core/agent-cli/types.js";
import { ANTHROPIC_BLOCKS, managedRun, managedTranscript, OPENAI_JSON, OWN_BODY, OWN_PATH, type Behaviour } from "./managed-sim.js";

const M = (id: string): string => `agent-cli/managed-tasks/${id}`;
const judged = (transcripts: Transcript[]): ClauseResult[] => judgeAgentRun(managedRun(transcripts)).results;
const failing = (results: ClauseResult[]): string[] => results.filter((r) => r.status === "fail").map((r) => r.id);
const clause = (results: ClauseResult[], id: string): ClauseResult => {
  const found = results.find((r) => r.id === id);
  if (found === undefined) throw new Error(`no result for ${id}`);
  return found;
};

/** The clauses that need a task the control plane ran: skipped, naming control-plane-api. */
const NEED_A_TASK = ["result-framing", "bounded-output", "wait-limit", "control-plane-failures"].map(M);
const STYLES: readonly [string, Behaviour][] = [["OpenAI, JSON results", OPENAI_JSON], ["Anthropic, prose blocks, error results", ANTHROPIC_BLOCKS]];

describe.each(STYLES)("a bridge that speaks another task API (%s)", (_, style) => {
  it('POST {"kind":"command","argv":[...]} to /tasks fails control-plane-api once, with what was sent and what the fixture serves', () => {
    const results = judged([managedTranscript({ ...style, ownApi: OWN_PATH })]);
    expect(failing(results)).toEqual([M("control-plane-api")]);
    const api = clause(results, M("control-plane-api"));
    expect(api.findings).toHaveLength(1);
    const [finding] = api.findings;
    expect(finding?.message).toMatch(/^\d+ requests POST \/tasks with a body \{kind: "command", argv: string\[\]\}: /);
    expect(finding?.message).toContain("the path is /tasks, not /v1/tasks");
    expect(finding?.message).toContain('no task_type "command"');
    expect(finding?.message).toContain("no payload.argv");
    expect(finding?.message).toMatch(/the control plane answered 404 \(no such path: \/tasks\)/);
    expect(finding?.expected).toContain("POST /v1/tasks");
    expect(finding?.expected).toContain("GET /v1/tasks/<id>");
    expect(finding?.expected).toContain("docs/control-plane.md");
    for (const id of NEED_A_TASK) {
      const result = clause(results, id);
      expect([id, result.status]).toEqual([id, "skip"]);
      expect(result.reason, id).toMatch(/refused .*POST \/tasks.* \(404\).*agent-cli\/managed-tasks\/control-plane-api/);
    }
    // argv was a real array of strings, at body.argv: judged there, and passed.
    expect(clause(results, M("argv-not-shell"))).toMatchObject({ status: "pass" });
    // No key under any name: where it went cannot be told.
    expect(clause(results, M("idempotency-key"))).toMatchObject({ status: "skip", reason: expect.stringMatching(/control-plane-api/) });
    for (const id of ["call-limit", "tool-use-shown", "key-not-leaked"].map(M)) expect([id, clause(results, id).status]).toEqual([id, "pass"]);
  });

  it("the right path with another body fails control-plane-api once; the key it carries is judged", () => {
    const results = judged([managedTranscript({ ...style, ownApi: OWN_BODY })]);
    expect(failing(results)).toEqual([M("control-plane-api")]);
    const api = clause(results, M("control-plane-api"));
    expect(api.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^\d+ requests POST \/v1\/tasks with a body \{type: "command", argv: string\[\], idempotency_key: string\}: no task_type "command"; no payload\.argv array of strings; the control plane answered 400 \(payload must be an object\)$/)]);
    for (const id of NEED_A_TASK) expect([id, clause(results, id).status, clause(results, id).reason]).toEqual([id, "skip", expect.stringContaining("control-plane-api")]);
    expect(clause(results, M("argv-not-shell"))).toMatchObject({ status: "pass" });
    expect(clause(results, M("idempotency-key"))).toMatchObject({ status: "pass" });
    // The repeated call comes only when the failed first one was told to the model (an error result ends the turn).
    expect(clause(results, M("idempotency-resubmission"))).toMatchObject({ status: style.onFailure === "follow-up" ? "pass" : "not-applicable" });
  });

  it("argv sent as one command string in a body of its own still fails argv-not-shell", () => {
    const ownShell = { ...OWN_PATH, body: (argv: unknown) => ({ kind: "command", command: (argv as string[]).join(" ") }) };
    const results = judged([managedTranscript({ ...style, ownApi: ownShell })]);
    expect(failing(results)).toEqual([M("argv-not-shell"), M("control-plane-api")]);
    expect(clause(results, M("argv-not-shell")).findings[0]?.message).toMatch(/argv was sent as one command string \(command\)/);
  });

  it("a bridge whose polls go to another path skips what needs a polled task, naming control-plane-api", () => {
    const results = judged([managedTranscript({ ...style, pollAs: (id) => `/v1/task/${id}` })]);
    expect(failing(results)).toEqual([M("control-plane-api")]);
    expect(clause(results, M("control-plane-api")).findings.map((f) => f.message)).toEqual([expect.stringMatching(/^\d+ requests GET \/v1\/task\/<id>: a poll of no task the control plane answered; the control plane answered 404 \(no such path\)$/)]);
    for (const id of [M("result-framing"), M("wait-limit"), M("bounded-output")]) expect([id, clause(results, id).status, clause(results, id).reason]).toEqual([id, "skip", expect.stringMatching(/refused .*GET \/v1\/task\/<id>.*control-plane-api/)]);
    // The failures scripted at submission still reached the CLI; the invalid status, read by a poll, did not.
    expect(clause(results, M("control-plane-failures"))).toMatchObject({ status: "pass", judged: 5 });
  });
});
