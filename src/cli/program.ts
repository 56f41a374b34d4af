import { hideBin } from "yargs/helpers";
import type { Argv } from "yargs";
import { KitError } from "../core/errors.js";
import { interrupt, interrupted, interruptExitCode, INTERRUPT_GRACE_MS, type InterruptSignal } from "../core/interrupt.js";
import { closeLauncher, useLauncher } from "../runner/launcher/client.js";
import { chooseSpawner, closeSpawner } from "../runner/native/select.js";
import { earlySpawnerMode } from "./early-launchers.js";
import { applyKitV8Policy } from "./v8-policy.js";
import { helpRewrite, kitParser, wantsHelp } from "./parser.js";

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
  // yargs renders a command's whole help before running it, cached for printing it should the
  // handler fail: the kit's fail() throws instead, so the help is never printed. Wrapped to
  // the terminal it cost about 80 ms of every start, and unwrapped still about 60 ms (measuring
  // every cell's width). Only --help (-h, help CMD) prints it, rendered then.
  const unwrapped = (y: Argv): Argv => {
    if (wantsHelp(helpRewrite(argv))) return y;
    const plain = y.wrap(null);
    skipHelpCache(plain);
    return plain;
  };
  await kitParser(argv, setCode, unwrapped).parseAsync();
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
chooseSpawner(earlySpawnerMode(process.argv));
main(hideBin(process.argv))
  .finally(() => {
    closeLauncher();
    closeSpawner();
  })
  .then(
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
