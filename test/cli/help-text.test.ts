import { describe, expect, it } from "vitest";
import { walkCommands } from "../../src/cli/command-walk.js";
import { COMMANDS } from "../../src/cli/parser.js";

describe("every command's help", () => {
  const commands = walkCommands(COMMANDS);

  it("walks every command and its options (the walk itself sees them)", () => {
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(["run", "fuzz", "check", "check-launch", "record", "fixture", "report", "admit", "replay", "merge", "policy-test", "list", "digest", "mock"]));
    const run = commands.find((c) => c.name === "run");
    expect(run?.options.map((o) => o.name)).toEqual(expect.arrayContaining(["protocol", "clause", "skip", "reporter", "env", "fuzz-runs", "expected-failures", "candidate"]));
  });

  // check --clause/--skip/--reporter, fuzz --protocol/--config-*, fixture --port had no text (issue 27).
  it("has a description for every option and positional", () => {
    const bare = commands.flatMap((c) => c.options.filter((o) => o.describe.trim() === "").map((o) => `${c.name} ${o.positional ? o.name : `--${o.name}`}`));
    expect(bare).toEqual([]);
  });

  it("has a description for every command", () => {
    expect(commands.filter((c) => c.describe.trim() === "").map((c) => c.name)).toEqual([]);
  });
});
