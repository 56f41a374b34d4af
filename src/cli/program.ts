import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { KitError } from "../core/errors.js";
import { interrupt, interrupted, interruptExitCode, INTERRUPT_GRACE_MS, type InterruptSignal } from "../core/interrupt.js";
import { kitVersion } from "../core/paths.js";
import { closeLauncher, useLauncher } from "../runner/launcher/client.js";
import { applyKitV8Policy } from "./v8-policy.js";
import { oneValueEach } from "./args.js";
import { admitCommand } from "./commands/admit.js";
import { checkCommand, fixtureCommand, recordCommand } from "./commands/agent.js";
import { checkLaunchCommand } from "./commands/host.js";
import { digestCommand, listCommand } from "./commands/misc.js";
import { fuzzCommand, replayCommand } from "./commands/fuzz.js";
import { initCommand } from "./commands/init.js";
import { policyTestCommand } from "./commands/policy-test.js";
import { mergeCommand } from "./commands/merge.js";
import { mockCommand } from "./commands/mock.js";
import { reportCommand } from "./commands/report.js";
import { runCommandDefinition } from "./commands/run.js";
import { EXIT_CODES_HELP } from "./exit-codes.js";

/** yargs' internal usage object, whose cacheHelpMessage() renders the help (yargs 18; not in its typings). */
interface WithUsage {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/** Makes yargs skip rendering a command's help before running it (it keeps working if yargs changes: it renders, as before). */
function skipHelpCache(y: unknown): void {
  const usage = (y as WithUsage).getInternalMethods?.().getUsageInstance?.();
  if (usage !== undefined && typeof usage.cacheHelpMessage === "function") usage.cacheHelpMessage = () => undefined;
}

async function main(argv: string[]): Promise<number> {
  let code = 0;
  const setCode = (value: number): void => {
    code = value;
  };
  let y = yargs(argv).scriptName("awp-conformance").version(kitVersion()).parserConfiguration({ "populate--": true, "greedy-arrays": false }).strict();
  // yargs renders a command's whole help before running it, cached for printing it should the
  // handler fail: the kit's fail() below throws instead, so the help is never printed. Wrapped to
  // the terminal it cost about 80 ms of every start, and unwrapped still about 60 ms (measuring
  // every cell's width). Only --help prints it, rendered then.
  if (!argv.includes("--help")) {
    y = y.wrap(null);
    skipHelpCache(y);
  }
  y = runCommandDefinition(y, setCode);
  y = checkCommand(y, setCode);
  y = checkLaunchCommand(y, setCode);
  y = recordCommand(y);
  y = fixtureCommand(y);
  y = policyTestCommand(y, setCode);
  y = fuzzCommand(y, setCode);
  y = replayCommand(y, setCode);
  y = reportCommand(y, setCode);
  y = mergeCommand(y, setCode);
  y = admitCommand(y, setCode);
  y = listCommand(y);
  y = digestCommand(y);
  y = mockCommand(y);
  y = initCommand(y, setCode);
  await y
    .demandCommand(1, "give a command: init, run, policy-test, admit, fuzz, replay, merge, check, check-launch, record, fixture, report, list, digest or mock")
    .check(oneValueEach, true)
    .fail((message, error) => {
      if (error) throw error;
      throw new KitError("usage", message);
    })
    .help()
    .epilog(EXIT_CODES_HELP)
    .parseAsync();
  return code;
}

// A closed pipe (`| head`) ends the output, not the kit with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

// Ends every candidate process group and exits with the signal's code, at once. The
// process-group module loads only with the commands that spawn; a command that spawned
// nothing has no group to end, and for one that did the import is already cached.
function exitNow(signal: InterruptSignal): void {
  void import("../runner/process-group.js").then(
    ({ killAllGroups }) => killAllGroups(),
    () => undefined,
  ).finally(() => process.exit(interruptExitCode(signal)));
}

/** A Ctrl-C can reach the kit twice (the terminal's, and the one a parent process forwards): only a later one is a second. */
const AGAIN_AFTER_MS = 1000;
let firstSignalAt: number | undefined;

// The first signal stops a run that reports (core/interrupt.ts) and it writes its report; a
// second one, or a report that takes longer than INTERRUPT_GRACE_MS, exits at once.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupt(signal)) {
      firstSignalAt = performance.now();
      process.stderr.write(`\nawp-conformance: ${signal}: stopping, ending the candidate processes and writing the report (a second ${signal === "SIGINT" ? "Ctrl-C" : signal} exits at once)\n`);
      setTimeout(() => exitNow(signal), INTERRUPT_GRACE_MS).unref();
      return;
    }
    if (firstSignalAt !== undefined && performance.now() - firstSignalAt < AGAIN_AFTER_MS) return;
    exitNow(signal);
  });
}

applyKitV8Policy();
useLauncher();
main(hideBin(process.argv)).finally(closeLauncher).then(
  (code) => {
    // Interrupted, the report is written: the exit code says the run was cut short.
    const signal = interrupted();
    process.exitCode = signal !== undefined ? interruptExitCode(signal) : code;
  },
  (error: unknown) => {
    if (error instanceof KitError) {
      process.stderr.write(`awp-conformance: ${error.message} [${error.code}]\n`);
      process.exitCode = error.exitCode;
    } else {
      process.stderr.write(`awp-conformance: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 3;
    }
  },
);
