/** The command-line side of the configuration file: --config FILE and --no-config (loaded with every command; no heavy imports). */
import type { Argv } from "yargs";

export function withConfigOption<T>(y: Argv<T>): Argv<T> {
  return y.option("config", {
    type: "string",
    describe: "configuration file (default: awp-conformance.config.yaml, .yml or .json in the working folder or the nearest one above it); --no-config ignores one. Its candidates run when none is given (run NAME picks one); flags given override its keys",
  }) as Argv<T>;
}

/** --config as parsed: a path, false for --no-config, or undefined. */
export function configOptionOf(a: { config?: unknown }): string | false | undefined {
  if (a.config === false) return false;
  return typeof a.config === "string" ? a.config : undefined;
}
