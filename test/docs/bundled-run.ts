/**
 * `npx awp-conformance run` with no candidate runs every bundled example (the README's first
 * command, which the doc test runs as written): each conformant, each report saying it is the
 * bundled example. This is the kit's only run of the bundled examples without a candidate.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { loadCatalogue } from "../../src/core/clauses/catalogue.js";
import { kitVersion } from "../../src/core/paths.js";
import type { RunReport } from "../../src/core/report/types.js";
import { kitSchema } from "../../src/core/schema.js";
import { ROOT } from "../integration/cli.js";

const PROTOCOL_NAME = "agent-cli/launch/protocol-name";
/** A SHOULD at a bound of the kit (1 s by default): a Node CLI on a loaded 2-core machine has been seen to take longer. */
const SHUTDOWN_LINE = "agent-cli/termination/shutdown-line";

function read(dir: string): { report: RunReport; text: string } {
  const text = readFileSync(join(dir, "report.json"), "utf8");
  return { report: JSON.parse(text) as RunReport, text };
}

export function expectBundledRun(output: string, reports: string): void {
  const validate = kitSchema("report.schema.json");
  const providerTotal = loadCatalogue("provider").length;
  expect(output).toContain(`awp-conformance ${kitVersion()} · bundled example reference-provider · provider · `);
  expect(output).toMatch(new RegExp(`^${providerTotal} clauses: ${providerTotal} passed, 0 failed — conformant$`, "m"));
  expect(output).toMatch(/^Bundled examples:\n {2}reference-provider: /m);
  expect(output).toMatch(/^digest dialect: accepts ryu and zmij; invocations bound in ryu$/m);
  const provider = read(join(reports, "reference-provider")).report;
  expect(validate(provider)).toBe(true);
  expect(provider.summary).toMatchObject({ total: providerTotal, passed: providerTotal, failed: 0, skipped: 0, incomplete: [], verdict: "conformant" });
  expect(provider.digestDialect).toEqual({ bound: "ryu", accepted: ["ryu", "zmij"] });
  expect(provider.candidate).toEqual({ argv: [join(ROOT, "examples/reference-provider/provider.mjs")], bundled: "reference-provider" });

  const catalogue = loadCatalogue("agent-cli").map((c) => c.id);
  for (const mode of ["awp-jsonl", "stream-json"] as const) {
    const { report, text } = read(join(reports, `reference-agent-cli-${mode}`));
    expect(validate(report)).toBe(true);
    expect(report.candidate.bundled).toBe(`reference-agent-cli-${mode}`);
    expect(report.mode).toBe(mode);
    expect(report.clauses.map((c) => c.id)).toEqual(catalogue);
    const notPassed = report.clauses.filter((c) => c.status !== "pass" && !(c.id === SHUTDOWN_LINE && c.status === "fail"));
    expect(notPassed.map((c) => `${c.id}: ${c.status}`)).toEqual([`${PROTOCOL_NAME}: not-applicable`]);
    expect(report.options).toMatchObject({ fixtureToken: true, managedTasks: true });
    expect(text).not.toContain("sk-awp-");
    expect(text).not.toMatch(/awp-cp-[0-9a-f]{48}/);
    // Each clause carries the time of the scenarios that judged it; the launch clauses, judged on the configuration, none.
    const untimed = report.clauses.filter((c) => c.status === "pass" && (c.id.startsWith("agent-cli/launch/") ? c.durationMs !== 0 : !((c.durationMs ?? 0) > 0)));
    expect(untimed.map((c) => `${c.id}: ${c.durationMs}`)).toEqual([]);
  }
}
