#!/usr/bin/env node
// The command line's entry. `awp-conformance mock ...` goes to the mock before yargs or the
// kit is loaded, so a host configured with it starts fast (src/mocks/cli.ts); `fuzz` runs in a
// second process with start-up memory settings (tuned.ts); every other command is the kit
// (program.ts), a provider run's launcher processes started first (early-launchers.ts).
import { earlyLauncherCount, earlySpawnerMode } from "./early-launchers.js";
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
  // A provider run's calls go through the native spawner (started now, built first if need be)
  // or, where it cannot be had, the Node launchers (started now).
  const launchers = earlyLauncherCount(process.argv);
  const spawner = earlySpawnerMode(process.argv);
  const native = launchers > 0 && spawner !== "node" ? await import("../runner/native/select.js") : undefined;
  native?.chooseSpawner(spawner);
  if (launchers > 0 && (native === undefined || native.startSpawner() === "node")) (await import("../runner/launcher/client.js")).startLaunchers(launchers);
  await import("./program.js");
}
