import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { failing, readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const GOLDEN = join(ROOT, "golden/agent-cli");
const UPSTREAM = resolve(ROOT, "../shared/upstream");
/** Upstream captures live beside the project, not in it: a plain clone skips the tests that read them. */
const NO_UPSTREAM = !existsSync(UPSTREAM);
const goldenFiles = readdirSync(GOLDEN).filter((f) => f.endsWith(".jsonl")).map((f) => join(GOLDEN, f));
const temp = useTempDirs();

async function check(files: string[], extra: string[] = []): Promise<{ code: number; out: string; stdout: string }> {
  const out = temp();
  const result = await runCli(["check", ...files, "--out", out, "--reporter", "console,json", ...extra]);
  return { code: result.code, out, stdout: result.stdout };
}

describe("awp-conformance check", () => {
  it("judges the golden transcripts of the reference without a failure, incomplete only by what needs a live run", async () => {
    expect(goldenFiles.length).toBeGreaterThanOrEqual(6);
    const { code, out } = await check(goldenFiles);
    const report = readReport(out);
    // Recorded transcripts cannot show the launch configuration, the token or the signal scenarios:
    // those MUST clauses are skipped, so the verdict is incomplete (exit 4), never conformant.
    expect(code).toBe(4);
    expect(report.summary.verdict).toBe("incomplete");
    expect(failing(report)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThanOrEqual(25);
    const skipped = report.clauses.filter((c) => c.status === "skip").map((c) => c.id);
    // (no-leftover-processes: golden files recorded before the kit looked for leftovers hold no such look.)
    expect(skipped.every((id) => /launch\/|secrets\/|termination\/(shutdown|sigterm|no-leftover-processes)|input\/mcp-config/.test(id))).toBe(true);
    const mustSkipped = report.clauses.filter((c) => c.status === "skip" && c.level === "MUST").map((c) => c.id);
    expect(report.summary.incomplete.flatMap((g) => g.clauses).sort()).toEqual(mustSkipped.sort());
  });

  it("finds a truncated result in an edited golden transcript", async () => {
    const dir = temp();
    const edited = join(dir, "basic-truncated.jsonl");
    // Cut the text of the first success result short, as real CLIs have done.
    let cut = false;
    const lines = readFileSync(join(GOLDEN, "basic.jsonl"), "utf8").split("\n").map((line) => {
      if (cut || line === "") return line;
      const event = JSON.parse(line) as { kind: string; line?: string };
      if (event.kind !== "stdout" || event.line === undefined) return line;
      const out = JSON.parse(event.line) as { type?: string; subtype?: string; result?: string };
      if (out.type !== "result" || out.subtype !== "success" || typeof out.result !== "string") return line;
      cut = true;
      return JSON.stringify({ ...event, line: JSON.stringify({ ...out, result: out.result.slice(0, 12) }) });
    });
    expect(cut).toBe(true);
    writeFileSync(edited, lines.join("\n"));
    const { code, out } = await check([edited]);
    expect(code).toBe(1);
    expect(failing(readReport(out))).toEqual(["agent-cli/fidelity/result-text"]);
  });

  it("reads a capture made outside the kit (claude -p): judges what it shows, and says of the rest what a capture cannot show", async () => {
    const capture = await check([join(ROOT, "test/fixtures/captures/claude-code-2.1.332_print-one-turn.jsonl")], ["--verbose"]);
    const report = readReport(capture.out);
    expect(capture.code).toBe(4);
    expect(failing(report)).toEqual([]);
    expect(report.clauses.find((c) => c.id === "agent-cli/session/init-event")?.status).toBe("pass");
    expect(capture.stdout).not.toMatch(/run it with --scenario|no turn produced output|no tools were offered|offered its model no tools|the resumed process reported/);
    expect(capture.stdout).toMatch(/a plain stdout capture holds none of the kit's scenarios \(this clause needs the content scenario\): record the CLI with `awp-conformance record --scenario content`/);
  });

  it("reads a stream-json stdout capture of our own: wrapped stream events ignored, a code only in subtype is a SHOULD finding", async () => {
    const capture = await check([join(ROOT, "test/fixtures/captures/stream-json-two-turns.jsonl")]);
    const report = readReport(capture.out);
    // A stdout capture cannot show the launch or the host's side: incomplete (exit 4), never conformant.
    expect(capture.code).toBe(4);
    expect(failing(report)).toEqual(["agent-cli/turns/error-code-in-result"]);
    for (const id of ["agent-cli/fidelity/result-text", "agent-cli/turns/error-code", "agent-cli/session/stable-id"]) {
      expect(report.clauses.find((c) => c.id === id)?.status, id).toBe("pass");
    }
    expect(capture.stdout).toMatch(/stream_event\(content_block_delta\) ×3/);
    // Without --verbose: the failure, the reasons in a count, no SKIP or N/A line, no to-do list item by item.
    expect(capture.stdout).toMatch(/^WARN  SHOULD agent-cli\/turns\/error-code-in-result /m);
    expect(capture.stdout).not.toMatch(/^(PASS|SKIP|N\/A) /m);
    expect(capture.stdout).not.toMatch(/^ {2}- /m);
    expect(capture.stdout.trimEnd().split("\n").at(-1)).toMatch(/^To make the run complete: \d+ reasons left \d+ MUST clauses unjudged \(--verbose lists them, as do the markdown and html reports\)$/);
    expect(capture.stdout.trimEnd().split("\n").length).toBeLessThan(25);
  });

  it("refuses a --clause pattern that matches no clause, naming it (exit 2, before reading a transcript)", async () => {
    // package.json is no transcript: read, it would be refused as one; the pattern is refused first.
    const result = await runCli(["check", "package.json", "--clause", "agent-cli/nosuch"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("awp-conformance: --clause agent-cli/nosuch matches no clause of the agent-cli catalogue: `awp-conformance list --protocol agent-cli` lists the clause ids [usage]\n");
  });

  it("rejects a file that claims to be a transcript but is not one", async () => {
    const dir = temp();
    const file = join(dir, "bad.jsonl");
    writeFileSync(file, '{"kind":"header","format":"awp-conformance-transcript","version":1,"protocol":"agent-cli","mode":"awp-jsonl","scenario":"x"}\n{"kind":"stdout","t":"soon"}\n');
    const result = await runCli(["check", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bad\.jsonl: the line lacks the required property "process" \(line 2\)/);
  });
});

describe.skipIf(NO_UPSTREAM)("awp-conformance check on upstream captures (needs ../shared/upstream)", () => {
  it("reads real Claude Code and Qwen Code stdout captures", async () => {
    const transcripts = join(UPSTREAM, "transcripts");
    // One captured session leaves many MUST clauses unjudged: no failure, incomplete (exit 4).
    const claude = await check([join(transcripts, "claude-code-2.1.332_two-turns_partial-messages.jsonl")]);
    expect(claude.code).toBe(4);
    expect(failing(readReport(claude.out))).toEqual([]);
    expect(claude.stdout).toMatch(/Events a Desktop would ignore \(not failures\): stream_event\(content_block_delta\) ×8/);
    const qwen = await check([join(transcripts, "qwen-code-0.24.4_two-turns_partial-messages.jsonl")]);
    expect(qwen.code).toBe(4);
    expect(failing(readReport(qwen.out))).toEqual([]);
    expect(readReport(qwen.out).clauses.find((c) => c.id === "agent-cli/fidelity/result-text")?.status).toBe("pass");
    // The interrupted turn's error result carries its code only in subtype (error_during_execution):
    // the Desktop shows cc_error_during_execution, so only the SHOULD clause fails.
    const interrupted = await check([join(transcripts, "claude-code-2.1.332_interrupt-then-second-turn.jsonl")]);
    expect(interrupted.code).toBe(4);
    expect(failing(readReport(interrupted.out))).toEqual(["agent-cli/turns/error-code-in-result"]);
  });

  it("reads the upstream fake CLI output and the protocol doc examples", async () => {
    const fake = await check([join(UPSTREAM, "fixtures/awp/fake-agent-cli.stdout.jsonl")]);
    expect(fake.code).toBe(4);
    // A capture is judged on what it shows: the upstream fake opens with message_start, not the
    // recommended system/init (a SHOULD warning; the session id then comes from the result).
    expect(failing(readReport(fake.out))).toEqual(["agent-cli/session/init-event"]);
    expect(readReport(fake.out).clauses.find((c) => c.id === "agent-cli/turns/text-blocks")?.status).toBe("pass");
    // The doc examples mix host lines and CLI lines: judge the CLI's side.
    const dir = temp();
    const docs = readFileSync(join(UPSTREAM, "fixtures/awp/agent-cli-protocol.doc-examples.jsonl"), "utf8").split("\n").filter((l) => l !== "" && !/^\{"type":"(user|shutdown)"/.test(l));
    const file = join(dir, "doc-output.jsonl");
    writeFileSync(file, `${docs.join("\n")}\n`);
    const doc = await check([file]);
    expect(doc.code).toBe(4);
    expect(failing(readReport(doc.out))).toEqual([]);
    const passed = readReport(doc.out).clauses.filter((c) => c.status === "pass").map((c) => c.id);
    expect(passed).toEqual(expect.arrayContaining(["agent-cli/turns/result-shape", "agent-cli/turns/error-code", "agent-cli/session/id-form", "agent-cli/turns/usage-counts"]));
  });
});
