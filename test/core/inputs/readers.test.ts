import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTranscript } from "../../../src/core/agent-cli/golden.js";
import { KitError } from "../../../src/core/errors.js";
import { parseSavedReport } from "../../../src/core/inputs/index.js";
import { parseExpectationFile } from "../../../src/core/report/expectations.js";
import { checkReplay } from "../../../src/fuzz/replay-check.js";

const ROOT = join(import.meta.dirname, "../../..");
const REPORT = readFileSync(join(ROOT, "test/fixtures/reports/agent-cli-sample.json"), "utf8");
const REPLAY = readFileSync(join(ROOT, "golden/regressions/provider-crash-on-nesting-20.json"), "utf8");
const AGENT_REPLAY = readFileSync(join(ROOT, "golden/regressions/agent-cli-drop-terminal-over-64k.json"), "utf8");
const HEADER = '{"kind":"header","format":"awp-conformance-transcript","version":1,"protocol":"agent-cli","mode":"awp-jsonl","scenario":"x"}';
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
/** Loosely typed JSON, to edit any member of a fixture. */
type Json = Record<string, any>;
const edit = (json: string, change: (value: Json) => void): Uint8Array => {
  const value = JSON.parse(json) as Json;
  change(value);
  return utf8(JSON.stringify(value, null, 2));
};

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(KitError);
    expect((error as KitError).exitCode).toBe(2);
    return (error as KitError).message;
  }
  throw new Error("expected a refusal");
}

/** Hostile bodies every whole-file JSON reader must refuse, with what the message must say. */
const JSON_HOSTILE: [string, Uint8Array, RegExp][] = [
  ["empty", utf8(""), /^F: the file is empty/],
  ["white space only", utf8(" \r\n\t"), /^F: the file is empty/],
  ["invalid JSON", utf8('{"a":'), /^F: not valid JSON: unexpected end of input.* \(line 1\)$/],
  ["trailing data", utf8("{}\n{}"), /^F: not valid JSON: unexpected data after the JSON document.*\(line 2\)$/],
  ["duplicate key", utf8('{\n"reportVersion": 1,\n"reportVersion": 1}'), /^F: not valid JSON: duplicate key "reportVersion" at \/reportVersion \(line 3\)$/],
  ["a number past the float range", utf8('{"seed": 1e400}'), /^F: not valid JSON: number is out of range for a 64-bit float at \/seed \(line 1\)$/],
  ["deep nesting", utf8(`${"[".repeat(100_000)}${"]".repeat(100_000)}`), /^F: nested deeper than the limit of \d+ levels \(line 1\)$/],
  ["binary garbage", new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]), /^F: invalid UTF-8 at byte 2: binary data, not text \(line 1\)$/],
  ["a NUL byte", utf8('{"a":\n"\u0000"}'), /^F: a NUL byte at byte 7: binary data, not text \(line 2\)$/],
  ["not an object", utf8("[1, 2]"), /^F: the document must be object$/],
];

