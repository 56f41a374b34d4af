import { join } from "node:path";
import { loadCatalogue } from "../core/clauses/catalogue.js";
import { checkSelection, makeSelector, type Selection } from "../core/clauses/patterns.js";
import { KitError } from "../core/errors.js";
import { packageRoot } from "../core/paths.js";
import type { Protocol } from "../core/report/types.js";

/** The example candidates `awp-conformance run` checks when no candidate is given. */
export interface BundledCandidate {
  name: string;
  protocol: Protocol;
  argv: string[];
  configFile?: string;
  invalidConfigFile?: string;
  mode?: string;
  env?: string[];
}

export function bundledCandidates(): BundledCandidate[] {
  const examples = join(packageRoot(), "examples");
  const agent = (mode: string): BundledCandidate => ({
    name: `reference-agent-cli-${mode}`,
    protocol: "agent-cli",
    argv: [join(examples, "reference-agent-cli", "agent-cli.mjs")],
    mode,
    env: [
      "AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "AWP_REFERENCE_API_KEY={{fixture.token}}", "AWP_REFERENCE_TIMEOUT_MS=2000", "AWP_REFERENCE_CONTROL_PLANE_TIMEOUT_MS=2000",
      // The managed-task bridge, with the contract's variable names, pointed at the kit's control-plane fixture.
      "AWP_AGENT_MANAGED_TASKS_OPT_IN=1", "AWP_CONTROL_PLANE_URL={{fixture.controlplane}}", "AWP_CONTROL_PLANE_API_KEY={{fixture.controlplane_token}}",
    ],
  });
  return [
    {
      name: "reference-provider",
      protocol: "provider",
      argv: [join(examples, "reference-provider", "provider.mjs")],
      configFile: join(examples, "reference-provider", "valid-config.json"),
      invalidConfigFile: join(examples, "reference-provider", "invalid-configs.json"),
    },
    agent("awp-jsonl"),
    agent("stream-json"),
  ];
}

/** The run arguments that say something about a candidate (as runCommand receives them). */
export interface CandidateOptions {
  protocol?: string;
  configJson?: string;
  configFile?: string;
  invalidConfigFile?: string;
  budget?: number;
  mode?: string;
  model?: string;
  env?: unknown;
  envJson?: string;
  argsJson?: string;
  home?: string;
  managedTasksOptIn?: string;
  expectedFailures?: string;
  flaky?: string;
  corpus?: string;
  baseline?: string;
  rest: readonly string[];
}

/**
 * The options of `run` that configure a candidate: what it is (--protocol), how it is launched
 * and what it is given (configurations, budget_ms, mode, model, environment, arguments, HOME,
 * the managed-task opt-in variable), and what is known about it (its expected failures, flaky
 * clauses, fuzz corpus, the report of an earlier run to compare with). Given without a candidate, they mean the candidate is missing (an
 * unset CI variable), never "run the bundled examples". The kit's own bounds and the output
 * options (--timeout, --budget-slack, --turn-timeout..., --jobs, --run-timeout, --clause, --skip, --scenario,
 * --fuzz-runs, --seed, --shard, --out, --reporter, --level, --quiet, --docs-url) do not: they
 * apply to the bundled examples as to any candidate.
 */
export const CANDIDATE_OPTIONS: readonly (readonly [Exclude<keyof CandidateOptions, "rest">, string])[] = [
  ["protocol", "--protocol"],
  ["configJson", "--config-json"],
  ["configFile", "--config-file"],
  ["invalidConfigFile", "--invalid-config-file"],
  ["budget", "--budget"],
  ["mode", "--mode"],
  ["model", "--model"],
  ["env", "--env"],
  ["envJson", "--env-json"],
  ["argsJson", "--args-json"],
  ["home", "--home"],
  ["managedTasksOptIn", "--managed-tasks-opt-in"],
  ["expectedFailures", "--expected-failures"],
  ["flaky", "--flaky"],
  ["corpus", "--corpus"],
  ["baseline", "--baseline"],
];

/** The candidate options given, as the user wrote them ("--protocol", "candidate arguments (--x)"). */
export function candidateOptionsGiven(args: CandidateOptions): string[] {
  const given = CANDIDATE_OPTIONS.filter(([key]) => args[key] !== undefined).map(([, flag]) => flag);
  if (args.rest.length > 0) given.push(`candidate arguments (${args.rest.join(" ")})`);
  return given;
}

/** How to run the bundled examples, for the messages that refuse a run. */
const BUNDLED_HOW = "to run the kit's bundled examples instead, give none of the options that configure a candidate: `awp-conformance run` (add --clause provider or --clause agent-cli for one protocol's examples)";

/** The usage error of a run that configures a candidate but names none. */
export function noCandidate(given: readonly string[]): KitError {
  const what = given.length === 1 ? `${given[0]} configures a candidate` : `${given.slice(0, -1).join(", ")} and ${given.at(-1)} configure a candidate`;
  return new KitError("usage", `no candidate given: ${what}, so the run needs its executable (awp-conformance run --protocol provider ./my-provider); ${BUNDLED_HOW}`);
}

/**
 * The bundled examples a run with no candidate checks: those of whose protocol the selection
 * keeps a clause (so `--clause provider` runs only the provider example). A --clause or --skip
 * pattern that matches no clause of either protocol is a usage error naming it.
 */
export function bundledToRun(selection: Selection): BundledCandidate[] {
  const all = bundledCandidates();
  const protocols = [...new Set(all.map((c) => c.protocol))];
  const ids = new Map(protocols.map((p) => [p, loadCatalogue(p).map((c) => c.id)] as const));
  checkSelection(selection, [...ids.values()].flat(), `the bundled examples' catalogues (${protocols.join(", ")})`, protocols.map((p) => `awp-conformance list --protocol ${p}`));
  const selected = makeSelector(selection);
  const chosen = all.filter((c) => (ids.get(c.protocol) ?? []).some(selected));
  if (chosen.length === 0) throw new KitError("usage", "the --clause and --skip patterns leave no clause of any bundled example to judge");
  return chosen;
}
