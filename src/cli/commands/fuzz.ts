import type { Argv } from "yargs";
import { exitCodeFor } from "../../core/report/judge.js";
import { differentialExitCode } from "../../core/report/differential.js";
import type { Protocol } from "../../core/report/types.js";
import { withLaunchOptions } from "../agent-options.js";
import { candidateOf, colorWanted, list } from "../args.js";
import { outputArgs, reportFinisher, withReportOptions, type ReportArgs } from "../report-options.js";
import { handleInterrupts } from "../../core/interrupt.js";

export function withFuzzOptions<T>(y: Argv<T>): Argv<T> {
  return y
    .option("fuzz-runs", { type: "number", describe: "generated cases (provider requests or agent-cli sessions), --jobs of them at once (default 2 for fuzzing); \`fuzz\` with neither --fuzz-runs nor --fuzz-time runs 100 provider requests or 10 agent-cli sessions; \`run\` fuzzes only when one of them is given" })
    .option("fuzz-time", { type: "number", describe: "time box in seconds: generate cases until then (no case starts after it); with --fuzz-runs too, whichever ends first (--shard needs --fuzz-runs: shards split a fixed number of cases)" })
    .option("seed", { type: "number", describe: "fast-check seed: the same seed gives the same cases (default: random, printed)" })
    .option("corpus", { type: "string", describe: "folder of saved cases: replayed first, then every failing or new case (new clause outcome or coverage bucket) is added; shards may share it" })
    .option("shard", { type: "string", describe: "K/N: run the K-th of N parts (provider units, agent-cli scenarios, a slice of the fuzz cases of --seed); combine the reports with `awp-conformance merge`" }) as Argv<T>;
}

export function fuzzCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "fuzz [candidate] [args..]",
    "throw property-generated and hostile messages at a candidate; failures are shrunk and saved as replay files",
    (c) =>
      withReportOptions(withFuzzOptions(
        withLaunchOptions(
          c
            .positional("candidate", { type: "string", describe: "path to the candidate executable (a bare name is looked up on PATH)" })
            .positional("args", { type: "string", array: true, describe: "arguments for the candidate (put -- before ones that start with a dash)" })
            .option("protocol", { type: "string", choices: ["provider", "agent-cli"], demandOption: true, describe: "which contract to fuzz" })
            .option("config-json", { type: "string", describe: "provider: the valid configuration, as JSON" })
            .option("config-file", { type: "string", describe: "provider: file holding the valid configuration" })
            .option("budget", { type: "number", describe: "provider: budget_ms of generated invocations (default 5000)" })
            .option("timeout", { type: "number", describe: "provider: deadline of every call in ms" })
            .option("against", { type: "string", describe: "provider: differential fuzzing: a second provider (path, or a name on PATH); every generated case and the fixed describe and validate_config calls go to both, and each difference in what a host would act on is shrunk and saved as a replay file that runs both. Exit 1 when they differ" })
            .option("against-arg", { type: "string", array: true, nargs: 1, describe: "an argument for the --against provider, repeated in order (write --against-arg=--flag for one that starts with a dash); the candidate's own arguments still go after the candidate (or after --)" })
            .option("against-config-json", { type: "string", describe: "the --against provider's own valid configuration, as JSON (default: --config-json/--config-file, which apply to both)" })
            .option("against-config-file", { type: "string", describe: "file holding the --against provider's own valid configuration" })
            .option("out", { type: "string", describe: "report folder (default reports/); replay files go to <out>/replays" })
            .option("reporter", { type: "string", array: true, default: ["console", "json"], describe: "console,json,junit,tap,markdown,html,badge (as for run)" }),
        ),
      )),
    async (a) => {
      // The fuzzers (fast-check, json-schema-faker), the runner and the reporters load only for this command.
      const [{ fuzzBudget, fuzzOnlyReport, fuzzPhase, shardOf }, { secretsOf: providerSecrets }, { checkReporters, emitReport }, { readProviderConfigs }, { budgetText }] = await Promise.all([
        import("../fuzz.js"), import("../../core/provider/config.js"), import("../output.js"), import("../provider-options.js"), import("../../fuzz/budget.js"),
      ]);
      const { againstConfig } = await import("../fuzz-against.js");
      const { candidate, rest } = candidateOf(a);
      const protocol = a.protocol as Protocol;
      const args = { ...(a as unknown as Record<string, unknown>), ...(candidate !== undefined ? { candidate } : {}), rest, clause: [], skip: [], scenario: [], reporter: list(a.reporter), color: colorWanted() } as Parameters<typeof fuzzPhase>[1];
      checkReporters(list(a.reporter));
      const finisher = reportFinisher(a as ReportArgs);
      const budget = fuzzBudget(args, protocol === "provider" ? 100 : 10);
      const outDir = (a.out as string | undefined) ?? "reports";
      const slice = budget.cases === undefined ? "" : `, shard ${String(args.shard)}: ${budget.cases.to > budget.cases.from ? `cases ${budget.cases.from}..${budget.cases.to - 1}` : "no case (fewer runs than shards)"}`;
      process.stdout.write(`fuzzing ${protocol} with seed ${budget.seed} (${budgetText(budget)}${slice})\n`);
      const startedAt = new Date();
      // Interrupted (Ctrl-C, SIGTERM), the cases run so far are reported (core/interrupt.ts).
      handleInterrupts();
      const outcome = await fuzzPhase(protocol, args, budget, outDir);
      const secrets = protocol === "provider" ? [...providerSecrets(readProviderConfigs(args).config?.value ?? {}), ...(args.against !== undefined ? providerSecrets(againstConfig(args, { value: {}, document: "{}" }).value) : [])] : [];
      const shard = shardOf(args);
      const fuzzed = fuzzOnlyReport(protocol, [candidate ?? "(from env)", ...rest], outcome, startedAt, secrets);
      const report = finisher.finish(shard === undefined ? fuzzed : { ...fuzzed, shard: { index: shard.index, count: shard.count, ...(budget.cases !== undefined ? { cases: budget.cases } : {}), elsewhere: 0 } });
      await emitReport(report, { reporters: list(a.reporter), outDir, color: colorWanted(), ...outputArgs(a as ReportArgs) });
      // No case run: every fuzzed clause is a skip, so the verdict is incomplete (4) or nothing-judged (1), never 0.
      // --against: any difference between the two providers makes it 1 (core/report/differential.ts).
      setCode(differentialExitCode(exitCodeFor(report.summary), report));
    },
  );
}