describe("saved reports", () => {
  for (const [what, bytes, message] of JSON_HOSTILE) it(`refuses ${what}`, () => expect(refusal(() => parseSavedReport(bytes, "F"))).toMatch(message));

  it("names the first offending path of a schema error", () => {
    expect(refusal(() => parseSavedReport(edit(REPORT, (r) => (r.clauses[2].status = "maybe")), "F"))).toBe('F: /clauses/2/status must be one of "pass", "fail", "skip", "not-applicable"');
    expect(refusal(() => parseSavedReport(edit(REPORT, (r) => (r.summary.total = "3")), "F"))).toBe("F: /summary/total must be integer");
    expect(refusal(() => parseSavedReport(edit(REPORT, (r) => (r.clauses[0]["\u001b[2J"] = 1)), "F"))).toBe('F: /clauses/0 has an unknown property "\\u001b[2J"');
  });

  it("refuses huge counts, repeated clause ids, too many results and a summary that does not match", () => {
    expect(refusal(() => parseSavedReport(utf8(REPORT.replace(/"total": \d+/, '"total": 1e300')), "F"))).toBe("F: the number at /summary/total is too large (1e+300)");
    expect(refusal(() => parseSavedReport(edit(REPORT, (r) => r.clauses.push(r.clauses[0])), "F"))).toMatch(/^F: \/clauses\/\d+\/id repeats agent-cli\/.* \(first at \/clauses\/0\)$/);
    expect(refusal(() => parseSavedReport(edit(REPORT, (r) => (r.clauses = Array.from({ length: 1001 }, (_, i) => ({ ...r.clauses[0], id: `agent-cli/a/c${i}` })))), "F"))).toBe("F: /clauses holds 1001 results, more than the limit of 1000");
    expect(refusal(() => parseSavedReport(edit(REPORT, (r) => (r.clauses[0].id = `agent-cli/a/${"x".repeat(200)}`)), "F"))).toMatch(/^F: \/clauses\/0\/id is 212 characters long, more than the limit of 128$/);
    expect(refusal(() => parseSavedReport(edit(REPORT, (r) => { r.summary.verdict = "conformant"; }), "F"))).toMatch(/^F: \/summary\/verdict is "conformant" but the clause results give "not-conformant"/);
  });

  it("refuses a report of more values than the limit before building them (memory)", () => {
    const wide = `{"reportVersion":1,"options":{"x":[${"{},".repeat(1_000_000)}{}]}}`;
    expect(refusal(() => parseSavedReport(utf8(wide), "F"))).toBe("F: more than 1000000 JSON values, the report limit");
  });

  it("refuses terminal escapes where a report holds only the kit's own words", () => {
    expect(refusal(() => parseSavedReport(edit(REPORT, (r) => (r.clauses[3].title = "ok \u001b[2J")), "F"))).toBe("F: /clauses/3/title contains a control character or a direction override (a clause title, mode or version never does)");
    expect(refusal(() => parseSavedReport(edit(REPORT, (r) => (r.tool.version = "1\u202e")), "F"))).toMatch(/^F: \/tool\/version contains a control character/);
  });

  it("accepts every report fixture, and a BOM and CRLF line ends", () => {
    for (const name of readdirSync(join(ROOT, "test/fixtures/reports")).filter((f) => f.endsWith(".json"))) {
      expect(() => parseSavedReport(readFileSync(join(ROOT, "test/fixtures/reports", name)), name)).not.toThrow();
    }
    expect(parseSavedReport(utf8(`\ufeff${REPORT.replace(/\n/g, "\r\n")}`), "F").protocol).toBe("agent-cli");
  });
});

