/**
 * Files the kit reads come from anyone (bug reports, pull requests): every reader, through
 * the built CLI, refuses a hostile file with exit 2 and "FILE: what is wrong", never a stack
 * trace or a hang, and nothing named in a file runs unless the user says so. The hostile
 * files are made here, in a temp folder (big ones are sparse). Each reader's full list of
 * hostile kinds is in test/core/inputs/readers.test.ts; this file checks the plumbing.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { execa } from "execa";
import { CLI, ROOT, runCli, useTempDirs, type CliResult } from "./cli.js";

const temp = useTempDirs("awp-hostile-");
const dir = temp();
const at = (name: string): string => join(dir, name);
const SAMPLE = join(ROOT, "test/fixtures/reports/agent-cli-sample.json");
const REPORT = readFileSync(SAMPLE, "utf8");
const PROVIDER_REPLAY = readFileSync(join(ROOT, "golden/regressions/provider-crash-on-nesting-20.json"), "utf8");
const AGENT_REPLAY = readFileSync(join(ROOT, "golden/regressions/agent-cli-drop-terminal-over-64k.json"), "utf8");
const REFERENCE_PROVIDER = join(ROOT, "examples/reference-provider/provider.mjs");
const HEADER = '{"kind":"header","format":"awp-conformance-transcript","version":1,"protocol":"agent-cli","mode":"awp-jsonl","scenario":"x"}';
const MiB = 1024 * 1024;

function file(name: string, content: string | Uint8Array): string {
  writeFileSync(at(name), content);
  return at(name);
}
function sparse(name: string, size: number): string {
  writeFileSync(at(name), "");
  truncateSync(at(name), size);
  return at(name);
}
/** util-linux `script` gives the CLI a terminal, to answer its question as a person would. */
const hasScript = process.platform === "linux" && spawnSync("script", ["-qec", "true", "/dev/null"]).status === 0;
const fifo = at("pipe");
const hasFifo = spawnSync("mkfifo", [fifo]).status === 0;
mkdirSync(at("folder"));
symlinkSync(at("loop-b"), at("loop-a"));
symlinkSync(at("loop-a"), at("loop-b"));

/** Exit 2, one line on stderr saying what is wrong with which file, no stack frame. */
function expectRefused(result: CliResult, message: RegExp, what: string): void {
  expect(result.code, `${what}: ${result.stderr}`).toBe(2);
  expect(result.stderr.trimEnd(), what).toMatch(message);
  expect(result.stderr, what).not.toMatch(/^\s+at /m);
  expect(result.stderr.trimEnd().split("\n"), what).toHaveLength(1);
}

async function all(cases: [string, string[], RegExp][]): Promise<void> {
  const results = await Promise.all(cases.map(([, args]) => runCli(args)));
  cases.forEach(([what, , message], i) => expectRefused(results[i]!, message, what));
}

