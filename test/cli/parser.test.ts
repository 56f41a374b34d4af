import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { explainUnknown, helpRewrite, kitParser, wantsHelp } from "../../src/cli/parser.js";
import { KitError } from "../../src/core/errors.js";

const root = mkdtempSync(join(tmpdir(), "awp-parser-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const REFERENCE = join(import.meta.dirname, "../../examples/reference-provider/provider.mjs");
const OUT = join(root, "out");

/** Parses in-process; every case here is refused before any handler launches anything. */
async function refusal(argv: string[]): Promise<string> {
  try {
    await kitParser(argv, () => undefined, (y) => y.exitProcess(false)).parseAsync();
  } catch (error) {
    if (error instanceof KitError) return `${error.message} [${error.code}]`;
    throw error;
  }
  return "accepted";
}

describe("the command line refuses before the first launch (exit 2)", () => {
  it.each<[string, string[], RegExp]>([
    ["an option of the other protocol", ["run", "--protocol", "provider", "--env", "FOO=bar", "--out", OUT, REFERENCE], /^--env applies to --protocol agent-cli only.*\[usage\]$/],
    ["a missing --invalid-config-file for an agent CLI", ["run", "--protocol", "agent-cli", "--invalid-config-file", "x", "--out", OUT, REFERENCE], /^--invalid-config-file applies to --protocol provider only/],
    ["--mode on a provider", ["run", "--protocol", "provider", "--mode", "stream-json", "--out", OUT, REFERENCE], /^--mode applies to --protocol agent-cli only/],
    ["run --seed without fuzzing", ["run", "--protocol", "provider", "--seed", "3", "--out", OUT, REFERENCE], /^--seed applies only when the run fuzzes/],
    ["run --seed abc", ["run", "--protocol", "provider", "--seed", "abc", "--fuzz-runs", "1", "--out", OUT, REFERENCE], /^--seed takes a number \[usage\]$/],
    ["a missing --config-file", ["run", "--protocol", "provider", "--config-file", "nope.json", "--out", OUT, REFERENCE], /^--config-file nope.json: no such file \[usage\]$/],
    ["a missing --expected-failures", ["check", "--expected-failures", "nope.txt", REFERENCE], /^--expected-failures nope.txt: no such file/],
    ["an unwritable --out", ["run", "--protocol", "provider", "--out", "/proc/nope", REFERENCE], /^--out \/proc\/nope: cannot write reports there/],
    ["an unknown command", ["rnu"], /^unknown command rnu \(did you mean run\?\); the commands: run, /],
    ["an unknown flag", ["run", "--clase", "x"], /^unknown option --clase \(did you mean --clause\?\); awp-conformance run --help lists them \[usage\]$/],
    ["a candidate not on PATH", ["run", "--protocol", "provider", "--out", OUT, "awp-no-such-candidate"], /^candidate awp-no-such-candidate was not found: .*\[candidate_not_found\]$/],
    ["a malformed --step", ["admit", "--step", "tool.before:blok", REFERENCE], /^--step "tool.before:blok": unknown effect "blok" \(did you mean block\?\); the effects are observe, block, ask, replace_input, replace_result \(expected EVENT:EFFECT/],
    ["an unknown event in --step", ["admit", "--step", "tool.befor:block", REFERENCE], /^--step "tool.befor:block": unknown event "tool.befor" \(did you mean tool.before\?\)/],
    ["record --protocol provider", ["record", "--protocol", "provider", "--out", join(root, "t.jsonl"), REFERENCE], /^--protocol provider: record checks an agent CLI only/],
    ["a clause pattern with a typo", ["run", "--protocol", "provider", "--out", OUT, "--clause", "provider/transport/single-json-objet", REFERENCE], /^--clause provider\/transport\/single-json-objet matches no clause of the provider catalogue \(did you mean provider\/transport\/single-json-object\?\): /],
  ])("%s", async (_what, argv, message) => {
    expect(await refusal(argv)).toMatch(message);
  });

  it("gives an agent CLI that is not executable exit 2, as a provider (not a finding, exit 1)", async () => {
    const file = join(root, "cli.mjs");
    writeFileSync(file, "#!/usr/bin/env node\n");
    chmodSync(file, 0o644);
    for (const protocol of ["agent-cli", "provider"]) {
      expect(await refusal(["run", "--protocol", protocol, "--out", OUT, file])).toBe(`candidate ${file} is not executable (chmod +x ${file}) [candidate_not_executable]`);
    }
  });
});

describe("the command line accepts", () => {
  // Each was "Unknown argument" (issue 27): the refusal that follows is about the file, so the option was taken.
  it.each<[string, string[], RegExp]>([
    ["report --reporter (an alias of --format)", ["report", "--reporter", "html", "nope.json"], /^report file nope.json: no such file/],
    ["--quiet on admit", ["admit", "--quiet", "--step", "tool.before:block", "awp-no-such-candidate"], /\[candidate_not_found\]$/],
    ["--quiet on replay", ["replay", "--quiet", "nope.json"], /^replay file nope.json: no such file/],
    ["--quiet on record", ["record", "--quiet", "--out", join(root, "t.jsonl"), "awp-no-such-candidate"], /\[candidate_not_found\]$/],
    ["--quiet on digest", ["digest", "--quiet", "nope.json"], /^request file nope.json: no such file/],
    ["record --protocol agent-cli", ["record", "--protocol", "agent-cli", "--out", join(root, "t.jsonl"), "awp-no-such-candidate"], /\[candidate_not_found\]$/],
  ])("%s", async (_what, argv, message) => {
    expect(await refusal(argv)).toMatch(message);
  });
});

describe("help", () => {
  it("takes -h as --help and `help CMD` as CMD --help", () => {
    expect(helpRewrite(["help", "run"])).toEqual(["run", "--help"]);
    expect(helpRewrite(["help"])).toEqual(["--help"]);
    expect(helpRewrite(["run", "help"])).toEqual(["run", "help"]);
    expect(wantsHelp(["run", "-h"])).toBe(true);
    expect(wantsHelp(["run", "--", "-h"])).toBe(false);
  });

  it("explains unknown arguments with the nearest name, or none when nothing is near", () => {
    expect(explainUnknown("Unknown arguments: reporterr, zzzzzzzz", ["check", "--reporterr", "x", "--zzzzzzzz"])).toBe("unknown options --reporterr (did you mean --reporter?), --zzzzzzzz; awp-conformance check --help lists them");
    expect(explainUnknown("Unknown argument: qiuet", ["list", "--qiuet"])).toBe("unknown option --qiuet (did you mean --quiet?); awp-conformance list --help lists them");
    expect(explainUnknown("Unknown arguments: such-flag, suchFlag", ["run", "--no-such-flag"])).toBe("unknown option --no-such-flag; awp-conformance run --help lists them");
    expect(explainUnknown("Not enough arguments", ["run"])).toBeUndefined();
  });
});
