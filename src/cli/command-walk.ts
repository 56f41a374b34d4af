/**
 * What each command declares (its options and positionals, with their help text), read by
 * calling the command definitions on a recorder instead of yargs: for "did you mean" on an
 * unknown flag, and for the test that every option has help text. Nothing is parsed or run.
 */
import type { Argv } from "yargs";

/** A function that adds one or more commands to a yargs instance (commands/*.ts). */
export type CommandDefiner = (y: Argv, setCode: (code: number) => void) => Argv;

export interface DeclaredOption {
  name: string;
  describe: string;
  aliases: string[];
  positional: boolean;
}

export interface DeclaredCommand {
  /** The command's name ("run" of "run [candidate] [args..]"). */
  name: string;
  describe: string;
  options: DeclaredOption[];
}

interface OptionSpec {
  describe?: unknown;
  alias?: unknown;
}

const aliasesOf = (spec: OptionSpec | undefined): string[] => (Array.isArray(spec?.alias) ? spec.alias.map(String) : typeof spec?.alias === "string" ? [spec.alias] : []);

/** A stand-in for yargs that records option() and positional() and answers every other call with itself. */
function optionRecorder(options: DeclaredOption[]): Argv {
  const record = (positional: boolean) => (name: unknown, spec?: OptionSpec): unknown => {
    if (typeof name === "string") options.push({ name, describe: typeof spec?.describe === "string" ? spec.describe : "", aliases: aliasesOf(spec), positional });
    return recorder;
  };
  const recorder: Argv = new Proxy({} as Argv, {
    get: (_target, property) => (property === "option" || property === "options" ? record(false) : property === "positional" ? record(true) : () => recorder),
  });
  return recorder;
}

/** The commands `definers` declare, each with its options. */
export function walkCommands(definers: readonly CommandDefiner[]): DeclaredCommand[] {
  const commands: DeclaredCommand[] = [];
  const host: Argv = new Proxy({} as Argv, {
    get: (_target, property) =>
      property === "command"
        ? (usage: unknown, describe: unknown, builder: unknown): Argv => {
            const options: DeclaredOption[] = [];
            if (typeof builder === "function") (builder as (y: Argv) => unknown)(optionRecorder(options));
            commands.push({ name: String(usage).split(" ")[0] ?? "", describe: typeof describe === "string" ? describe : "", options });
            return host;
          }
        : () => host,
  });
  for (const define of definers) define(host, () => undefined);
  return commands;
}
