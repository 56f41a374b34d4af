/**
 * A provider run's launcher processes (runner/launcher/) start before the kit loads the rest of
 * itself. Each is a Node process that takes about 0.15 s to be ready; started when the suite
 * begins (after the command line is parsed and the commands' modules are loaded, about 0.3 s
 * into a run), the first calls waited for them. Started from the entry point, they boot on
 * the other core while the kit loads, parses its options and compiles its schemas.
 *
 * Only a cheap look at the command line: the command, `--protocol provider` (policy-test is
 * always the provider protocol) and `--jobs`, up to `--` (what follows is the candidate's). A
 * command line this reads wrong costs at most launchers started and not used (they end with the
 * kit) or started later, as before; yargs still checks every option.
 */
import { DEFAULT_POLICY_TEST_JOBS, DEFAULT_PROVIDER_JOBS } from "../runner/provider/jobs.js";
import { DEFAULT_SPAWNER_MODE, isSpawnerMode, type SpawnerMode } from "../runner/native/modes.js";

/** The commands whose provider calls go through the launchers, and their default --jobs. */
const DEFAULT_JOBS: Readonly<Record<string, number>> = { run: DEFAULT_PROVIDER_JOBS, fuzz: DEFAULT_PROVIDER_JOBS, "policy-test": DEFAULT_POLICY_TEST_JOBS };

/** The value of `--name v` or `--name=v` among the kit's own arguments. */
function optionValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === name) return args[i + 1];
    if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
  }
  return undefined;
}

/** The kit's own arguments of a command line (process.argv): after the command, up to `--`. */
function ownArgs(argv: readonly string[]): string[] {
  const end = argv.indexOf("--");
  return argv.slice(3, end === -1 ? undefined : end);
}

/** What `--spawner` says (runner/native/select.ts), its default when it is not given; a value yargs will refuse counts as node. */
export function earlySpawnerMode(argv: readonly string[]): SpawnerMode {
  const value = optionValue(ownArgs(argv), "--spawner");
  if (value === undefined) return DEFAULT_SPAWNER_MODE;
  return isSpawnerMode(value) ? value : "node";
}

/** How many launchers a command line (process.argv) will use at once; 0 when it is no provider run. */
export function earlyLauncherCount(argv: readonly string[]): number {
  const command = argv[2] ?? "";
  const fallback = DEFAULT_JOBS[command];
  if (fallback === undefined) return 0;
  const own = ownArgs(argv);
  if (own.some((arg) => arg === "--help" || arg === "-h" || arg === "--version")) return 0;
  if (command !== "policy-test" && optionValue(own, "--protocol") !== "provider") return 0;
  const jobs = Number(optionValue(own, "--jobs"));
  return Number.isSafeInteger(jobs) && jobs > 0 ? jobs : fallback;
}
