import type { Argv } from "yargs";
import { KitError } from "../../core/errors.js";

/**
 * `mock` in the kit's help. src/cli/main.ts sends `awp-conformance mock ...` to the mock before
 * yargs or the kit loads (the mock owns its signals and must start fast); this handler is
 * reached only when something comes before the command, which the mock does not take.
 */
export function mockCommand(y: Argv): Argv {
  return y.command(
    "mock",
    "a candidate that misbehaves on purpose, for testing a host: mock agent-cli|provider [--fault NAME[:k=v,...]]... [--record FILE]; mock --list (docs/mocks.md)",
    (c) => c.strict(false),
    () => {
      throw new KitError("usage", "give mock as the first argument: awp-conformance mock agent-cli|provider [--fault NAME]... (awp-conformance mock --help)");
    },
  );
}
