/**
 * What every command needs checked before it starts anything, as data: which options apply to
 * which protocol (and when), which options and positionals name input files, where the command
 * writes its reports, and where its candidate is. preflight.ts reads these tables; a new option
 * of one protocol is one row here.
 */
import type { Protocol } from "../core/report/types.js";

/** An option that applies only to one protocol, or only when the run fuzzes. */
export interface OptionRule {
  /** The flag as written, without the dashes. */
  option: string;
  /** The protocols it applies to (every one when absent). */
  protocols?: readonly Protocol[];
  /** `run`: the option acts only when the run fuzzes (--fuzz-runs or --fuzz-time). */
  fuzzing?: true;
  /** The commands this rule is about (every command that has the option when absent). */
  commands?: readonly string[];
  /** Another option it only qualifies: given without it, the option means nothing. */
  needs?: string;
  /** Options it does not combine with, and why. */
  excludes?: { options: readonly string[]; why: string };
}

const AGENT_CLI: readonly Protocol[] = ["agent-cli"];
const PROVIDER: readonly Protocol[] = ["provider"];

const agent = (...options: string[]): OptionRule[] => options.map((option) => ({ option, protocols: AGENT_CLI }));
const provider = (...options: string[]): OptionRule[] => options.map((option) => ({ option, protocols: PROVIDER }));

export const OPTION_RULES: readonly OptionRule[] = [
  // How an agent CLI is launched and bounded (agent-options.ts, managed-options.ts).
  ...agent("mode", "model", "env", "env-json", "args-json", "from-env", "home", "turn-timeout", "stall-timeout", "quiet-window", "shutdown-timeout", "order-skew", "scenario", "output-budget"),
  ...agent("managed-tasks-opt-in", "task-output-limit", "task-wait-slack"),
  // What a provider is given and how long its calls may take.
  ...provider("config-json", "config-file", "invalid-config-file", "budget", "budget-slack", "timeout", "spawner"),
  // check-launch judges a host: these describe an agent-cli host's configuration, then a provider host's.
  ...["expect-model", "expect-mode", "expect-resume", "remote-opt-in", "shutdown-grace", "oversize-stop", "start-retries", "retry-window"].map((option): OptionRule => ({ option, protocols: AGENT_CLI, commands: ["check-launch"] })),
  ...["expect-providers-json", "expect-cwd", "host-outcomes"].map((option): OptionRule => ({ option, protocols: PROVIDER, commands: ["check-launch"] })),
  // Differential fuzzing: the second provider and what only it is given.
  { option: "against", protocols: PROVIDER, excludes: { options: ["corpus", "shard"], why: "a differential run compares one whole campaign of two providers" } },
  ...["against-arg", "against-config-json", "against-config-file"].map((option): OptionRule => ({ option, protocols: PROVIDER, needs: "against" })),
  // Fuzzing's own options mean nothing to a run that does not fuzz.
  { option: "seed", fuzzing: true, commands: ["run"] },
];

/** An option or positional that names a file (or folder) the command reads. */
export interface InputRule {
  /** The argv key (an option's flag without dashes, or a positional's name). */
  key: string;
  /** How the user wrote it, for messages ("--config-file", "case file"). */
  label: string;
  kind: "file" | "folder" | "file or folder";
  /** Positional lists: the entries read (policy-test: all but the last, which is the provider). */
  take?: "all" | "all-but-last";
  /** A folder the command creates when missing (a new --corpus): only something else in its place is refused. */
  mayBeNew?: true;
  /** A value that means stdin, never a file. */
  stdin?: readonly string[];
}

/** Where a command writes: a report folder (`folder`, made if missing) or a file (`file`: its folder must take it). */
export interface OutRule {
  key: string;
  kind: "folder" | "file";
  /** The folder used when the option is not given; none: nothing is written unless it is. */
  default?: string;
}

/** Where a command's candidate is: the `candidate` positional, or the last of a list (policy-test). */
export type CandidateRule = { key: string; at: "value" | "last" };

