/**
 * `awp-conformance matrix` through the built CLI. One end-to-end run, narrowed to the envelope
 * clauses so it takes seconds: the reference provider beside the provider mock with two faults,
 * --jobs 2. The faulted clauses are exactly the rows where they disagree. The rest reads files only.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Matrix } from "../../src/core/report/matrix.js";
import { kitSchema } from "../../src/core/schema.js";
import { clauseAnchor } from "../../src/reporters/links.js";
import { runCli, useTempDirs } from "./cli.js";
import { TRANSPORT_AND_ENVELOPE } from "./provider-faults.js";

const temp = useTempDirs("awp-matrix-cli-");
const FAULTS = ["wrong-request-id", "extra-field"];

describe("awp-conformance matrix", () => {
  it("of the reference provider and the mock with faults: the faulted clauses are the only disagreement rows", async () => {
    const out = join(temp(), "matrix");
    const faultArgs = FAULTS.flatMap((fault) => ["--candidate-arg", "mock=--fault", "--candidate-arg", `mock=${fault}`]);
    const result = await runCli([
      "matrix", "--out", out, "--jobs", "2", "--protocol", "provider", "--clause", "provider/envelope/**",
      "--config-file", "examples/reference-provider/valid-config.json", "--invalid-config-file", "examples/reference-provider/invalid-configs.json",
      "--candidate", "reference=examples/reference-provider/provider.mjs", "--candidate", "mock=dist/src/mocks/provider.js", ...faultArgs,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const matrix = JSON.parse(readFileSync(join(out, "matrix.json"), "utf8")) as Matrix;
    expect(kitSchema("matrix.schema.json")(matrix)).toBe(true);
    const [section] = matrix.sections;
    expect(section?.columns.map((c) => [c.name, c.verdict])).toEqual([["reference", "conformant"], ["mock", "not-conformant"]]);
    const faulted = TRANSPORT_AND_ENVELOPE.filter((f) => FAULTS.includes(f.fault)).flatMap((f) => f.fails).sort();
    expect(section?.rows.filter((r) => r.disagree).map((r) => r.id).sort()).toEqual(faulted);
    expect(section?.rows.every((r) => r.cells[0]?.status === "pass")).toBe(true);
    // Each cell links into that implementation's own page, at the clause.
    const html = readFileSync(join(out, "matrix.html"), "utf8");
    const mockPage = readFileSync(join(out, "mock", "report.html"), "utf8");
    for (const id of faulted) {
      expect(html).toContain(`href="mock/report.html#${clauseAnchor(id)}"`);
      expect(mockPage).toContain(` id="${clauseAnchor(id)}"`);
    }
    for (const name of ["reference", "mock"]) for (const file of ["badge.svg", "badge.json", "report.json"]) expect(existsSync(join(out, name, file)), `${name}/${file}`).toBe(true);
    expect(readFileSync(join(out, "matrix.md"), "utf8")).toContain(`Clauses where the implementations disagree (${faulted.length} of ${section?.rows.length}):`);
    expect(result.stdout).toContain(`${faulted.length} clauses where the implementations disagree`);
  });

  it("exits 2 naming a file that is not a report, and writes nothing", async () => {
    const dir = temp();
    writeFileSync(join(dir, "notes.json"), "[1, 2]");
    const result = await runCli(["matrix", "--out", join(dir, "m"), join(dir, "notes.json")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(dir, "notes.json"));
    expect(existsSync(join(dir, "m", "matrix.json"))).toBe(false);
  });

  it("is listed in the kit's help, with its inputs, outputs and exit codes in its own", async () => {
    expect((await runCli(["--help"])).stdout).toMatch(/awp-conformance matrix \[reports\.\.\]/);
    const help = (await runCli(["matrix", "--help"])).stdout;
    for (const text of ["--candidate-arg", "--candidate-option", "--jobs", "matrix.html", "separate sections", "each implementation's verdict is in the page"]) expect(help).toContain(text);
  });
});
