import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kitSchema } from "../../src/core/schema.js";
import { failing, readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const REFERENCE = join(ROOT, "examples/reference-provider/provider.mjs");
const FAKE = join(ROOT, "dist/src/mocks/provider.js");
const CONFIG = ["--config-file", join(ROOT, "test/fakes/provider-lean-config.json")];
const temp = useTempDirs();

interface Replay {
  clause: string;
  seed: number;
  path: string;
  case: { kind: string; label: string; text?: string };
}

function replays(out: string): { file: string; replay: Replay }[] {
  const folder = join(out, "replays");
  return readdirSync(folder).map((name) => ({ file: join(folder, name), replay: JSON.parse(readFileSync(join(folder, name), "utf8")) as Replay }));
}

function depth(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  return 1 + Math.max(0, ...Object.values(value as object).map(depth));
}

const request = (r: Replay): { event: { tool: { name: string; input: unknown } } } => JSON.parse(r.case.text ?? "{}");

describe("awp-conformance fuzz --protocol provider", () => {
  it("finds nothing on the reference provider", async () => {
    const out = temp();
    const result = await runCli(["fuzz", "--protocol", "provider", "--fuzz-runs", "40", "--seed", "11", "--config-file", join(ROOT, "examples/reference-provider/valid-config.json"), "--out", out, "--reporter", "json", REFERENCE]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/fuzzing provider with seed 11 \(40 runs\)/);
    const report = readReport(out);
    expect(report.summary.verdict).toBe("conformant");
    expect(report.notes.join(" ")).toMatch(/Fuzzing: 40 generated cases \(\d+ candidate calls or sessions\), seed 11, 0 failure\(s\) kept/);
  });

  it("--fuzz-time alone is a time box (no default count), and the campaign's progress goes to stderr", async () => {
    const out = temp();
    const result = await runCli(["fuzz", "--protocol", "provider", "--fuzz-time", "1", "--seed", "11", "--config-file", join(ROOT, "examples/reference-provider/valid-config.json"), "--out", out, "--reporter", "json", REFERENCE]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/fuzzing provider with seed 11 \(cases until 1 s\)/);
    // Off a terminal: a plain line every 10 s (none in 1 s) and one at the end, on stderr only.
    const cases = readReport(out).fuzz?.cases ?? 0;
    expect(result.stderr).toMatch(new RegExp(`^awp-conformance: fuzz provider done: ${cases} cases? in \\d+\\.\\d s \\(\\d+\\.\\d cases/s\\), 0 failing clauses$`, "m"));
    expect(result.stdout).not.toContain("fuzz provider done");
  });

  it("finds a crash on nesting of 20 and shrinks it to exactly 20, replayable", async () => {
    const out = temp();
    // Seed 8 draws a tool.input nested 20 or more deep in its first case.
    const result = await runCli(["fuzz", "--protocol", "provider", "--fuzz-runs", "1", "--seed", "8", ...CONFIG, "--out", out, "--reporter", "json", FAKE, "--", "--fault", "crash-on-nesting-20"]);
    expect(result.code).toBe(1);
    const [found] = replays(out);
    expect(found?.replay.clause).toBe("provider/transport/valid-request-exits-zero");
    expect(found?.replay.case.kind).toBe("valid");
    expect(depth(request(found!.replay).event.tool.input)).toBe(20);
    expect(result.stdout).toContain(`seed 8, path ${found?.replay.path}`);
    // The printed command names the candidate, so it runs as printed (no --yes: nothing is taken from the file).
    const printed = /replay: awp-conformance (replay .*)/.exec(result.stdout)?.[1] ?? "";
    expect(printed).toBe(`replay ${found?.file} -- ${FAKE} --fault crash-on-nesting-20`);
    const again = await runCli(printed.split(" "));
    expect(again).toMatchObject({ code: 1 });
    expect(again.stdout).toMatch(/^STILL FAILING: provider\/transport\/valid-request-exits-zero/);
    const fixed = await runCli(["replay", found!.file, REFERENCE]);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toMatch(/^FIXED: /);
  });

  it("puts fuzz findings into the run's report, under their clause, with a replay command", async () => {
    const out = temp();
    // Seed 2 draws a tool name of more than 200 characters in its first case.
    const result = await runCli(["run", "--protocol", "provider", "--skip", "provider/robustness", "--fuzz-runs", "1", "--seed", "2", ...CONFIG, "--out", out, "--reporter", "console,json", FAKE, "--", "--fault", "crash-on-long-tool-name"]);
    expect(result.code).toBe(1);
    const report = readReport(out);
    expect(failing(report)).toEqual(["provider/transport/valid-request-exits-zero"]);
    const clause = report.clauses.find((c) => c.id === "provider/transport/valid-request-exits-zero");
    const fuzzed = clause?.findings.filter((f) => f.foundBy === "fuzz") ?? [];
    expect(fuzzed).toHaveLength(1);
    expect(result.stdout).toMatch(/found by fuzzing: a well-formed request ended in a failed process/);
    expect(fuzzed[0]?.reproduce).toMatch(/^awp-conformance replay .*replays\/provider_transport_valid-request-exits-zero-2\.json -- .*mocks\/provider\.js --fault crash-on-long-tool-name$/);
    const [found] = replays(out);
    expect([...request(found!.replay).event.tool.name]).toHaveLength(201);
  });
});

describe("awp-conformance fuzz: sizes", () => {
  it("finds a crash on a tool.input of more than 50 members, shrinks it to 51, and reports what it explored", async () => {
    const out = temp();
    // Seed 1 draws a tool.input object of more than 50 members in its second case.
    const result = await runCli(["fuzz", "--protocol", "provider", "--fuzz-runs", "2", "--seed", "1", ...CONFIG, "--out", out, "--reporter", "console,json,markdown", FAKE, "--", "--fault", "crash-on-input-over-50-members"]);
    expect(result.code).toBe(1);
    const [found] = replays(out);
    expect(found?.replay.clause).toBe("provider/transport/valid-request-exits-zero");
    expect(Object.keys(request(found!.replay).event.tool.input as object)).toHaveLength(51);
    expect(found?.replay.case.label).toContain("tool.input object of 51 members");
    const report = readReport(out);
    expect(kitSchema("report.schema.json")(report)).toBe(true);
    const fuzz = report.fuzz;
    expect(fuzz).toMatchObject({ seed: 1, cases: 2, failures: 1, unit: "request" });
    expect(fuzz?.kinds.reduce((n, k) => n + k.count, 0)).toBe(2);
    expect(fuzz?.kinds.map((k) => k.name)).toContain("hostile:oversized-request");
    for (const size of fuzz?.sizes ?? []) expect(size.buckets.reduce((n, b) => n + b.count, 0), size.name).toBe(2);
    expect(result.stdout).toMatch(/fuzz coverage: 2 requests, seed 1 \(\d+ candidate calls with shrinking, 1 failure with a replay file\)/);
    expect(result.stdout).toMatch(/request size, requests: < 1 KiB: \d+/);
    expect(readFileSync(join(out, "report.md"), "utf8")).toMatch(/### Fuzz coverage[\s\S]*\| request size \| requests \|/);
  });
});

describe("awp-conformance fuzz --protocol agent-cli", () => {
  it("finds nothing on the reference CLI", async () => {
    const out = temp();
    const cli = join(ROOT, "examples/reference-agent-cli/agent-cli.mjs");
    const env = ["--env", "AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "--env", "AWP_REFERENCE_API_KEY={{fixture.token}}"];
    const result = await runCli(["fuzz", "--protocol", "agent-cli", "--fuzz-runs", "3", "--seed", "5", ...env, "--out", out, "--reporter", "json", cli]);
    expect(result.code).toBe(0);
    const report = readReport(out);
    expect(report.summary.verdict).toBe("conformant");
    // judged counts the turns the sessions judged; the fuzz section, the sessions that judged each clause.
    const turns = report.fuzz?.kinds.find((k) => k.name === "turn")?.count ?? 0;
    expect(report.clauses.find((c) => c.id === "agent-cli/turns/one-terminal-per-turn")?.judged).toBe(turns);
    expect(report.fuzz?.judgedBy?.find((c) => c.name === "agent-cli/turns/one-terminal-per-turn")?.count).toBeLessThanOrEqual(3);
    expect(report.fuzz).toMatchObject({ seed: 5, cases: 3, calls: 3, failures: 0, unit: "session" });
    expect(report.fuzz?.sizes.find((s) => s.name === "turns per session")?.buckets.reduce((n, b) => n + b.count, 0)).toBe(3);
    expect(readFileSync(join(out, "report.json"), "utf8")).not.toMatch(/sk-awp-/);
  });

  it("ends each session of a CLI that floods stdout at --output-budget, and passes no fuzzed clause on sessions it did not judge", async () => {
    const out = temp();
    const flood = join(ROOT, "bench/fixtures/agent-cli-flood.mjs");
    // Lines of 2 MiB: the flood's first write passes the 1 MiB budget before any turn is answered,
    // so every session is cut. With smaller lines a short session could end first and be judged
    // whole (on a loaded machine the kit read less before the turns ended), and the flood's exit
    // on the shutdown line could cut its last line: a failure of its own, before the cut session.
    const result = await runCli(["fuzz", "--protocol", "agent-cli", "--fuzz-runs", "2", "--seed", "3", "--output-budget", "1", "--env", "AWP_FLOOD_LINE_BYTES=2097152", "--out", out, "--reporter", "json", flood]);
    const report = readReport(out);
    // What a session broke before the kit ended it may stand as a failure; nothing passes.
    expect(report.clauses.filter((c) => c.status === "pass")).toEqual([]);
    const skipped = report.clauses.filter((c) => c.status === "skip");
    expect(skipped.length).toBeGreaterThan(0);
    for (const clause of skipped) expect(clause.reason).toMatch(/more on stdout than the kit records of one fuzzed session \(stdout passed 1048576 bytes; --output-budget 1 MiB\) in [12] of 2 sessions/);
    expect(report.notes.some((n) => n.startsWith("Fuzzing incomplete: "))).toBe(true);
    expect(result.code).toBe(report.clauses.some((c) => c.status === "fail" && c.level === "MUST") ? 1 : 4);
  });
});

describe("awp-conformance fuzz --protocol agent-cli: what never occurred is never passed", () => {
  const NO_STREAM = join(ROOT, "test/fakes/agent-cli-no-stream.mjs");

  it("a CLI that never streams content blocks, never errs and never calls a model passes none of text-blocks, error-code and fidelity", async () => {
    const out = temp();
    const result = await runCli(["fuzz", "--protocol", "agent-cli", "--fuzz-runs", "3", "--seed", "5", "--out", out, "--reporter", "json", NO_STREAM]);
    const report = readReport(out);
    expect(kitSchema("report.schema.json")(report)).toBe(true);
    const byId = new Map(report.clauses.map((c) => [c.id, c]));
    expect(byId.get("agent-cli/turns/text-blocks")).toMatchObject({ status: "not-applicable", judged: 0, reason: "in every fuzzed session: no turn streamed content_block events" });
    expect(byId.get("agent-cli/turns/error-code")).toMatchObject({ status: "not-applicable", judged: 0, reason: "in every fuzzed session: no error result was written" });
    for (const id of ["agent-cli/fidelity/streamed-text", "agent-cli/fidelity/result-text"]) {
      expect(byId.get(id)).toMatchObject({ status: "skip", judged: 0, reason: expect.stringMatching(/^in every fuzzed session: the CLI never called the kit's model fixture/) });
    }
    // What the sessions did judge passes, on the judgements they made, each counted in the fuzz section.
    const judgedBy = new Map(report.fuzz?.judgedBy?.map((c) => [c.name, c.count]));
    expect(judgedBy.get("agent-cli/turns/text-blocks")).toBe(0);
    for (const c of report.clauses.filter((r) => r.status === "pass")) {
      expect(c.judged, c.id).toBeGreaterThanOrEqual(1);
      expect(judgedBy.get(c.id), c.id).toBeGreaterThanOrEqual(1);
    }
    // Two MUST clauses could not be judged: incomplete, never conformant.
    expect(report.summary.verdict).toBe("incomplete");
    expect(result.code).toBe(4);
  });

  it("an exit after a malformed line is survives-malformed-line (SHOULD), as run rates it, and its replay gives the same clause", async () => {
    const out = temp();
    const env = ["--env", "AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "--env", "AWP_REFERENCE_API_KEY={{fixture.token}}"];
    const mock = join(ROOT, "dist/src/mocks/agent-cli.js");
    const result = await runCli(["fuzz", "--protocol", "agent-cli", "--fuzz-runs", "8", "--seed", "12", "--turn-timeout", "3000", ...env, "--out", out, "--reporter", "json", mock, "--", "--fault", "exit-on-malformed"]);
    const report = readReport(out);
    expect(failing(report)).toEqual(["agent-cli/input/survives-malformed-line"]);
    expect(report.clauses.find((c) => c.id === "agent-cli/turns/no-exit-mid-turn")?.status).toBe("pass");
    // A SHOULD failure is a warning at the default --level must.
    expect(result.code).toBe(0);
    const [found] = replays(out) as unknown as { file: string; replay: { clause: string; case: { steps: { op: string }[] } } }[];
    expect(found?.replay.clause).toBe("agent-cli/input/survives-malformed-line");
    expect(found?.replay.case.steps.at(-1)?.op).toBe("malformed");
    const again = await runCli(["replay", found!.file, "--", mock, "--fault", "exit-on-malformed"]);
    expect(again.stdout).toMatch(/^STILL FAILING: agent-cli\/input\/survives-malformed-line\n {2}the process exited on its own after a malformed line, with no turn pending/);
  });
});

describe("golden/regressions", () => {
  const folder = join(ROOT, "golden/regressions");
  const files = readdirSync(folder).filter((f) => f.endsWith(".json"));
  it("holds shrunk cases for every seeded fuzz-only bug", () => {
    const faults = ["crash-on-long-tool-name", "crash-on-nesting-20", "crash-on-input-over-50-members", "drop-terminal-on-line-separator", "drop-terminal-over-64k", "silent-over-12-blocks", "exit-on-text-over-100k"];
    const seeded = files.map((f) => (JSON.parse(readFileSync(join(folder, f), "utf8")) as { candidate: { argv: string[] } }).candidate.argv.at(-1));
    expect(new Set(seeded)).toEqual(new Set(faults));
  });
  for (const name of files) {
    it(`${name} still fails on its candidate and passes on the reference`, async () => {
      const file = join(folder, name);
      const { protocol } = JSON.parse(readFileSync(file, "utf8")) as { protocol: string };
      const still = await runCli(["replay", file, "--yes"]);
      expect(still.stdout).toMatch(/^STILL FAILING: /);
      expect(still.code).toBe(1);
      const reference = protocol === "provider" ? [REFERENCE] : [join(ROOT, "examples/reference-agent-cli/agent-cli.mjs")];
      const fixed = await runCli(["replay", file, ...reference]);
      expect(fixed.stdout).toMatch(/^FIXED: /);
      expect(fixed.code).toBe(0);
    });
  }
});
