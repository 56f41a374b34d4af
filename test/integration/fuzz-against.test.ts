/** fuzz --protocol provider --against OTHER: differential fuzzing of two providers, end to end on the built CLI. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kitSchema } from "../../src/core/schema.js";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const REFERENCE = join(ROOT, "examples/reference-provider/provider.mjs");
const MOCK = join(ROOT, "dist/src/mocks/provider.js");
const CONFIG = ["--config-file", join(ROOT, "examples/reference-provider/valid-config.json")];
const temp = useTempDirs();

describe("awp-conformance fuzz --protocol provider --against OTHER", () => {
  it("finds where the reference blocks and a mock that never blocks does not, shrinks it, and saves a replay file that runs both", async () => {
    const out = temp();
    // Seed 1 draws a tool.before call of the configured example_tool with block admitted as case 17.
    const result = await runCli(["fuzz", "--protocol", "provider", "--fuzz-runs", "20", "--seed", "1", ...CONFIG, "--against", MOCK, "--against-arg=--fault", "--against-arg=wrong-decision", "--out", out, "--reporter", "json", "--reporter", "junit", "--quiet", REFERENCE]);
    expect(result.code, result.stderr).toBe(1);
    const report = readReport(out);
    expect(kitSchema("report.schema.json")(report)).toBe(true);
    // The reference's own clause verdict stands; the difference is a finding of its own kind.
    expect(report.summary.verdict).toBe("conformant");
    const differences = report.differential?.differences ?? [];
    expect(differences).toHaveLength(1);
    expect(report.differential?.againstFailed).toEqual([]);
    const [d] = differences;
    expect(d).toMatchObject({ id: "provider/differential/invoke-effects", aspects: ["effects"], shrunk: true, supports: "both", candidate: { answer: "ok (effects [block])", clauses: [] }, against: { answer: "ok (effects [])", clauses: [] } });
    const request = JSON.parse(d?.request.text ?? "{}") as { event: { name: string; tool: { native_name: string; input: unknown } }; allowed_effects: string[] };
    expect(request.event).toMatchObject({ name: "tool.before", tool: { native_name: "example_tool", input: {} } });
    expect(request.allowed_effects).toContain("block");
    expect(readFileSync(join(out, "report.xml"), "utf8")).toMatch(/<failure message="differ in effects on [^"]*" type="difference">/);
    // The replay file runs both sides: still different against the mock, no longer against the reference itself.
    const file = d?.file ?? "";
    expect(kitSchema("replay.schema.json")(JSON.parse(readFileSync(file, "utf8")))).toBe(true);
    expect(d?.reproduce).toContain(`--against ${MOCK} --against-arg=--fault --against-arg=wrong-decision`);
    const still = await runCli(["replay", file, "--against", MOCK, "--against-arg=--fault", "--against-arg=wrong-decision", REFERENCE]);
    expect([still.code, still.stdout]).toEqual([1, "STILL DIFFERENT (effects)\n  candidate: ok (effects [block])\n  against:   ok (effects [])\n"]);
    const fixed = await runCli(["replay", file, "--against", REFERENCE, REFERENCE]);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toMatch(/^NO LONGER DIFFERENT: both providers answer the same/);
    // The other side's recorded command runs only when named or with --yes.
    const unnamed = await runCli(["replay", file, REFERENCE]);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(/names the other provider's command .* give it with --against OTHER/);
  });

  it("finds nothing when the reference runs against itself", async () => {
    const out = temp();
    const result = await runCli(["fuzz", "--protocol", "provider", "--fuzz-runs", "12", "--seed", "1", ...CONFIG, "--against", REFERENCE, "--out", out, "--reporter", "json", "--quiet", REFERENCE]);
    expect(result.code, result.stderr).toBe(0);
    const report = readReport(out);
    expect(report.differential).toMatchObject({ against: [REFERENCE], cases: 12, againstFailed: [], differences: [] });
    expect(report.notes.join("\n")).toMatch(/12 cases answered by both, no difference a host would act on/);
  });
});
