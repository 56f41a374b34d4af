import { join } from "node:path";
import { expect, it } from "vitest";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const temp = useTempDirs();

it("a provider that rejects the default configuration {}: every skip says what to give, one reason per cause", async () => {
  const out = temp();
  await runCli(["run", "--protocol", "provider", "--out", out, "--reporter", "json", join(ROOT, "examples/reference-provider/provider.mjs")]);
  const report = readReport(out);
  const unjudged = report.clauses.filter((c) => c.status === "skip" || c.status === "not-applicable");
  const byReason = new Map<string, string[]>();
  for (const c of unjudged) byReason.set(c.reason ?? "", [...(byReason.get(c.reason ?? "") ?? []), c.id]);
  const config = "the default configuration {} was rejected by validate_config (error_code invalid_config): give a configuration the Provider accepts with --config-json or --config-file";
  const invalid = "no --invalid-config-file was given: add a file of configurations the Provider must reject (a JSON array of objects)";
  expect([...byReason.keys()].sort()).toEqual([invalid, config].sort());
  expect(byReason.get(invalid)).toEqual(["provider/validate-config/rejects-invalid-config"]);
  // Nothing that needed an invocation passes as not applicable: the effect clauses are skipped for the same cause.
  expect(byReason.get(config)).toContain("provider/invoke/echoes-input-digest");
  expect(byReason.get(config)).toContain("provider/invoke/digest-dialects");
  expect(byReason.get(config)).toContain("provider/robustness/rejects-excessive-depth");
  expect(unjudged.filter((c) => c.status === "not-applicable")).toEqual([]);
});
