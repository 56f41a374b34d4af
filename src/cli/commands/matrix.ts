import type { Argv } from "yargs";
import { DEFAULT_RUN_TIMEOUT_MS } from "../../core/run-timeout.js";
import { configOptionOf, withConfigOption } from "../../config/options.js";
import { runArgsOf } from "./run.js";

const strings = (value: unknown): string[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);

const EPILOG = [
  "Inputs (any mix; the candidates run one after another, or --jobs at a time):",
  "  --candidate NAME=PATH    a program to run into <out>/NAME/; its arguments",
  "                           with --candidate-arg NAME=ARG (repeat, in order),",
  "                           its own run options with --candidate-option",
  "                           NAME=OPTION (e.g. mock=--config-file=FILE)",
  "  --candidate NAME         the configuration file's candidate of that name",
  "  no --candidate           every candidate of the configuration file",
  "                           (--protocol keeps one protocol's), unless report",
  "                           files are given and --config is not",
  "  REPORT...                saved report.json files (or their folders),",
  "                           each named after its folder",
  "Options given once (--protocol, --clause, --timeout...) and any run option",
  "given as --candidate-option '*=OPTION' apply to every candidate; a",
  "candidate's own --candidate-option NAME=OPTION replaces them.",
  "",
  "Written to --out: matrix.html (self-contained, publish the folder as it is),",
  "matrix.md, matrix.json (schemas/matrix.schema.json), and per implementation",
  "NAME/report.json, report.html, badge.svg and badge.json. Reports of",
  "different protocols go in separate sections (their clauses differ).",
  "",
  "The matrix is a view: each implementation's verdict is in the page, not in",
  "the exit code. Exit codes:",
  "  0  the matrix was written and every implementation has a report",
  "  2  usage error or a file that is not a report (nothing ran); or a",
  "     candidate could not start for a usage or configuration reason (the",
  "     matrix is written, its column says why)",
  "  3  the kit failed on a candidate (the matrix is written, its column says why)",
  "  130, 143  interrupted: the candidates not started show as not run",
  "",
  "Examples:",
  "  awp-conformance matrix reports/*/report.json",
  "  awp-conformance matrix --protocol provider \\",
  "    --config-file examples/reference-provider/valid-config.json \\",
  "    --candidate ref=examples/reference-provider/provider.mjs \\",
  "    --candidate mock=dist/src/mocks/provider.js \\",
  "    --candidate-arg mock=--fault --candidate-arg mock=wrong-digest",
].join("\n");

/** `awp-conformance matrix`: several implementations against every clause, in one page. */
export function matrixCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "matrix [reports..]",
    "compare several implementations clause by clause: run candidates and/or read saved report.json files, write matrix.html, matrix.md, matrix.json and a badge each",
    (c) =>
      withConfigOption(
        c
          .positional("reports", { type: "string", array: true, describe: "saved report.json files (or report folders), e.g. reports/*/report.json" })
          .option("candidate", { type: "string", array: true, describe: "NAME=PATH: a candidate to run (repeat for each); NAME alone: the configuration file's candidate" })
          .option("candidate-arg", { type: "string", array: true, describe: "NAME=ARG: an argument for that candidate's program (repeat, in order; ARG may start with a dash)" })
          .option("candidate-option", { type: "string", array: true, describe: "NAME=OPTION: a run option for that candidate only, as run takes it (--config-file=FILE, --mode=stream-json, --protocol=provider...); *=OPTION: for every candidate (any option of run); repeat" })
          .option("out", { type: "string", describe: "folder for the matrix and each implementation's folder (default reports/matrix/)" })
          .option("jobs", { type: "number", describe: "candidates run at a time (default 1; progress lines are off above 1). A candidate's own --jobs is --candidate-option NAME=--jobs=N" })
          .option("protocol", { type: "string", choices: ["provider", "agent-cli"], describe: "every candidate given by path checks this contract; with the configuration file, keeps its candidates of this protocol" })
          .option("config-json", { type: "string", describe: "provider: the valid configuration, as JSON, for every candidate" })
          .option("config-file", { type: "string", describe: "provider: file holding the valid configuration, for every candidate" })
          .option("invalid-config-file", { type: "string", describe: "provider: configurations every candidate must reject" })
          .option("mode", { type: "string", describe: "agent-cli: the mode of every candidate (as run --mode)" })
          .option("clause", { type: "string", array: true, describe: "only clauses matching PATTERN, for every candidate" })
          .option("skip", { type: "string", array: true, describe: "leave out clauses matching PATTERN, for every candidate" })
          .option("level", { type: "string", choices: ["must", "should", "all"], describe: "which levels count for each candidate's verdict (default must)" })
          .option("timeout", { type: "number", describe: "provider: deadline of every call in ms" })
          .option("budget", { type: "number", describe: "provider: budget_ms sent with invocations" })
          .option("run-timeout", { type: "number", describe: `bound of each candidate's run in ms (default ${DEFAULT_RUN_TIMEOUT_MS})` })
          .option("docs-url", { type: "string", describe: "where you host docs/clauses.md; the implementations' reports link clauses there" })
          .epilog(EPILOG),
      ),
    async (a) => {
      // The runner, the reporters and the configuration loader load only when the command runs.
      const { runMatrix } = await import("../matrix.js");
      const shared = runArgsOf({ ...a, candidate: undefined, args: undefined, "--": [], jobs: undefined, out: undefined, reporter: undefined });
      setCode(
        await runMatrix({
          reports: [...strings(a.reports), ...strings(a["--"])],
          candidates: strings(a.candidate),
          candidateArgs: strings(a.candidateArg),
          candidateOptions: strings(a.candidateOption),
          shared,
          ...(a.out !== undefined ? { out: a.out } : {}),
          ...(a.jobs !== undefined ? { jobs: a.jobs } : {}),
          ...(a.docsUrl !== undefined ? { docsUrl: a.docsUrl } : {}),
          config: configOptionOf(a as { config?: unknown }),
        }),
      );
    },
  );
}
