import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/core/clauses/catalogue.js";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const REFERENCE = join(ROOT, "examples/reference-provider/provider.mjs");
const temp = useTempDirs();

describe("the installed bin", () => {
  it("is executable after the build, so `npx awp-conformance` works in a fresh clone", () => {
    // tsc writes 0644; scripts/bin-mode.mjs (part of npm run build) sets the execute bits.
    const result = spawnSync(join(ROOT, "dist/src/cli/main.js"), ["list", "--protocol", "provider"], { encoding: "utf8", timeout: 30_000 });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^MUST {3}provider\//);
  });
});

describe("awp-conformance list and digest", () => {
  it("lists every provider clause with its level and title", async () => {
    const result = await runCli(["list", "--protocol", "provider"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines.length).toBe(loadCatalogue("provider").length);
    expect(lines[0]).toMatch(/^MUST {3}provider\/transport\/single-json-object {2}\S/);
  });

  it("prints the input_digest of a request file and of stdin", async () => {
    const vector = (JSON.parse(readFileSync(join(ROOT, "test/fixtures/provider/digest-vectors.json"), "utf8")) as { vectors: { request: string; digest: string }[] }).vectors[0];
    const file = join(temp(), "request.json");
    writeFileSync(file, vector?.request ?? "");
    const result = await runCli(["digest", file]);
    expect(result).toMatchObject({ code: 0, stdout: `${vector?.digest}\n` });
    expect(await runCli(["digest", "-"], { input: vector?.request ?? "" })).toMatchObject({ code: 0, stdout: `${vector?.digest}\n` });
  });

  it("prints the digest in every dialect with --dialect all, as serde_json 1.0.87 and 1.0.154 compute it", async () => {
    const vector = (JSON.parse(readFileSync(join(ROOT, "test/fixtures/provider/dialect-vectors.json"), "utf8")) as { requests: { request: string; ryu: { digest: string }; zmij: { digest: string } }[] }).requests[0];
    const result = await runCli(["digest", "-", "--dialect", "all"], { input: vector?.request ?? "" });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${vector?.ryu.digest} ryu (serde_json 1.0.26 to 1.0.146)\n${vector?.zmij.digest} zmij (serde_json 1.0.147 and later)\n`);
  });

  it("refuses an ambiguous request with a usage error", async () => {
    const file = join(temp(), "dup.json");
    writeFileSync(file, '{"a":1,"a":2}');
    const result = await runCli(["digest", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/duplicate-key at line 1, column 8/);
  });
});

describe("awp-conformance run: usage errors exit 2 with a clear message", () => {
  const cases: [string, string[], RegExp][] = [
    ["a missing candidate", ["run", "--protocol", "provider", "./no-such-provider"], /does not exist/],
    ["a bad --config-json", ["run", "--protocol", "provider", "--config-json", "{", REFERENCE], /--config-json is not valid JSON/],
    ["a non-object configuration", ["run", "--protocol", "provider", "--config-json", "[]", REFERENCE], /must be a JSON object/],
    ["both configuration options", ["run", "--protocol", "provider", "--config-json", "{}", "--config-file", join(ROOT, "examples/reference-provider/valid-config.json"), REFERENCE], /either --config-json or --config-file/],
    ["an unknown option", ["run", "--protocol", "provider", "--no-such-flag", REFERENCE], /^awp-conformance: unknown option --no-such-flag; awp-conformance run --help lists them \[usage\]$/m],
    ["an unknown reporter", ["run", "--protocol", "provider", "--reporter", "pdf", REFERENCE], /unknown reporter "pdf"/],
    ["a candidate without --protocol", ["run", REFERENCE], /--protocol/],
    ["a zero budget", ["run", "--protocol", "provider", "--budget", "0", REFERENCE], /--budget must be a positive integer/],
    ["a fractional --jobs", ["run", "--protocol", "provider", "--jobs", "1.5", REFERENCE], /--jobs must be a positive integer/],
    ["a zero stall timeout", ["run", "--protocol", "agent-cli", "--stall-timeout", "0", REFERENCE], /--stall-timeout must be a positive integer/],
    // Once a crash when the run wrote its report, after every call was made.
    ["an output directory given twice", ["run", "--protocol", "provider", "--out", "a", "--out", "b", REFERENCE], /^awp-conformance: --out was given 2 times \("a", "b"\): it takes one value \[usage\]$/m],
    ["a fuzz seed given twice", ["fuzz", "--protocol", "provider", "--seed", "1", "--seed", "2", REFERENCE], /--seed was given 2 times/],
    // --clause nosuch once judged nothing and exited 1 without naming the pattern.
    ["a --clause pattern that matches no clause", ["run", "--protocol", "provider", "--clause", "nosuch", REFERENCE], /^awp-conformance: --clause nosuch matches no clause of the provider catalogue: `awp-conformance list --protocol provider` lists the clause ids \[usage\]$/m],
    ["a --skip pattern that matches no clause", ["run", "--protocol", "provider", "--skip", "provider/transport/nosuch", REFERENCE], /--skip provider\/transport\/nosuch matches no clause of the provider catalogue/],
    ["a pattern that matches no clause of the bundled examples", ["run", "--clause", "agent-cli/nosuch"], /--clause agent-cli\/nosuch matches no clause of the bundled examples' catalogues \(provider, agent-cli\)/],
    ["an empty candidate argument", ["run", "--protocol", "provider", ""], /no candidate given: the candidate argument is empty/],
  ];
  for (const [what, args, message] of cases) {
    it(`for ${what}`, async () => {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    });
  }

  it("for a candidate that is not executable", async () => {
    const file = join(temp(), "provider.mjs");
    writeFileSync(file, "#!/usr/bin/env node\n");
    chmodSync(file, 0o644);
    const result = await runCli(["run", "--protocol", "provider", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not executable/);
  });
});

describe("awp-conformance run without a candidate", () => {
  // The CI line of issue 26 with $CANDIDATE unset: it ran the bundled reference and exited 0, "70 passed, conformant".
  it("refuses an option that configures a candidate, naming it and how to run the bundled examples (exit 2, nothing run)", async () => {
    const out = temp();
    const result = await runCli(["run", "--protocol", "provider", "--reporter", "console,junit", "--out", out]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^awp-conformance: no candidate given: --protocol configures a candidate, so the run needs its executable .*to run the kit's bundled examples instead, give none of the options that configure a candidate: `awp-conformance run`/);
    expect(existsSync(join(out, "reference-provider"))).toBe(false);
  });

  it("names every candidate option given", async () => {
    const result = await runCli(["run", "--config-json", "{}", "--budget", "100", "--env", "A=1", "--out", temp()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no candidate given: --config-json, --budget and --env configure a candidate/);
  });

  // The run of every bundled example (all conformant, each report saying so) is the README's first
  // command: test/docs/examples.test.ts runs it as written and judges its reports (test/docs/bundled-run.ts).
});

describe("awp-conformance run", () => {
  it("never passes a run that judged nothing", async () => {
    const out = temp();
    const result = await runCli(["run", "--protocol", "provider", "--clause", "provider/transport", "--skip", "provider/transport", "--out", out, REFERENCE]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/nothing was judged: not a pass/);
    expect(readReport(out).summary.verdict).toBe("nothing-judged");
  });

  it("gives each failure a one-line command that replays the exact request", async () => {
    const out = temp();
    const fake = join(ROOT, "dist/src/mocks/provider.js");
    const result = await runCli(["run", "--protocol", "provider", "--clause", "provider/invoke/echoes-input-digest", "--config-file", join(ROOT, "test/fakes/provider-lean-config.json"), "--out", out, fake, "--", "--fault", "wrong-digest"]);
    expect(result.code).toBe(1);
    const finding = readReport(out).clauses[0]?.findings[0];
    expect(finding?.reproduce).toBe(`${fake} --fault wrong-digest < ${join(out, "requests", `${String(finding?.evidence?.[0]?.seq).padStart(3, "0")}-${finding?.requestId}.json`)}`);
    expect(result.stdout).toContain(`reproduce: ${finding?.reproduce}`);
    const [command, input] = (finding?.reproduce ?? "").split(" < ");
    const replay = spawnSync(fake, (command ?? "").split(" ").slice(1), { input: readFileSync(input ?? "") });
    expect(replay.status).toBe(0);
    expect(JSON.parse(replay.stdout.toString()).input_digest).toBe(JSON.parse(finding?.seen ?? "null"));
  });

  it("keeps secrets from the configuration out of every report", async () => {
    const out = temp();
    const secret = "tok-SECRET-0123456789";
    const result = await runCli(["run", "--protocol", "provider", "--clause", "provider/validate-config", "--config-json", JSON.stringify({ blocked_tools: ["x"], api_token: secret }), "--out", out, REFERENCE]);
    expect(result.code).toBe(1);
    const json = readFileSync(join(out, "report.json"), "utf8");
    expect(readReport(out).clauses.find((c) => c.id === "provider/validate-config/accepts-valid-config")?.status).toBe("fail");
    expect(json).toContain("[REDACTED]");
    expect(json).not.toContain(secret);
    expect(result.stdout).not.toContain(secret);
    expect(existsSync(join(out, "requests"))).toBe(false);
  });
});
