/**
 * `awp-conformance matrix` in-process, with runCommand faked (it writes a saved sample report, or
 * throws): what each candidate is run with (the shared options, its own arguments and options,
 * the configuration file's keys), --jobs, a candidate that cannot run staying a column, the exit
 * code, saved reports rendered into their folders, and every usage mistake found before a launch.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { KitError } from "../../src/core/errors.js";
import type { Matrix } from "../../src/core/report/matrix.js";
import type { RunArgs } from "../../src/cli/run-args.js";
import { ROOT, useTempDirs } from "../integration/cli.js";

const SAMPLE = readFileSync(join(ROOT, "test/fixtures/reports/provider-sample.json"), "utf8");
const AGENT_SAMPLE = join(ROOT, "test/fixtures/reports/agent-cli-sample.json");
const REFERENCE = join(ROOT, "examples/reference-provider/provider.mjs");

const calls: RunArgs[] = [];
let inFlight = 0;
let most = 0;
vi.mock("../../src/cli/run.js", () => ({
  runCommand: async (args: RunArgs): Promise<number> => {
    calls.push(args);
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((done) => setTimeout(done, 20));
    inFlight -= 1;
    if (args.rest.includes("--usage-mistake")) throw new KitError("usage", "--config-json is not valid JSON");
    if (args.rest.includes("--kit-bug")) throw new Error("boom");
    mkdirSync(args.out as string, { recursive: true });
    writeFileSync(join(args.out as string, "report.json"), SAMPLE);
    return 1;
  },
}));

const { runMatrix } = await import("../../src/cli/matrix.js");
const temp = useTempDirs("awp-matrix-");

const none: RunArgs = { rest: [], clause: [], skip: [], scenario: [], reporter: [], color: false };

type MatrixCall = Partial<Omit<Parameters<typeof runMatrix>[0], "shared">> & { shared?: Partial<RunArgs> };

async function matrix(args: MatrixCall, cwd = temp()): Promise<{ code: number; out: string; json: Matrix; printed: string }> {
  const out = join(cwd, "m");
  let printed = "";
  const code = await runMatrix({ reports: [], candidates: [], candidateArgs: [], candidateOptions: [], config: false, out, cwd, say: () => undefined, print: (t) => (printed += t), ...args, shared: { ...none, ...args.shared } });
  return { code, out, json: JSON.parse(readFileSync(join(out, "matrix.json"), "utf8")) as Matrix, printed };
}

beforeEach(() => {
  calls.length = 0;
  most = 0;
});

describe("matrix: candidates given on the command line", () => {
  it("runs each with the shared options, its own program arguments and its own run options, into <out>/NAME/", async () => {
    const cfg = join(ROOT, "examples/reference-provider/valid-config.json");
    const { code, out, json } = await matrix({
      candidates: [`ref=${REFERENCE}`, `mock=${REFERENCE}`],
      candidateArgs: ["mock=--fault", "mock=wrong-digest"],
      candidateOptions: [`mock=--config-file=${cfg}`, "mock=--timeout=9000"],
      shared: { protocol: "provider", timeout: 3000, clause: ["provider/envelope/**"] },
    });
    expect(code).toBe(0);
    expect(calls.map((c) => [c.candidate, c.rest, c.out, c.timeout, c.configFile, c.clause, c.reporter])).toEqual([
      [REFERENCE, [], join(out, "ref"), 3000, undefined, ["provider/envelope/**"], ["json", "html", "badge"]],
      [REFERENCE, ["--fault", "wrong-digest"], join(out, "mock"), 9000, cfg, ["provider/envelope/**"], ["json", "html", "badge"]],
    ]);
    expect(json.sections[0]?.columns.map((c) => [c.name, c.dir, c.origin, c.verdict])).toEqual([["ref", "ref", "run", "not-conformant"], ["mock", "mock", "run", "not-conformant"]]);
    for (const file of ["matrix.html", "matrix.md", "matrix.json"]) expect(existsSync(join(out, file))).toBe(true);
  });

  it("takes any run option for every candidate as --candidate-option '*=OPTION', under each candidate's own", async () => {
    await matrix({ candidates: [`a=${REFERENCE}`, `b=${REFERENCE}`], candidateOptions: ["*=--budget=700", "*=--budget-slack=50", "b=--budget=800"], shared: { protocol: "provider", budget: 100 } });
    expect(calls.map((c) => [c.budget, c.budgetSlack])).toEqual([[700, 50], [800, 50]]);
  });

  it("says which candidate it starts on stderr, and nothing with --quiet", async () => {
    const cwd = temp();
    const lines: string[] = [];
    const base = { reports: [], candidates: [`a=${REFERENCE}`], candidateArgs: [], candidateOptions: [], config: false as const, cwd, say: (l: string) => lines.push(l), print: () => undefined };
    await runMatrix({ ...base, out: join(cwd, "m1"), shared: { ...none, protocol: "provider" } });
    expect(lines).toEqual([`awp-conformance: matrix: candidate a (provider) into ${join(cwd, "m1", "a")}`]);
    await runMatrix({ ...base, out: join(cwd, "m2"), shared: { ...none, protocol: "provider", quiet: true } });
    expect(lines).toHaveLength(1);
  });

  it("runs --jobs candidates at a time, the columns in the order given", async () => {
    const { json } = await matrix({ candidates: ["a", "b", "c", "d"].map((n) => `${n}=${REFERENCE}`), jobs: 2, shared: { protocol: "provider" } });
    expect(most).toBe(2);
    expect(json.sections[0]?.columns.map((c) => c.name)).toEqual(["a", "b", "c", "d"]);
    // Several at once, their progress lines would interleave: they are off.
    expect(calls.every((c) => c.quiet === true)).toBe(true);
  });

  it("keeps a candidate that could not run as a column saying why; exit 2 for a usage mistake, 3 for a kit failure", async () => {
    const usage = await matrix({ candidates: [`ok=${REFERENCE}`, `bad=${REFERENCE}`], candidateArgs: ["bad=--usage-mistake"], shared: { protocol: "provider" } });
    expect(usage.code).toBe(2);
    expect(usage.json.sections[0]?.columns.map((c) => [c.name, c.failure])).toEqual([["ok", undefined], ["bad", "--config-json is not valid JSON [usage]"]]);
    expect(usage.json.sections[0]?.rows.every((r) => r.cells[1]?.status === "no-report")).toBe(true);
    expect(usage.printed).toContain("bad (provider): no report: --config-json is not valid JSON");
    const bug = await matrix({ candidates: [`bug=${REFERENCE}`], candidateArgs: ["bug=--kit-bug"], shared: { protocol: "provider" } });
    expect(bug.code).toBe(3);
    expect(bug.json.sections[0]?.columns[0]?.failure).toBe("the kit failed: boom");
  });

  it.each([
    [{ candidates: [`a=${REFERENCE}`] }, /which protocol\? Give --protocol/],
    [{ candidates: [`a=${REFERENCE}`], candidateArgs: ["b=--x"], shared: { protocol: "provider" } }, /--candidate-arg b=--x: no candidate named "b"/],
    [{ candidates: [`a=${REFERENCE}`, `a=${REFERENCE}`], shared: { protocol: "provider" } }, /two candidates are named "a"/],
    [{ candidates: [`a b=${REFERENCE}`], shared: { protocol: "provider" } }, /the name "a b" names its report folder/],
    [{ candidates: [`a=${REFERENCE}`], candidateOptions: ["a=--no-such-option"], shared: { protocol: "provider" } }, /--candidate-option a: unknown option --no-such-option \(awp-conformance run --help/],
    [{ candidates: [`a=${REFERENCE}`], candidateOptions: ["a=stray"], shared: { protocol: "provider" } }, /--candidate-option a: "stray" is no option: give the program's own arguments with --candidate-arg a=ARG/],
    [{ candidates: [`a=${REFERENCE}`], candidateOptions: ["a=--mode=awp-jsonl"], shared: { protocol: "provider" } }, /--mode applies to --protocol agent-cli only/],
    [{ candidates: [`a=${REFERENCE}`], shared: { protocol: "provider", clause: ["provider/envelop/**"] } }, /matches no clause|did you mean provider\/envelope/],
    [{ candidates: [`a=${join(ROOT, "no-such-provider")}`], shared: { protocol: "provider" } }, /no-such-provider/],
    [{ candidates: ["ref"] }, /--candidate ref: give NAME=PATH \(there is no configuration file/],
    [{}, /nothing to compare/],
  ])("refuses %j before any launch", async (args, message) => {
    await expect(matrix(args as MatrixCall)).rejects.toThrow(message);
    expect(calls).toEqual([]);
  });
});

describe("matrix: saved reports", () => {
  it("renders each into its own folder (report.json, report.html, badge), named after the report's folder", async () => {
    const dir = temp();
    for (const name of ["one", "two"]) {
      mkdirSync(join(dir, name, "x"), { recursive: true });
      writeFileSync(join(dir, name, "x", "report.json"), SAMPLE);
    }
    mkdirSync(join(dir, "three"));
    writeFileSync(join(dir, "three", "report.json"), SAMPLE);
    const { code, out, json } = await matrix({ reports: [join(dir, "one/x/report.json"), join(dir, "two/x"), join(dir, "three"), AGENT_SAMPLE] }, dir);
    expect(code).toBe(0);
    expect(calls).toEqual([]);
    const columns = json.sections.flatMap((s) => s.columns.map((c) => [s.protocol, c.name, c.dir, c.origin]));
    expect(columns).toEqual([["provider", "x", "x", "report"], ["provider", "x", "x-2", "report"], ["provider", "three", "three", "report"], ["agent-cli", "agent-cli-sample", "agent-cli-sample", "report"]]);
    for (const d of ["x", "x-2", "three", "agent-cli-sample"]) for (const f of ["report.json", "report.html", "badge.svg", "badge.json"]) expect(existsSync(join(out, d, f)), `${d}/${f}`).toBe(true);
  });

  it("refuses a file that is not a report, naming it, before anything runs", async () => {
    const dir = temp();
    writeFileSync(join(dir, "notes.json"), '{"hello": "world"}');
    await expect(matrix({ reports: [join(dir, "notes.json")], candidates: [`a=${REFERENCE}`], shared: { protocol: "provider" } }, dir)).rejects.toThrow(/notes\.json: .*reportVersion/);
    expect(calls).toEqual([]);
    expect(existsSync(join(dir, "m", "matrix.json"))).toBe(false);
  });
});

describe("matrix: the configuration file's candidates", () => {
  function project(): string {
    const dir = temp();
    writeFileSync(join(dir, "valid.json"), '{"a":1}');
    writeFileSync(join(dir, "awp-conformance.config.yaml"), [
      "candidates:",
      "  - name: prov",
      "    protocol: provider",
      `    command: [${JSON.stringify(REFERENCE)}, --x]`,
      "    configFile: valid.json",
      "    bounds: { budget: 300 }",
      "  - name: other",
      "    protocol: provider",
      `    command: [${JSON.stringify(REFERENCE)}]`,
      "",
    ].join("\n"));
    return dir;
  }

  it("runs every candidate of the file with its keys, the shared options and its own over them", async () => {
    const dir = project();
    const { json } = await matrix({ config: undefined, shared: { timeout: 4000 }, candidateOptions: ["other=--timeout=5000"], candidateArgs: ["prov=--y"] }, dir);
    expect(calls.map((c) => [c.protocol, c.candidate, c.rest, c.configFile, c.budget, c.timeout, c.out])).toEqual([
      ["provider", REFERENCE, ["--x", "--y"], join(dir, "valid.json"), 300, 4000, join(dir, "m", "prov")],
      ["provider", REFERENCE, [], undefined, undefined, 5000, join(dir, "m", "other")],
    ]);
    expect(json.sections[0]?.columns.map((c) => c.name)).toEqual(["prov", "other"]);
  });

  it("--candidate NAME picks the file's candidate, beside one given by path; report files alone leave the file out", async () => {
    const dir = project();
    await matrix({ config: undefined, candidates: ["other", `mine=${REFERENCE}`], shared: { protocol: "provider" } }, dir);
    expect(calls.map((c) => c.out)).toEqual([join(dir, "m", "other"), join(dir, "m", "mine")]);
    calls.length = 0;
    const { json } = await matrix({ config: undefined, reports: [AGENT_SAMPLE] }, dir);
    expect(calls).toEqual([]);
    expect(json.sections.map((s) => s.protocol)).toEqual(["agent-cli"]);
    await expect(matrix({ config: undefined, candidates: ["prv"] }, dir)).rejects.toThrow(/has no candidate of that name \(did you mean/);
  });
});

describe("matrix: pre-flight (option-rules.ts), before the command starts", () => {
  it("checks the report files, the shared input files and the --out folder, and options of the other protocol", async () => {
    const { preflight } = await import("../../src/cli/preflight.js");
    const dir = temp();
    writeFileSync(join(dir, "file"), "x");
    expect(() => preflight("matrix", { reports: [join(dir, "missing.json")] }, { cwd: dir })).toThrow(/report file .*missing\.json/);
    expect(() => preflight("matrix", { "config-file": join(dir, "nope.json") }, { cwd: dir })).toThrow(/--config-file .*nope\.json/);
    expect(() => preflight("matrix", { out: join(dir, "file", "m") }, { cwd: dir })).toThrow(/--out .*cannot write reports there/);
    expect(() => preflight("matrix", { protocol: "agent-cli", budget: 10 }, { cwd: dir })).toThrow(/--budget applies to --protocol provider only/);
    preflight("matrix", { out: join(dir, "fresh"), reports: [join(dir, "file")] }, { cwd: dir });
    expect(existsSync(join(dir, "fresh"))).toBe(true);
  });
});
