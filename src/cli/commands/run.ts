import type { Argv } from "yargs";
import { DEFAULT_RUN_TIMEOUT_MS } from "../../core/run-timeout.js";
import { withLaunchOptions } from "../agent-options.js";
import { candidateOf, colorWanted, list } from "../args.js";
import { withFuzzOptions } from "./fuzz.js";
import { withReportOptions } from "../report-options.js";
import { withEvidenceOption } from "../evidence-option.js";
import { configOptionOf, withConfigOption } from "../../config/options.js";
import type { RunArgs } from "../run-args.js";

export function runCommandDefinition(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "run [candidate] [args..]",
    "run the conformance suite against a candidate (or every bundled example when none is given)",
    (c) => withConfigOption(withRunOptions(c)),
    async (a) => {
      // The runner, fixtures, checks and reporters load when a run starts, not with every command.
      const [{ runCommand }, { runWithConfig }] = await Promise.all([import("../run.js"), import("../../config/run.js")]);
      setCode(await runWithConfig(runArgsOf(a), runCommand, { config: configOptionOf(a as { config?: unknown }) }));
    },
  );
}

/** run's options and positionals (matrix parses each candidate's own options with them too, so an option means the same in both). */
export function withRunOptions<T>(c: Argv<T>): Argv<T> {
  return (
    withEvidenceOption(withReportOptions(withFuzzOptions(withLaunchOptions(
      c
        .positional("candidate", { type: "string", describe: "path to the candidate executable" })
        .positional("args", { type: "string", array: true, describe: "arguments for the candidate (put -- before ones that start with a dash)" })
        .option("protocol", { type: "string", choices: ["provider", "agent-cli"], describe: "which contract to check" })
        .option("config-json", { type: "string", describe: "provider: the valid configuration, as JSON" })
        .option("config-file", { type: "string", describe: "provider: file holding the valid configuration" })
        .option("invalid-config-file", { type: "string", describe: "provider: a JSON object or array of configurations the provider must reject" })
        .option("out", { type: "string", describe: "report folder (default reports/)" })
        .option("clause", { type: "string", array: true, describe: "only clauses matching PATTERN (* within a segment, ** across)" })
        .option("skip", { type: "string", array: true, describe: "leave out clauses matching PATTERN" })
        .option("timeout", { type: "number", describe: "provider: deadline of every call in ms (default budget + 1000)" })
        .option("budget-slack", { type: "number", describe: "provider: how long past the tight-budget probe's budget_ms of 1 an answer still counts as on time, at the least (default 1000; the kit's allowance for start-up, not the contract's)" })
        .option("budget", { type: "number", describe: "provider: budget_ms sent with invocations (default 5000)" })
        .option("run-timeout", { type: "number", describe: `bound of the whole run of one candidate in ms (default ${DEFAULT_RUN_TIMEOUT_MS}): then every candidate process is ended and what was judged is reported` })
        .option("baseline", { type: "string", describe: "a report.json of an earlier run of this candidate (same protocol and mode): after the run, what changed is printed and written beside the report (diff.md, diff.json), and the run exits 1 only when a clause regressed against it (known failures do not fail it; 4 incomplete, 2 and 3 keep their meaning)" })
        .option("reporter", { type: "string", array: true, default: ["console", "json"], describe: "console,json,junit,tap,markdown,html,badge,github (files: report.json, report.xml, report.tap, report.md, report.html, badge.svg + badge.json; github: annotations on stdout and the Markdown summary appended to $GITHUB_STEP_SUMMARY)" }),
    ))))
  ) as unknown as Argv<T>;
}

/** run's parsed options as RunArgs (the keys given, and the lists). */
export function runArgsOf(a: Record<string, unknown> & { candidate?: string; args?: unknown; "--"?: unknown }): RunArgs {
  const { candidate, rest } = candidateOf(a);
  const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]?: V }));
  return {
    ...optional("protocol", a.protocol as string | undefined),
    ...optional("candidate", candidate),
    rest,
    ...optional("configJson", a.configJson as string | undefined),
    ...optional("configFile", a.configFile as string | undefined),
    ...optional("invalidConfigFile", a.invalidConfigFile as string | undefined),
    ...optional("out", a.out as string | undefined),
    ...optional("timeout", a.timeout as number | undefined),
    ...optional("budgetSlack", a.budgetSlack as number | undefined),
    ...optional("budget", a.budget as number | undefined),
    ...optional("runTimeout", a.runTimeout as number | undefined),
    ...optional("mode", a.mode as string | undefined),
    ...optional("model", a.model as string | undefined),
    ...optional("env", a.env as unknown),
    ...optional("envJson", a.envJson as string | undefined),
    ...optional("argsJson", a.argsJson as string | undefined),
    ...optional("fromEnv", a.fromEnv as boolean | undefined),
    ...optional("home", a.home as string | undefined),
    ...optional("turnTimeout", a.turnTimeout as number | undefined),
    ...optional("stallTimeout", a.stallTimeout as number | undefined),
    ...optional("quietWindow", a.quietWindow as number | undefined),
    ...optional("shutdownTimeout", a.shutdownTimeout as number | undefined),
    ...optional("orderSkew", a.orderSkew as number | undefined),
    ...optional("jobs", a.jobs as number | undefined),
    ...optional("spawner", a.spawner as string | undefined),
    ...optional("outputBudget", a.outputBudget as number | undefined),
    // The managed-task bridge options (withLaunchOptions declares them).
    ...optional("managedTasksOptIn", a.managedTasksOptIn as string | undefined),
    ...optional("taskOutputLimit", a.taskOutputLimit as number | undefined),
    ...optional("taskWaitSlack", a.taskWaitSlack as number | undefined),
    ...optional("fuzzRuns", a.fuzzRuns as number | undefined),
    ...optional("fuzzTime", a.fuzzTime as number | undefined),
    ...optional("seed", a.seed as number | undefined),
    ...optional("shard", a.shard as string | undefined),
    ...optional("corpus", a.corpus as string | undefined),
    ...optional("expectedFailures", a.expectedFailures as string | undefined),
    ...optional("flaky", a.flaky as string | undefined),
    ...optional("level", a.level as string | undefined),
    ...optional("docsUrl", a.docsUrl as string | undefined),
    ...optional("quiet", a.quiet as boolean | undefined),
    ...optional("verbose", a.verbose as boolean | undefined),
    ...optional("evidence", a.evidence as string | undefined),
    ...optional("baseline", a.baseline as string | undefined),
    scenario: list(a.scenario as unknown),
    clause: list(a.clause),
    skip: list(a.skip),
    reporter: list(a.reporter),
    color: colorWanted(),
  };
}
