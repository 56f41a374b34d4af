/**
 * --evidence all: passing clauses keep the wire log of what they were judged on (report.json,
 * and collapsed in report.html); without it, only failures carry one. Short runs: the describe
 * clauses of the bundled reference provider, and the basic scenario of the reference agent CLI.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kitSchema } from "../../src/core/schema.js";
import type { RunReport } from "../../src/core/report/types.js";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const temp = useTempDirs();
const PROVIDER = ["--protocol", "provider", "--clause", "provider/describe/**", "--config-file", join(ROOT, "examples/reference-provider/valid-config.json"), "--quiet", "--reporter", "json", "--reporter", "html"];
const AGENT = ["--protocol", "agent-cli", "--scenario", "basic", "--env", "AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "--env", "AWP_REFERENCE_API_KEY={{fixture.token}}", "--quiet", "--reporter", "json"];

async function run(args: string[], candidate: string): Promise<{ report: RunReport; html: string }> {
  const out = temp();
  const result = await runCli(["run", ...args, "--out", out, join(ROOT, candidate)]);
  expect(result.code, result.stderr).toBe(0);
  const report = readReport(out);
  expect(kitSchema("report.schema.json")(report)).toBe(true);
  const html = args.includes("html") ? readFileSync(join(out, "report.html"), "utf8") : "";
  return { report, html };
}

const passes = (report: RunReport): RunReport["clauses"] => report.clauses.filter((c) => c.status === "pass");

describe("--evidence all", () => {
  it("provider: every pass carries the exchange it was judged on, in JSON and collapsed in HTML; without it, none", async () => {
    const { report, html } = await run([...PROVIDER, "--evidence", "all"], "examples/reference-provider/provider.mjs");
    expect(passes(report).length).toBeGreaterThan(5);
    for (const c of passes(report)) {
      const streams = c.passEvidence?.wire.map((w) => w.stream) ?? [];
      expect(streams, c.id).toContain("stdin");
      expect(streams, c.id).toContain("stdout");
    }
    // The same describe sent again in a fresh folder is judged against the first: both show.
    expect(report.clauses.find((c) => c.id === "provider/describe/same-answer-twice")?.passEvidence?.wire.filter((w) => w.stream === "stdin")).toHaveLength(2);
    expect(html).toMatch(/<details class="pass-evidence"><summary>Judged on: describe \(request describe-1\)<\/summary>/);

    const plain = await run(PROVIDER, "examples/reference-provider/provider.mjs");
    expect(passes(plain.report).length).toBe(passes(report).length);
    expect(plain.report.clauses.filter((c) => c.passEvidence !== undefined)).toEqual([]);
    expect(plain.html).not.toContain("pass-evidence\">");
  });

  it("agent-cli: a pass judged on a session carries that scenario's session; one judged on the launch configuration, none", async () => {
    const { report } = await run([...AGENT, "--evidence", "all"], "examples/reference-agent-cli/agent-cli.mjs");
    const terminal = report.clauses.find((c) => c.id === "agent-cli/turns/one-terminal-per-turn");
    expect(terminal?.status).toBe("pass");
    expect(terminal?.passEvidence?.scenario).toBe("basic (awp-jsonl)");
    const streams = terminal?.passEvidence?.wire.map((w) => w.stream) ?? [];
    expect(streams).toContain("stdin");
    expect(streams).toContain("stdout");
    const launch = report.clauses.find((c) => c.id === "agent-cli/launch/absolute-executable");
    expect(launch?.status).toBe("pass");
    expect(launch?.passEvidence).toBeUndefined();
  });
});
