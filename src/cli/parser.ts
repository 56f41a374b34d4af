/**
 * The kit's command line: every command, the options every command takes (--quiet, -h), the
 * pre-flight checks that run before any handler (preflight.ts), and the usage errors of yargs
 * turned into KitErrors with a "did you mean". program.ts parses with it; tests parse in-process.
 */
import yargs, { type Argv } from "yargs";
import { KitError } from "../core/errors.js";
import { didYouMean } from "../core/nearest.js";
import { kitVersion } from "../core/paths.js";
import { kebabCase, oneValueEach } from "./args.js";
import { walkCommands, type CommandDefiner } from "./command-walk.js";
import { admitCommand } from "./commands/admit.js";
import { checkCommand, fixtureCommand, recordCommand } from "./commands/agent.js";
import { fuzzCommand, replayCommand } from "./commands/fuzz.js";
import { initCommand } from "./commands/init.js";
import { checkLaunchCommand } from "./commands/host.js";
import { diffCommand } from "./commands/diff.js";
import { matrixCommand } from "./commands/matrix.js";
import { mergeCommand } from "./commands/merge.js";
import { digestCommand, listCommand } from "./commands/misc.js";
import { mockCommand } from "./commands/mock.js";
import { policyTestCommand } from "./commands/policy-test.js";
import { reportCommand } from "./commands/report.js";
import { runCommandDefinition } from "./commands/run.js";
import { EXIT_CODES_HELP } from "./exit-codes.js";
import { namesReports, preflight } from "./preflight.js";
import { findConfig } from "../config/find.js";

/** Whether `run` reads a configuration file: --config FILE, or one found upward (not --no-config). */
function configApplies(option: unknown): boolean {
  if (option === false) return false;
  return typeof option === "string" || findConfig() !== undefined;
}

/** Every command, in the order help lists them. */
export const COMMANDS: readonly CommandDefiner[] = [
  runCommandDefinition, checkCommand, checkLaunchCommand, recordCommand, fixtureCommand, policyTestCommand, fuzzCommand,
  replayCommand, reportCommand, diffCommand, mergeCommand, matrixCommand, admitCommand, listCommand, digestCommand, mockCommand, initCommand,
];

const COMMAND_NAMES = ["run", "init", "policy-test", "admit", "fuzz", "replay", "merge", "matrix", "check", "check-launch", "record", "fixture", "report", "diff", "list", "digest", "mock", "help"];

/** Options every command takes. */
const GLOBAL_OPTIONS = ["help", "h", "version", "quiet"];

/** `help CMD` is `CMD --help`; `help` alone, `--help`. */
export function helpRewrite(argv: readonly string[]): string[] {
  if (argv[0] !== "help") return [...argv];
  return [...argv.slice(1), "--help"];
}

/** Whether the command line asks for help (which renders the wrapped help text). */
export function wantsHelp(argv: readonly string[]): boolean {
  const dashes = argv.indexOf("--");
  const options = dashes === -1 ? argv : argv.slice(0, dashes);
  return options.includes("--help") || options.includes("-h");
}

/** "Unknown argument: x" (or "Unknown arguments: x, y") with the nearest command or flag of `command`. */
export function explainUnknown(message: string, argv: readonly string[]): string | undefined {
  const match = /^Unknown arguments?: (.+)$/.exec(message);
  if (match === null) return undefined;
  const listed = (match[1] ?? "").split(", ");
  // yargs lists a flag twice (kebab-case and camelCase); --no-x as x.
  const unknown = listed.filter((name) => name === kebabCase(name) || !listed.includes(kebabCase(name)));
  const command = argv.find((a) => !a.startsWith("-"));
  const first = unknown[0] ?? "";
  if (command !== undefined && first === command && !COMMAND_NAMES.includes(command)) {
    return `unknown command ${command}${didYouMean(command, COMMAND_NAMES)}; the commands: ${COMMAND_NAMES.join(", ")}`;
  }
  const declared = walkCommands(COMMANDS).find((c) => c.name === command);
  const flags = [...GLOBAL_OPTIONS, ...(declared?.options ?? []).filter((o) => !o.positional).flatMap((o) => [o.name, ...o.aliases])];
  const show = (name: string): string => (name.length === 1 ? `-${name}` : argv.includes(`--no-${name}`) && !argv.some((a) => a.startsWith(`--${name}`)) ? `--no-${name}` : `--${name}`);
  const parts = unknown.map((name) => `${show(name)}${didYouMean(name, flags, show)}`);
  return `unknown ${parts.length === 1 ? "option" : "options"} ${parts.join(", ")}${command !== undefined ? `; awp-conformance ${command} --help lists them` : ""}`;
}

/** The configured parser of `argv` (not yet parsed): commands set the exit code through setCode. */
export function kitParser(given: readonly string[], setCode: (code: number) => void, configure: (y: Argv) => Argv = (y) => y): Argv {
  const argv = helpRewrite(given);
  let y = yargs(argv).scriptName("awp-conformance").version(kitVersion()).parserConfiguration({ "populate--": true, "greedy-arrays": false }).strict();
  y = configure(y);
  for (const define of COMMANDS) y = define(y, setCode);
  return y
    .command("help [command]", "print the help of a command (the same as awp-conformance COMMAND --help)", (c) => c.positional("command", { type: "string", describe: "the command" }), () => undefined)
    .option("quiet", { type: "boolean", global: true, describe: "no progress line (every command takes it; it changes nothing where nothing is shown)" })
    .demandCommand(1, `give a command: ${COMMAND_NAMES.filter((c) => c !== "help").join(", ")}`)
    .check(oneValueEach, true)
    // Before any handler runs, and after yargs validated the options: nothing launched yet.
    .middleware((parsed) => {
      const command = String(parsed._[0] ?? "");
      const argv = parsed as Record<string, unknown>;
      const context = { deferTargets: command === "run" && configApplies(parsed.config) };
      if (!namesReports(command, argv)) {
        preflight(command, argv, context);
        return;
      }
      // A saved report's reader (strict JSON, the report schema) loads only for a command line that names one.
      return import("./preflight-reports.js").then(({ checkReportInputs }) => void preflight(command, argv, { ...context, reports: checkReportInputs }));
    })
    .fail((message, error) => {
      if (error) throw error;
      throw new KitError("usage", explainUnknown(message, argv) ?? message);
    })
    .help()
    .alias("h", "help")
    .epilog(EXIT_CODES_HELP);
}
