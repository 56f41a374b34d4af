import type { Argv } from "yargs";
import { KitError } from "../../core/errors.js";
import { exitCodeFor } from "../../core/report/judge.js";
import { readRunTimeout } from "../agent-options.js";
import { colorWanted, list } from "../args.js";
import { resolveCandidate } from "../candidate.js";
import { Progress } from "../progress.js";
import { outputArgs, reportFinisher, withReportOptions, type ReportArgs } from "../report-options.js";
import { SPAWNER_DESCRIBE, SPAWNER_MODES } from "../../runner/native/modes.js";
import { handleInterrupts } from "../../core/interrupt.js";
import { DEFAULT_POLICY_TEST_JOBS as DEFAULT_JOBS } from "../../runner/provider/jobs.js";

function positive(value: unknown, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) throw new KitError("usage", `${flag} must be a positive integer`);
  return value;
}

/** CASES... PROVIDER [-- ARGS]: the last positional is the Provider, everything after -- its arguments. */
function splitPositionals(a: { paths?: unknown; "--"?: unknown }): { files: string[]; provider: string; rest: string[] } {
  const paths = (Array.isArray(a.paths) ? a.paths : []).map(String);
  const rest = ((a["--"] as unknown[] | undefined) ?? []).map(String);
  const provider = paths.pop();
  if (provider === undefined || paths.length === 0) throw new KitError("usage", "give one or more case files, then the provider executable: policy-test CASES... PROVIDER [-- ARGS]");
  return { files: paths, provider, rest };
}

/** `awp-conformance policy-test CASES... PROVIDER`: runs a Provider on decisions written as cases. */
export function policyTestCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "policy-test <paths..>",
    "provider authors: check a Provider's decisions against case files (CASES... PROVIDER [-- ARGS]); every response must also pass the protocol checks of run",
    (c) =>
      withReportOptions(
        c
          .positional("paths", { type: "string", array: true, describe: "case files (YAML, or JSON by a .json name), then the provider executable" })
          .option("config-json", { type: "string", describe: "the configuration of cases that give none, as JSON (default {})" })
          .option("config-file", { type: "string", describe: "file holding the configuration of cases that give none" })
          .option("case", { type: "string", array: true, describe: "only cases whose name matches PATTERN (* within a /-segment, ** across; a table's name selects its rows)" })
          .option("spawner", { type: "string", choices: [...SPAWNER_MODES], describe: SPAWNER_DESCRIBE })
          .option("jobs", { type: "number", describe: `cases run at once (default ${DEFAULT_JOBS})` })
          .option("timeout", { type: "number", describe: "deadline of every call in ms (default budget + 1000)" })
          .option("budget", { type: "number", describe: "budget_ms sent with invocations (default 5000)" })
          .option("run-timeout", { type: "number", describe: "bound of the whole run in ms (default 900000)" })
          .option("out", { type: "string", describe: "report folder (default reports/policy-test)" })
          .option("reporter", { type: "string", array: true, default: ["console", "json"], describe: "console,json,junit,tap,markdown,html,badge,github: one entry per case" }),
      ),
    async (a) => {
      // Case files, the runner, the checks and the reporters load only for this command.
      const [{ readCaseFile }, { mergeCases }, { policyReport, selectCases }, { attachReproductions }, { recordPolicyCases }, { checkReporters, emitReport }, { readProviderConfigs }] = await Promise.all([
        import("../../core/provider/policy-file.js"), import("../../core/provider/policy-cases.js"), import("../../core/provider/policy-report.js"),
        import("../../runner/provider/reproduce.js"), import("../../runner/provider/policy.js"), import("../output.js"), import("../provider-options.js"),
      ]);
      const { files, provider, rest } = splitPositionals(a);
      const reporters = list(a.reporter);
      checkReporters(reporters);
      const finisher = reportFinisher(a as ReportArgs);
      const budgetMs = positive(a.budget, "--budget", 5000);
      const timeoutMs = positive(a.timeout, "--timeout", budgetMs + 1000);
      const jobs = positive(a.jobs, "--jobs", DEFAULT_JOBS);
      const runTimeoutMs = readRunTimeout(a.runTimeout as number | undefined);
      const configs = readProviderConfigs({ ...(a.configJson !== undefined ? { configJson: a.configJson } : {}), ...(a.configFile !== undefined ? { configFile: a.configFile } : {}) });
      const config = configs.config ?? { value: {}, document: "{}" };
      const all = mergeCases(files.map(readCaseFile));
      const patterns = list(a.case);
      const cases = selectCases(all, patterns);
      if (cases.length === 0) throw new KitError("usage", `--case ${patterns.join(", ")} matches no case of ${files.join(", ")}`);
      const argv = [resolveCandidate(provider), ...rest];
      const progress = Progress.forStderr(a.quiet as boolean | undefined);
      const startedAt = new Date();
      // Interrupted (Ctrl-C, SIGTERM), the cases sent so far are judged and the report written.
      handleInterrupts();
      let record;
      try {
        record = await recordPolicyCases({
          argv, cases, config, budgetMs, timeoutMs, jobs,
          ...(runTimeoutMs !== undefined ? { runTimeoutMs } : {}),
          onExchange: (e) => progress.finished(`policy-test ${e.scenario} answered in ${(e.outcome.durationMs / 1000).toFixed(1)} s`),
        });
      } finally {
        progress.done();
      }
      const outDir = (a.out as string | undefined) ?? "reports/policy-test";
      const options = { budgetMs, timeoutMs, jobs, configGiven: configs.config !== undefined };
      const report = finisher.finish(policyReport({ argv, files, record, startedAt, endedAt: new Date(), options, selection: patterns, deselected: all.length - cases.length }));
      attachReproductions(report, record.transcript, outDir);
      await emitReport(report, { reporters, outDir, color: colorWanted(), ...outputArgs(a as ReportArgs) });
      setCode(exitCodeFor(report.summary));
    },
  );
}
