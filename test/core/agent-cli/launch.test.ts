import { describe, expect, it } from "vitest";
import { secretArgIndexes, urlsIn } from "../../../src/core/agent-cli/checks/launch.js";
import { secretsOf } from "../../../src/runner/agent-cli/suite.js";
import { launchChecks } from "../../../src/core/agent-cli/checks/launch.js";
import { childEnvironment, desktopArgv, expandPlaceholders, type LaunchFacts } from "../../../src/core/agent-cli/launch.js";

const facts = (change: Partial<LaunchFacts> = {}): LaunchFacts => ({
  source: "cli",
  executable: "/opt/cli",
  file: { exists: true, isFile: true, isSymlink: false, executable: true },
  prefixArgs: [],
  env: {},
  model: "m",
  remoteOptIn: false,
  ...change,
});

function failures(f: LaunchFacts): string[] {
  const run = { mode: "awp-jsonl" as const, transcripts: [], launch: f, turnTimeoutMs: 1000, offline: false };
  return launchChecks.flatMap((check) => {
    const j = check.judge(run);
    return j.outcome === "judged" && j.findings.length > 0 ? [check.clause.split("/").pop() as string] : [];
  });
}

describe("launch configuration", () => {
  it("builds argv exactly as the Desktop does", () => {
    const config = { executable: "/opt/cli", prefixArgs: ["--x"], mode: "stream-json" as const, model: "m", env: {} };
    expect(desktopArgv(config, { resume: "id-1", mcpConfig: "/tmp/mcp.json" })).toEqual(["/opt/cli", "--x", "--output-format", "stream-json", "--input-format", "stream-json", "--print", "--verbose", "--model", "m", "--resume", "id-1", "--mcp-config", "/tmp/mcp.json"]);
    expect(desktopArgv({ ...config, mode: "awp-jsonl" })).toEqual(["/opt/cli", "--x", "--model", "m"]);
  });

  it("passes only the allowlist, with a fresh HOME, then the configured entries", () => {
    const env = childEnvironment({ PATH: "/bin", HOME: "/root", SECRET: "x", LANG: "C" }, "/tmp/home", { LANG: "fr", A: "1" });
    expect(env).toEqual({ PATH: "/bin", HOME: "/tmp/home", LANG: "fr", A: "1" });
  });

  it("expands only the known placeholders", () => {
    expect(expandPlaceholders("{{fixture.openai}}/x {{other}}", { "fixture.openai": "http://127.0.0.1:9/v1" })).toBe("http://127.0.0.1:9/v1/x {{other}}");
  });

  it("redacts exactly the prefix arguments the no-secrets clause flags, and secret-named env values", () => {
    const args = ["--verbose", "ghp_abcdefghijklmnopqrstuvwx", "--token", "plain", "AKIAABCDEFGHIJKLMNOP"];
    expect(secretArgIndexes(args)).toEqual([1, 3, 4]);
    const run = { mode: "awp-jsonl" as const, transcripts: [], launch: facts({ prefixArgs: args, env: { MY_API_KEY: "k-123456", BASE: "http://x", TOKEN: "{{fixture.token}}" } }), turnTimeoutMs: 1, offline: false };
    expect(secretsOf(run)).toEqual(["ghp_abcdefghijklmnopqrstuvwx", "plain", "AKIAABCDEFGHIJKLMNOP", "k-123456"]);
  });

  it("finds URLs in args and env values", () => {
    expect(urlsIn(facts({ prefixArgs: ["--base=https://api.example.com/v1"], env: { B: "x http://127.0.0.1:8/ y" } })).map((u) => u.url.host)).toEqual(["api.example.com", "127.0.0.1:8"]);
  });

  it("fails exactly the clause each configuration breaks", () => {
    expect(failures(facts())).toEqual([]);
    expect(failures(facts({ executable: "rel/cli" }))).toEqual(["absolute-executable"]);
    expect(failures(facts({ file: { exists: true, isFile: true, isSymlink: true, executable: true } }))).toEqual(["not-a-symlink"]);
    expect(failures(facts({ file: { exists: true, isFile: false, isSymlink: false, executable: true } }))).toEqual(["regular-executable"]);
    expect(failures(facts({ prefixArgs: Array.from({ length: 129 }, () => "a") }))).toEqual(["args-limits"]);
    expect(failures(facts({ prefixArgs: ["x".repeat(8193)] }))).toEqual(["args-limits"]);
    expect(failures(facts({ env: { "1BAD": "x" } }))).toEqual(["env-limits"]);
    expect(failures(facts({ env: { A: "x".repeat(32769) } }))).toEqual(["env-limits"]);
    expect(failures(facts({ model: "  " }))).toEqual(["model-id"]);
    expect(failures(facts({ model: "a\u0007b" }))).toEqual(["model-id"]);
    expect(failures(facts({ source: "env", protocol: "jsonl" }))).toEqual(["protocol-name"]);
    expect(failures(facts({ env: { U: "https://api.example.com" } }))).toEqual(["remote-url-opt-in"]);
    expect(failures(facts({ env: { U: "https://api.example.com" }, remoteOptIn: true }))).toEqual([]);
    expect(failures(facts({ env: { U: "http://api.example.com" }, remoteOptIn: true }))).toEqual(["no-plain-http-remote"]);
    expect(failures(facts({ env: { U: "http://localhost:8080/v1" } }))).toEqual([]);
    expect(failures(facts({ prefixArgs: ["--token", "abc"] }))).toEqual(["no-secrets-in-args"]);
    expect(failures(facts({ prefixArgs: ["sk-abcdefghijklmnop"] }))).toEqual(["no-secrets-in-args"]);
  });
});
