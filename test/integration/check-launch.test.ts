import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_CLI_EXPECT, AGENT_CLI_RECORD, AGENT_CLI_RECORD_CASES } from "../core/host/launch-record-cases.js";
import { readRecord, toJsonl } from "../core/host/records.js";
import { failing, readReport, runCli, useTempDirs } from "./cli.js";

const temp = useTempDirs("check-launch-");
const CONFIGURED = [
  "--expect-model", AGENT_CLI_EXPECT.model!,
  "--expect-mode", AGENT_CLI_EXPECT.mode!,
  "--expect-args-json", JSON.stringify(AGENT_CLI_EXPECT.args),
  "--expect-env-json", JSON.stringify(AGENT_CLI_EXPECT.env),
  "--expect-resume", AGENT_CLI_EXPECT.resume!,
];

describe("awp-conformance check-launch (the built CLI)", () => {
  it("judges records with the usual reporters and exit codes: 0 conformant, 1 failed, 4 incomplete, 2 usage", async () => {
    const dir = temp();
    const broken = join(dir, "broken.jsonl");
    const cut = join(dir, "cut.jsonl");
    const c = AGENT_CLI_RECORD_CASES.find((x) => x.name === "via-shell")!;
    writeFileSync(broken, toJsonl(c.mutate(readRecord(AGENT_CLI_RECORD))));
    writeFileSync(cut, `${toJsonl(readRecord(AGENT_CLI_RECORD)).toString()}{"v":1,`);
    const [pass, fail, incomplete, usage, list, unmatched] = await Promise.all([
      runCli(["check-launch", AGENT_CLI_RECORD, ...CONFIGURED, "--out", join(dir, "pass"), "--reporter", "console,json,junit"]),
      runCli(["check-launch", broken, ...CONFIGURED, "--out", join(dir, "fail"), "--reporter", "json"]),
      runCli(["check-launch", cut, ...CONFIGURED]),
      runCli(["check-launch", AGENT_CLI_RECORD, "--expect-args-json", "{}"]),
      runCli(["list", "--protocol", "host"]),
      runCli(["check-launch", AGENT_CLI_RECORD, "--skip", "host/nosuch"]),
    ]);
    expect(pass.code).toBe(0);
    const report = readReport(join(dir, "pass"));
    expect([report.protocol, report.mode, report.summary.verdict, report.summary.passed, report.summary.total]).toEqual(["host", "agent-cli", "conformant", 17, 22]);
    // Of the reaction clauses, this record (no fault fired) judges only that every CLI was signalled.
    expect(report.clauses.filter((r) => r.id.startsWith("host/agent-cli-reactions/") && r.status === "pass").map((r) => r.id)).toEqual(["host/agent-cli-reactions/shutdown-stops-every-cli"]);
    expect(pass.stdout).toContain("host (agent-cli)");
    expect(fail.code).toBe(1);
    expect(failing(readReport(join(dir, "fail")))).toEqual(["host/launch/no-shell"]);
    expect(incomplete.code).toBe(4);
    expect(incomplete.stdout).toContain("the record is incomplete (line 12: an unterminated last line");
    expect([usage.code, usage.stderr]).toEqual([2, "awp-conformance: --expect-args-json must be a JSON array of strings (invalid_cli_args_json) [config_invalid]\n"]);
    expect(list.stdout.trim().split("\n")).toHaveLength(36);
    expect(list.stdout).toMatch(/^MUST {3}host\/agent-cli-reactions\/oversize-stops-cli {2}/m);
    expect(list.stdout).toMatch(/^MUST {3}host\/launch\/no-shell {2}/);
    expect([unmatched.code, unmatched.stderr]).toEqual([2, "awp-conformance: --skip host/nosuch matches no clause of the host catalogue: `awp-conformance list --protocol host` lists the clause ids [usage]\n"]);
  });
});