export function replayCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "replay <file> [candidate] [args..]",
    "rerun exactly one saved fuzz case; prints FIXED or STILL FAILING. Give the candidate to replay against; the command recorded in the file runs only with --yes (or after a y on a terminal)",
    (c) =>
      c
        .positional("file", { type: "string", demandOption: true, describe: "a replay file (<out>/replays/*.json of a fuzz run)" })
        .positional("candidate", { type: "string", describe: "the candidate to replay against (default: the command the file names, with --yes)" })
        .positional("args", { type: "string", array: true, describe: "arguments for the candidate (put -- before ones that start with a dash)" })
        .option("yes", { type: "boolean", default: false, describe: "run the command (and environment values) the replay file names without asking: only for files you trust" })
        .option("against", { type: "string", describe: "a difference's replay file (fuzz --against): the other provider to run it on (default: the one the file names, with --yes); prints STILL DIFFERENT (exit 1) or NO LONGER DIFFERENT (exit 0)" })
        .option("against-arg", { type: "string", array: true, nargs: 1, describe: "an argument for the --against provider, repeated in order (--against-arg=--flag for one that starts with a dash)" }),
    async (a) => {
      const [{ readReplay }, { consentedArgv, replayCase }, { terminalConsent }] = await Promise.all([import("../../fuzz/replay.js"), import("../../fuzz/replay-run.js"), import("../confirm.js")]);
      const file = readReplay(a.file);
      const { candidate, rest } = candidateOf(a);
      const argv = await consentedArgv(file, a.file, candidate !== undefined ? [candidate, ...rest] : undefined, terminalConsent(a.yes));
      if (file.against !== undefined || a.against !== undefined) {
        const { replayDifferenceCommand } = await import("../replay-against.js");
        setCode(await replayDifferenceCommand(file, a.file, argv, a.against !== undefined ? [a.against, ...(a.againstArg ?? []).map(String)] : undefined, terminalConsent(a.yes)));
        return;
      }
      const findings = await replayCase(file, argv);
      const still = findings.filter((f) => f.clause === file.clause);
      if (still.length === 0) {
        process.stdout.write(`FIXED: ${file.clause} no longer fails (${file.protocol} case from ${a.file})\n`);
        setCode(0);
        return;
      }
      process.stdout.write(`STILL FAILING: ${file.clause}\n  ${still[0]?.message}\n${still[0]?.seen !== undefined ? `  seen: ${still[0].seen}\n` : ""}`);
      setCode(1);
    },
  );
}
