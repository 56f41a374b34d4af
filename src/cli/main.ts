#!/usr/bin/env node
// The command line's entry. `awp-conformance mock ...` goes to the mock before yargs or the
// kit is loaded, so a host configured with it starts fast (src/mocks/cli.ts); `fuzz` runs in a
// second process with start-up memory settings (tuned.ts); every other command is the kit
// (program.ts), a provider run's launcher processes started first (early-launchers.ts).
import { earlyLauncherCount } from "./early-launchers.js";
import { runTuned, settleTunedProcess, wantsTuning } from "./tuned.js";

if (process.argv[2] === "mock") {
  const { mockCli } = await import("../mocks/cli.js");
  await mockCli(process.argv.slice(3)).catch((error: unknown) => {
    process.stderr.write(`awp-conformance-mock: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
} else if (!settleTunedProcess() && wantsTuning(process.argv)) {
  runTuned(process.argv);
} else {
  const launchers = earlyLauncherCount(process.argv);
  if (launchers > 0) (await import("../runner/launcher/client.js")).startLaunchers(launchers);
  await import("./program.js");
}