describe("replay files", () => {
  for (const [what, bytes, message] of JSON_HOSTILE) it(`refuses ${what}`, () => expect(refusal(() => checkReplay(bytes, "F"))).toMatch(message));

  const cases: [string, Uint8Array, string][] = [
    ["a case of the other protocol", edit(REPLAY, (r) => (r.case = JSON.parse(AGENT_REPLAY).case)), 'F: /case lacks the required property "kind"'],
    ["a step without its text", edit(AGENT_REPLAY, (r) => (r.case.steps = [{ op: "turn" }])), 'F: /case/steps/0 lacks "text", which a turn step needs'],
    ["an unknown step", edit(AGENT_REPLAY, (r) => (r.case.steps = [{ op: "exec", line: "rm" }])), 'F: /case/steps/0/op must be one of "turn", "malformed", "pause", "close-stdin", "shutdown", "sigterm"'],
    ["too many steps", edit(AGENT_REPLAY, (r) => (r.case.steps = Array.from({ length: 1001 }, () => ({ op: "shutdown" })))), "F: /case/steps holds 1001 steps, more than the limit of 1000"],
    ["an endless pause", edit(AGENT_REPLAY, (r) => (r.case.steps = [{ op: "pause", ms: 1e12 }])), "F: /case/steps/0/ms is 1000000000000, longer than the limit of 60000 ms"],
    ["an endless turn timeout", edit(AGENT_REPLAY, (r) => (r.candidate.turnTimeoutMs = 86_400_000)), "F: /candidate/turnTimeoutMs is 86400000, more than the limit of 600000 ms"],
    ["a NUL in argv", edit(REPLAY, (r) => (r.candidate.argv = ["/bin/true\u0000"])), "F: /candidate/argv/0 contains a NUL character"],
    ["an option-like model", edit(AGENT_REPLAY, (r) => (r.candidate.model = "--dangerously-skip-permissions")), 'F: /candidate/model must be 1 to 256 characters, without control characters, and must not start with "-"'],
    ["an invalid environment name", edit(AGENT_REPLAY, (r) => (r.candidate.env = { "A=B": "x" })), 'F: /candidate/env has the name "A=B", not an environment variable name'],
    ["a huge seed", utf8(REPLAY.replace(/"seed": \d+/, '"seed": 18446744073709551616')), "F: the number at /seed is too large (18446744073709552000)"],
    ["a clause of the other protocol", edit(REPLAY, (r) => (r.clause = "agent-cli/turns/x")), "F: /clause agent-cli/turns/x is not a clause of the protocol provider"],
    ["invalid base64", edit(REPLAY, (r) => { delete r.case.text; r.case.base64 = "***"; }), "F: /case/base64 is not base64"],
    ["a valid case that is not a request object", edit(REPLAY, (r) => (r.case.text = "[1]")), 'F: /case: a well-formed case (kind "valid", or the base of a hostile one) must carry one JSON object, in text or base64'],
    ["an unknown member", edit(REPLAY, (r) => (r.candidate.shell = "sh -c")), 'F: /candidate has an unknown property "shell"'],
    ["a NUL in the other provider's argv (fuzz --against)", edit(REPLAY, (r) => (r.against = { argv: ["/bin/true\u0000"] })), "F: /against/argv/0 contains a NUL character"],
    ["an endless deadline of the other provider", edit(REPLAY, (r) => (r.against = { argv: ["/bin/true"], timeoutMs: 86_400_000 })), "F: /against/timeoutMs is 86400000, more than the limit of 600000 ms"],
    ["a second side on an agent-cli replay", edit(AGENT_REPLAY, (r) => (r.against = { argv: ["/bin/true"] })), "F: /against: only a provider replay runs two sides (differential fuzzing)"],
  ];
  for (const [what, bytes, message] of cases) it(`refuses ${what}`, () => expect(refusal(() => checkReplay(bytes, "F"))).toBe(message));

  it("accepts every file in golden/regressions, with a BOM", () => {
    for (const name of readdirSync(join(ROOT, "golden/regressions")).filter((f) => f.endsWith(".json"))) {
      const bytes = readFileSync(join(ROOT, "golden/regressions", name));
      expect(checkReplay(bytes, name).clause).toMatch(/^(provider|agent-cli)\//);
    }
    expect(checkReplay(utf8(`\ufeff${REPLAY}`), "F").protocol).toBe("provider");
  });
});

describe("transcripts and stdout captures", () => {
  const kit = (...lines: string[]): Uint8Array => utf8(`${[HEADER, ...lines].join("\n")}\n`);
  const cases: [string, Uint8Array, string | RegExp][] = [
    ["an empty file", utf8(""), "F: the file is empty"],
    ["a line that is not JSON", kit('{"kind":"stdout",'), /^F: not valid JSON: unexpected end of input.* \(line 2\)$/],
    ["an empty line", kit(""), "F: an empty line, not JSON (line 2)"],
    ["a wrong type", kit('{"kind":"stdout","t":"soon","process":1,"line":"x"}'), "F: /t must be number (line 2)"],
    ["a missing member", kit('{"kind":"exit","t":1,"process":1}'), 'F: the line lacks the required property "code" (line 2)'],
    ["an unknown kind", kit('{"kind":"exec","argv":["sh"]}'), 'F: /kind must be one of launch, send, stdout, stderr, action, exit, timeout, model, note, leftovers, controlplane, found "exec" (line 2)'],
    ["a second header", kit(HEADER), 'F: /kind must be one of launch, send, stdout, stderr, action, exit, timeout, model, note, leftovers, controlplane, found "header" (line 2)'],
    ["a duplicate key", kit('{"kind":"stdout","t":1,"process":1,"line":"a","line":"b"}'), 'F: not valid JSON: duplicate key "line" at /line (line 2)'],
    ["a huge number", kit('{"kind":"stdout","t":1e300,"process":1,"line":"x"}'), "F: the number at /t is too large (1e+300) (line 2)"],
    ["deep nesting", kit(`{"kind":"note","t":1,"process":1,"text":"x","n":${"[".repeat(300)}${"]".repeat(300)}}`), "F: nested deeper than the limit of 256 levels (line 2)"],
    ["a NUL byte in a capture", utf8('{"type":"result"}\n\u0000'), "F: a NUL byte at byte 18: binary data, not text (line 2)"],
    ["binary garbage", new Uint8Array([0x7b, 0x7d, 0x0a, 0x80, 0x81]), "F: invalid UTF-8 at byte 3: binary data, not text (line 2)"],
  ];
  for (const [what, bytes, message] of cases) {
    it(`refuses ${what}`, () => {
      const got = refusal(() => parseTranscript(bytes, "x", "stream-json", "F"));
      if (typeof message === "string") expect(got).toBe(message);
      else expect(got).toMatch(message);
    });
  }

  it("counts the values of all lines against one budget, the header too", () => {
    const call = '"seq":1,"api":"openai","method":"POST","path":"/","stream":false,"authorized":true,"userText":"","status":200,"replyText":"","outcome":"complete"';
    const wide = (n: number): string => `{"kind":"model","t":1,"process":1,"call":{${call},"body":[${"0,".repeat(n)}0]}}`;
    expect(refusal(() => parseTranscript(kit(wide(2_100_000), wide(2_100_000)), "x", "stream-json", "F"))).toBe("F: more than 4000000 JSON values, the transcript limit (line 3)");
    const header = `${HEADER.slice(0, -1)},"description":[${"0,".repeat(4_000_000)}0]}\n`;
    expect(refusal(() => parseTranscript(utf8(header), "x", "stream-json", "F"))).toBe("F: more than 4000000 JSON values, the transcript limit (line 1)");
  });

  it("keeps a model request body as the candidate sent it (its numbers and depth are data)", () => {
    const call = { seq: 1, api: "openai", method: "POST", path: "/v1/chat/completions", stream: false, authorized: true, body: { n: 1e300, big: 123456789012345678901234567890, deep: JSON.parse(`${"[".repeat(200)}${"]".repeat(200)}`) }, userText: "", status: 200, replyText: "", outcome: "complete" };
    const line = JSON.stringify({ kind: "model", t: 1, process: 1, call }).replace("1.2345678901234568e+29", "123456789012345678901234567890");
    expect(parseTranscript(kit(line), "x").events).toHaveLength(1);
  });

  it("reads a header with a BOM and CRLF line ends, and a capture as it is", () => {
    const crlf = utf8(`\ufeff${HEADER}\r\n{"kind":"stdout","t":1,"process":1,"line":"{}"}\r\n`);
    expect(parseTranscript(crlf, "x").events).toEqual([{ kind: "stdout", t: 1, process: 1, line: "{}" }]);
    const capture = parseTranscript(utf8('\ufeff{"type":"x"}\r\n'), "cap");
    expect(capture.stdoutOnly).toBe(true);
    expect(capture.events).toEqual([{ kind: "stdout", t: 0, process: 1, line: '\ufeff{"type":"x"}\r' }]);
  });

  it("reads every golden transcript", () => {
    for (const name of readdirSync(join(ROOT, "golden/agent-cli")).filter((f) => f.endsWith(".jsonl"))) {
      expect(parseTranscript(readFileSync(join(ROOT, "golden/agent-cli", name)), name).stdoutOnly).toBeUndefined();
    }
  });
});

describe("expected-failure and flaky lists", () => {
  const cases: [string, Uint8Array, string][] = [
    ["a NUL byte", utf8("agent-cli/a\n\u0000"), "F: a NUL byte at byte 12: binary data, not text (line 2)"],
    ["binary garbage", new Uint8Array([0x61, 0x0a, 0xfe]), "F: invalid UTF-8 at byte 2: binary data, not text (line 2)"],
    ["a long line", utf8(`# ${"x".repeat(5000)}`), "F: a line of 5002 bytes, longer than the clause list limit of 4 KiB (line 1)"],
    ["a bad pattern", utf8("ok/a\nagent-cli/a b c\n"), 'F: expected "CLAUSE-PATTERN [@MODE]", found "agent-cli/a b c" (line 2)'],
    ["a control character", utf8("agent-cli/\u001b[31ma"), 'F: expected "CLAUSE-PATTERN [@MODE]", found "agent-cli/\\u001b[31ma" (line 1)'],
    ["a long pattern", utf8(`agent-cli/${"*a".repeat(60)}`), "F: a pattern of 130 characters, longer than the limit of 128 (line 1)"],
    ["too many entries", utf8(Array.from({ length: 501 }, (_, i) => `agent-cli/a/c${i}`).join("\n")), "F: more than 500 entries, the limit of a clause list (line 501)"],
    ["a wrong mode", utf8("agent-cli/a @windows"), "F: the mode must be @awp-jsonl or @stream-json (line 1)"],
  ];
  for (const [what, bytes, message] of cases) it(`refuses ${what}`, () => expect(refusal(() => parseExpectationFile(bytes, "F"))).toBe(message));

  it("reads a BOM, CRLF line ends, comments and an empty list", () => {
    expect(parseExpectationFile(utf8("\ufeff# known\r\nagent-cli/a/b @stream-json # tracked\r\n"), "F")).toEqual([{ pattern: "agent-cli/a/b", mode: "stream-json", source: "F:2" }]);
    expect(parseExpectationFile(utf8(""), "F")).toEqual([]);
  });
});