/**
 * Inputs (of `inputs`, by key) that must be saved report.json files: read and checked before
 * anything starts, and compared with each other (diff OLD NEW) or with the run about to start
 * (run --baseline: its protocol, mode and shard), so a report of another protocol is a usage
 * error before the first launch.
 */
export interface ReportsRule {
  keys: readonly string[];
  against: "each-other" | "run";
}

export interface CommandNeeds {
  inputs?: readonly InputRule[];
  reports?: ReportsRule;
  out?: OutRule;
  candidate?: CandidateRule;
  /** The protocol of a command that checks one (when --protocol does not say). */
  protocol?: Protocol;
  /** Options that name a further program to launch (fuzz --against): located and checked as the candidate is. */
  programs?: readonly string[];
}

const file = (key: string): InputRule => ({ key, label: `--${key}`, kind: "file" });
const REPORT_INPUTS: readonly InputRule[] = [file("expected-failures"), file("flaky")];
const PROVIDER_CONFIG: readonly InputRule[] = [file("config-file")];
const CANDIDATE: CandidateRule = { key: "candidate", at: "value" };

/** Each command's needs, by the name yargs gives it (argv._[0]). */
export const COMMAND_NEEDS: Readonly<Record<string, CommandNeeds>> = {
  run: {
    inputs: [file("config"), ...PROVIDER_CONFIG, file("invalid-config-file"), ...REPORT_INPUTS, { key: "corpus", label: "--corpus", kind: "folder", mayBeNew: true }, file("baseline")],
    reports: { keys: ["baseline"], against: "run" },
    out: { key: "out", kind: "folder", default: "reports" },
    candidate: CANDIDATE,
  },
  fuzz: {
    inputs: [...PROVIDER_CONFIG, file("against-config-file"), ...REPORT_INPUTS, { key: "corpus", label: "--corpus", kind: "folder", mayBeNew: true }],
    out: { key: "out", kind: "folder", default: "reports" },
    candidate: CANDIDATE,
    programs: ["against"],
  },
  "policy-test": {
    inputs: [{ key: "paths", label: "case file", kind: "file", take: "all-but-last" }, ...PROVIDER_CONFIG, ...REPORT_INPUTS],
    out: { key: "out", kind: "folder", default: "reports/policy-test" },
    candidate: { key: "paths", at: "last" },
    protocol: "provider",
  },
  admit: { inputs: PROVIDER_CONFIG, candidate: CANDIDATE, protocol: "provider" },
  record: { out: { key: "out", kind: "file" }, candidate: CANDIDATE, protocol: "agent-cli" },
  replay: { inputs: [{ key: "file", label: "replay file", kind: "file" }], candidate: CANDIDATE, programs: ["against"] },
  check: { inputs: [{ key: "transcripts", label: "transcript", kind: "file", take: "all" }, ...REPORT_INPUTS], out: { key: "out", kind: "folder" }, protocol: "agent-cli" },
  "check-launch": { inputs: [{ key: "record", label: "record file", kind: "file" }, file("host-outcomes"), ...REPORT_INPUTS], out: { key: "out", kind: "folder" } },
  report: { inputs: [{ key: "file", label: "report file", kind: "file" }, ...REPORT_INPUTS], out: { key: "out", kind: "folder" } },
  matrix: {
    inputs: [file("config"), ...PROVIDER_CONFIG, file("invalid-config-file"), { key: "reports", label: "report file", kind: "file or folder", take: "all" }],
    out: { key: "out", kind: "folder", default: "reports/matrix" },
  },
  diff: {
    inputs: [{ key: "old", label: "OLD report", kind: "file" }, { key: "new", label: "NEW report", kind: "file" }],
    reports: { keys: ["old", "new"], against: "each-other" },
    out: { key: "out", kind: "folder" },
  },
  merge: { inputs: [{ key: "dirs", label: "shard report", kind: "file or folder", take: "all" }, ...REPORT_INPUTS], out: { key: "out", kind: "folder", default: "reports" } },
  digest: { inputs: [{ key: "request", label: "request file", kind: "file", stdin: ["-", ""] }] },
};
