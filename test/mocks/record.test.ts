import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerFields, partialBytes, redactEnv, requestFields, scanDocuments, stdinLineFields, TEXT_CHARS, toolEventOf } from "../../src/mocks/record-fields.js";
import { RecordWriter } from "../../src/mocks/record.js";
import { useTempDirs } from "../integration/cli.js";

const temp = useTempDirs("awp-mock-record-");
const lines = (file: string): Record<string, unknown>[] => readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the launch record writer", () => {
  it("appends one JSON line per event with the common fields, and one exit line at most", () => {
    const file = join(temp(), "r.jsonl");
    const writer = new RecordWriter(file, "provider");
    const before = Date.now();
    writer.write("launch", { argv: ["x"] });
    writer.exit(0, "done");
    writer.exit(1, "signal");
    const [launch, exit, more] = lines(file);
    expect(launch).toMatchObject({ v: 1, protocol: "provider", pid: process.pid, event: "launch", argv: ["x"] });
    expect(launch?.at).toBeGreaterThanOrEqual(before - 1);
    expect(launch?.at).toBeLessThanOrEqual(Date.now() + 1);
    expect(exit).toMatchObject({ event: "exit", code: 0, reason: "done" });
    expect(more).toBeUndefined();
  });

  it("stops at its cap with one record-full line, counting what other writers appended", () => {
    const file = join(temp(), "r.jsonl");
    const a = new RecordWriter(file, "provider", 600);
    const b = new RecordWriter(file, "provider", 600);
    a.write("launch", { pad: "a".repeat(150) });
    b.write("launch", { pad: "b".repeat(150) });
    b.write("request", { pad: "c".repeat(150) });
    b.write("exit", { code: 0 });
    a.write("exit", { code: 0 });
    expect(lines(file).map((l) => l.event)).toEqual(["launch", "launch", "record-full", "record-full"]);
  });
});

describe("the launch record's fields", () => {
  it("redacts the values of secret-looking names (the kit's rule) and keeps every other one", () => {
    expect(redactEnv({ PATH: "/bin", OPENAI_API_KEY: "sk-1", GH_TOKEN: "t", DB_PASSWORD: "p", AUTH_HEADER: "h", MY_SECRET: "s", AWS_CREDENTIALS: "c", HOME: "/h", UNSET: undefined })).toEqual({
      AUTH_HEADER: "[redacted]", AWS_CREDENTIALS: "[redacted]", DB_PASSWORD: "[redacted]", GH_TOKEN: "[redacted]", HOME: "/h", MY_SECRET: "[redacted]", OPENAI_API_KEY: "[redacted]", PATH: "/bin",
    });
  });

  it("sums up a stdin line: bytes and sha256 of the raw line, its first 4096 characters, its JSON type", () => {
    const user = JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: "é".repeat(5000) }] } });
    const fields = stdinLineFields(3, user);
    expect(fields).toMatchObject({ index: 3, bytes: Buffer.byteLength(user), truncated: true, json: { type: "user" } });
    expect(fields.sha256).toBe(createHash("sha256").update(user).digest("hex"));
    expect(fields.text).toBe(user.slice(0, TEXT_CHARS));
    expect(stdinLineFields(0, "")).toMatchObject({ bytes: 0, text: "", truncated: false, json: null });
    expect(stdinLineFields(0, "[1]").json).toBeNull();
    expect(stdinLineFields(0, '{"type":7}').json).toEqual({ type: null });
  });

  it("counts the top-level JSON documents of a provider request and reads its method, id and budget", () => {
    expect(scanDocuments('{"a":"}{"}').count).toBe(1);
    expect(scanDocuments(' {"a":[1,{"b":2}]}\n{} 3 "x" true').count).toBe(5);
    expect(scanDocuments("\uFEFF{}").count).toBe(1);
    expect(scanDocuments("").count).toBe(0);
    const request = Buffer.from('{"api_version":"aw-provider/v1alpha1","method":"invoke","request_id":"r-1","budget_ms":250}\n');
    expect(requestFields(request, false)).toEqual({ bytes: request.length, documents: 1, method: "invoke", id: "r-1", deadline: { budget_ms: 250 }, operation: null, toolEvent: null, json: true });
    const two = Buffer.from('{"method":"describe","request_id":"d"}{}');
    expect(requestFields(two, true)).toEqual({ bytes: two.length, documents: 2, method: "describe", id: "d", deadline: null, operation: null, toolEvent: null, json: false, capped: true });
    expect(requestFields(Buffer.from("not json"), false)).toMatchObject({ documents: 2, method: null, id: null, json: false });
    expect(partialBytes(request)).toBe(0);
    expect(partialBytes(two)).toBe(two.length);
  });

  it("tells an invocation's event apart by name, call id and a hash of the event whatever its key order, and sums up an answer", () => {
    const event = { name: "tool.before", tool: { name: "bash", call_id: "c-1", input: { a: 1, b: [2] } } };
    const reordered = { tool: { input: { b: [2], a: 1 }, call_id: "c-1", name: "bash" }, name: "tool.before" };
    const fields = (value: unknown): Record<string, unknown> => requestFields(Buffer.from(JSON.stringify({ method: "invoke", request_id: "r", operation: "check", event: value })), false);
    const first = fields(event);
    expect(first).toMatchObject({ operation: "check", toolEvent: { name: "tool.before", callId: "c-1" } });
    expect((first.toolEvent as { sha256: string }).sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(fields(reordered).toolEvent).toEqual(first.toolEvent);
    expect((fields({ ...event, session_id: "s" }).toolEvent as { sha256: string }).sha256).not.toBe((first.toolEvent as { sha256: string }).sha256);
    expect(toolEventOf({ event: { name: "tool.after", tool: { call_id: null } } })).toMatchObject({ name: "tool.after", callId: null });
    expect(answerFields({ status: "ok", effects: [{ type: "block" }, 3] }, 1, ["exit-nonzero-on-block"])).toEqual({ status: "ok", effects: ["block", "?"], exitCode: 1, failures: ["exit-nonzero-on-block"] });
    expect(answerFields(["x"], undefined, [])).toEqual({ status: null, effects: [], exitCode: null, failures: [] });
  });
});