describe.concurrent("hostile input files, through the CLI", () => {
  it("report FILE: a saved report is bounded and checked", async () => {
    const deep = `{"reportVersion":1,"options":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    await all([
      ["FIFO", ["report", hasFifo ? fifo : at("folder")], /: is a (FIFO \(named pipe\)|directory), not a regular file/],
      ["too big", ["report", sparse("big.json", 16 * MiB + 1)], /big\.json: 16777217 bytes, larger than the report limit of 16 MiB/],
      ["deep", ["report", file("deep.json", deep)], /deep\.json: nested deeper than the limit of 64 levels \(line 1\)/],
      ["binary", ["report", file("bin.json", new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00]))], /bin\.json: invalid UTF-8 at byte 1: binary data, not text \(line 1\)/],
      ["schema", ["report", file("schema.json", REPORT.replace('"status": "pass"', '"status": 7'))], /schema\.json: \/clauses\/\d+\/status must be one of "pass"/],
      ["summary", ["report", file("lie.json", REPORT.replace(/"verdict": "not-conformant"/, '"verdict": "conformant"'))], /lie\.json: \/summary\/verdict is "conformant" but the clause results give "not-conformant"/],
    ]);
  });

  it("report FILE: a BOM and CRLF are fine, and a reproduce command in the report is printed, never run", async () => {
    const marker = at("reproduced");
    const report = JSON.parse(REPORT) as { clauses: { findings: { reproduce?: string }[] }[] };
    const failed = report.clauses.find((c) => c.findings.length > 0)!;
    failed.findings[0]!.reproduce = `touch ${marker}; node -e "require('fs').writeFileSync('${marker}', '')"`;
    const path = file("crlf.json", `\ufeff${JSON.stringify(report, null, 2).replace(/\n/g, "\r\n")}`);
    const result = await runCli(["report", path, "--format", "console,json,junit,tap,markdown,html,badge", "--out", temp()]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain(`touch ${marker}`);
    expect(existsSync(marker)).toBe(false);
  });

  it("check: transcripts and captures are bounded and checked", async () => {
    const kit = (...lines: string[]): string => `${[HEADER, ...lines].join("\n")}\n`;
    await all([
      ["missing", ["check", at("nope.jsonl")], /nope\.jsonl: no such file/],
      ["symlink loop", ["check", at("loop-a")], /loop-a: too many levels of symbolic links/],
      ["huge number", ["check", file("huge.jsonl", kit('{"kind":"exit","t":1,"process":1e300,"code":0,"signal":null,"killedByKit":false}'))], /huge\.jsonl: the number at \/process is too large \(1e\+300\) \(line 2\)/],
      ["NUL", ["check", file("nul.jsonl", '{"type":"result"}\n\u0000\n')], /nul\.jsonl: a NUL byte at byte 18: binary data, not text \(line 2\)/],
      ["long line", ["check", file("long.jsonl", `{}\n${"x".repeat(32 * MiB + 1)}\n`)], /long\.jsonl: a line of 33554433 bytes, longer than the transcript limit of 32 MiB \(line 2\)/],
    ]);
  });

  it("check: reads a BOM and CRLF, and never runs the argv a transcript records", async () => {
    const marker = at("launched");
    const launch = JSON.stringify({ kind: "launch", t: 0, process: 1, argv: ["/bin/sh", "-c", `touch ${marker}`], cwd: dir, envNames: [] });
    const result = await runCli(["check", file("launch.jsonl", `\ufeff${HEADER}\r\n${launch}\r\n`)]);
    expect([1, 4], result.stderr).toContain(result.code);
    expect(existsSync(marker)).toBe(false);
  });

  it("--expected-failures and --flaky: clause lists are bounded and checked", async () => {
    const base = ["report", SAMPLE, "--format", "json", "--out", temp()];
    await all([
      ["missing", [...base, "--expected-failures", at("nope.txt")], /nope\.txt: no such file/],
      ["too big", [...base, "--flaky", sparse("big.txt", MiB + 1)], /big\.txt: 1048577 bytes, larger than the clause list limit of 1 MiB/],
      ["NUL", [...base, "--expected-failures", file("nul.txt", "agent-cli/a\n\u0000")], /nul\.txt: a NUL byte at byte 12: binary data, not text \(line 2\)/],
      ["bad pattern", [...base, "--flaky", file("bad.txt", "agent-cli/a b c\n")], /bad\.txt: expected "CLAUSE-PATTERN \[@MODE\]", found "agent-cli\/a b c" \(line 1\)/],
    ]);
  });

  it("--expected-failures: a BOM, CRLF and a pattern full of wildcards are read, and matched at once", async () => {
    // Backtracking made a pattern like this take minutes; a linear match takes no time.
    const list = file("stars.txt", `\ufeff# known\r\nagent-cli/${"*a".repeat(59)}\r\nagent-cli/turns/** @stream-json\r\n`);
    const result = await runCli(["report", SAMPLE, "--format", "json", "--out", temp(), "--expected-failures", list]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout + result.stderr).not.toMatch(/^\s+at /m);
  });

  it("replay: a recorded command runs only with --yes; the file's own environment needs it too", async () => {
    const marker = at("replayed");
    const recorded = JSON.parse(PROVIDER_REPLAY) as { candidate: { argv: string[] } };
    recorded.candidate.argv = [process.execPath, "-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`];
    const stranger = file("stranger.json", JSON.stringify(recorded));
    const agent = JSON.parse(AGENT_REPLAY) as { candidate: { env: Record<string, string> } };
    agent.candidate.env.NODE_OPTIONS = `--require ${marker}`;
    await all([
      ["no candidate", ["replay", stranger], /stranger\.json: not run: the file names the command to run \(.*writeFileSync.*\), and a replay file may come from anyone; give the candidate to replay against .* or pass --yes to run the recorded command \[usage\]$/],
      ["environment", ["replay", file("env.json", JSON.stringify(agent)), join(ROOT, "examples/reference-agent-cli/agent-cli.mjs")], /env\.json: not run: the file sets environment variables for the candidate \(NODE_OPTIONS='--require .*replayed'\).*pass --yes/],
    ]);
    expect(existsSync(marker)).toBe(false);
    const yes = await runCli(["replay", stranger, "--yes"]);
    expect(yes.stderr).toMatch(/names the command to run:\n .*\nRunning the recorded command \(--yes\)\./);
    expect(readFileSync(marker, "utf8")).toBe("ran");
  });

  it.skipIf(!hasScript)("replay on a terminal: shows the recorded command and runs it only after a y", async () => {
    const marker = at("asked");
    const recorded = JSON.parse(PROVIDER_REPLAY) as { candidate: { argv: string[] } };
    recorded.candidate.argv = [process.execPath, "-e", `require("fs").appendFileSync(${JSON.stringify(marker)}, "ran")`];
    const path = file("asked.json", JSON.stringify(recorded));
    const onTerminal = (answer: string): Promise<{ exitCode?: number; stdout: string }> =>
      execa("script", ["-qec", `${process.execPath} ${CLI} replay ${path}`, "/dev/null"], { input: answer, reject: false, timeout: 60_000, env: { NO_COLOR: "1" } });
    const no = await onTerminal("n\n");
    expect(no.exitCode).toBe(2);
    expect(no.stdout).toMatch(/Run the recorded command\? \[y\/N\]/);
    expect(no.stdout).toMatch(/not run \(answered "n"\)/);
    expect(existsSync(marker)).toBe(false);
    const yes = await onTerminal("y\n");
    expect(yes.stdout).toMatch(/(FIXED|STILL FAILING): /);
    expect(readFileSync(marker, "utf8")).toMatch(/^(ran)+$/);
  });

  it("replay: replay files are bounded and checked", async () => {
    const edit = (name: string, change: (r: Record<string, unknown> & { candidate: Record<string, unknown>; case: Record<string, unknown> }) => void): string => {
      const value = JSON.parse(PROVIDER_REPLAY) as Parameters<typeof change>[0];
      change(value);
      return file(name, JSON.stringify(value));
    };
    await all([
      ["missing", ["replay", at("nope.json"), REFERENCE_PROVIDER], /nope\.json: no such file/],
      ["invalid JSON", ["replay", file("trunc.json", PROVIDER_REPLAY.slice(0, 200)), REFERENCE_PROVIDER], /trunc\.json: not valid JSON: .*\(line \d+\)/],
      ["endless timeout", ["replay", edit("slow.json", (r) => (r.candidate.timeoutMs = 1e9)), REFERENCE_PROVIDER], /slow\.json: \/candidate\/timeoutMs is 1000000000, more than the limit of 600000 ms/],
      ["wrong protocol", ["replay", edit("mixed.json", (r) => (r.case = { steps: [] })), REFERENCE_PROVIDER], /mixed\.json: \/case lacks the required property "kind"/],
    ]);
  });
});
