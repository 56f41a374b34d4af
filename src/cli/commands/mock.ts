import type { Argv } from "yargs";

/**
 * `mock` in the kit's help. src/cli/main.ts sends `awp-conformance mock ...` to the mock before
 * yargs loads; this handler is reached only when other options come before the command.
 */
export function mockCommand(y: Argv): Argv {
  return y.command(
    "mock",
    "a candidate that misbehaves on purpose, for testing a host: mock agent-cli|provider [--fault NAME[:k=v,...]]... [--record FILE]; mock --list (docs/mocks.md)",
    (c) => c.strict(false),
    async () => {
      const { mockCli } = await import("../../mocks/cli.js");
      await mockCli(process.argv.slice(process.argv.indexOf("mock") + 1));
    },
  );
}
