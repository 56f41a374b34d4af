/**
 * Which options of `run` configure a candidate: given without one, the run is a usage error
 * ("no candidate given"), never a run of the bundled examples that exits 0 with nothing of the
 * user's judged. Every option `run` declares is decided here, so a new one needs a decision.
 */
import { describe, expect, it } from "vitest";
import { bundledToRun, CANDIDATE_OPTIONS, candidateOptionsGiven, noCandidate, type CandidateOptions } from "../../src/cli/bundled.js";
import { runCommandDefinition } from "../../src/cli/commands/run.js";
import { declaredOptions } from "./declared-options.js";

/** The kit's bounds, selections and output options: they apply to the bundled examples as to any candidate. */
const NOT_CANDIDATE = [
  "out", "reporter", "quiet", "level", "docs-url", "clause", "skip", "scenario", "jobs", "run-timeout", "timeout", "budget-slack",
  "turn-timeout", "stall-timeout", "quiet-window", "shutdown-timeout", "order-skew", "output-budget", "task-output-limit", "task-wait-slack",
  "fuzz-runs", "fuzz-time", "seed", "shard", "evidence", "verbose", "spawner",
  // Names the candidate itself (AWP_AGENT_CLI_EXECUTABLE): a run with it is a candidate run.
  "from-env",
  // The configuration file: without a candidate, its candidates run (src/config/run.ts).
  "config",
];

describe("the options that configure a candidate", () => {
  it("every option of run is decided: configures a candidate, or not", () => {
    const candidate = CANDIDATE_OPTIONS.map(([, flag]) => flag.slice(2));
    const declared = declaredOptions(runCommandDefinition);
    expect(declared.length).toBeGreaterThan(30);
    expect(declared.filter((name) => !candidate.includes(name) && !NOT_CANDIDATE.includes(name))).toEqual([]);
    expect(candidate.filter((name) => NOT_CANDIDATE.includes(name))).toEqual([]);
    expect(candidate.filter((name) => !declared.includes(name))).toEqual([]);
  });

  it("each one given alone is named", () => {
    for (const [key, flag] of CANDIDATE_OPTIONS) {
      expect(candidateOptionsGiven({ [key]: key === "budget" ? 100 : "x", rest: [] } as CandidateOptions)).toEqual([flag]);
    }
    expect(candidateOptionsGiven({ rest: ["--fault", "hang"] })).toEqual(["candidate arguments (--fault hang)"]);
    expect(candidateOptionsGiven({ rest: [] })).toEqual([]);
  });

  it("the error names them and says how to run the bundled examples", () => {
    const error = noCandidate(["--protocol", "--config-file"]);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^no candidate given: --protocol and --config-file configure a candidate, so the run needs its executable \(awp-conformance run --protocol provider \.\/my-provider\); to run the kit's bundled examples instead, .*`awp-conformance run`/);
  });
});

describe("the bundled examples a run without a candidate checks", () => {
  it("all of them with no selection; those of the selected protocol with --clause", () => {
    expect(bundledToRun({ clause: [], skip: [] }).map((c) => c.name)).toEqual(["reference-provider", "reference-agent-cli-awp-jsonl", "reference-agent-cli-stream-json"]);
    expect(bundledToRun({ clause: ["provider/transport"], skip: [] }).map((c) => c.name)).toEqual(["reference-provider"]);
    expect(bundledToRun({ clause: [], skip: ["provider"] }).map((c) => c.protocol)).toEqual(["agent-cli", "agent-cli"]);
  });

  it("a pattern of neither protocol, or a selection that leaves nothing, is a usage error", () => {
    expect(() => bundledToRun({ clause: ["nosuch"], skip: [] })).toThrow(/--clause nosuch matches no clause of the bundled examples' catalogues/);
    expect(() => bundledToRun({ clause: ["provider"], skip: ["provider"] })).toThrow(/leave no clause of any bundled example/);
  });
});
