/**
 * `fuzz --protocol provider --against OTHER`: the other provider's side of a campaign (its
 * command, configuration and deadline), the differential run beside the candidate's own, and
 * the replay files of what differed. The comparison itself is src/fuzz/differential/.
 */
import { KitError } from "../core/errors.js";
import type { JsonObject } from "../core/provider/types.js";
import type { DifferentialSummary } from "../core/report/types.js";
import { DifferentialRun } from "../fuzz/differential/campaign.js";
import { swapOf } from "../fuzz/differential/config.js";
import { differentialSection } from "../fuzz/differential/report.js";
import { differenceId, writeDifferences } from "../fuzz/differential/replay.js";
import { answerText } from "../fuzz/differential/answer.js";
import type { ProviderTarget } from "../fuzz/provider-run.js";
import { providerCaseArb } from "../fuzz/provider/index.js";
import type { ReplayCandidate } from "../fuzz/replay.js";
import type { FuzzBudget, ProviderFuzzContext } from "../fuzz/types.js";
import { resolveCandidate } from "./candidate.js";
import { readProviderConfigs } from "./provider-options.js";
import type { FuzzArgs } from "./run-args.js";

type Config = { value: JsonObject; document: string };

/** The other provider's configuration: its own (--against-config-*), else the candidate's. */
export function againstConfig(args: FuzzArgs, mine: Config): Config {
  if (args.againstConfigJson !== undefined && args.againstConfigFile !== undefined) throw new KitError("usage", "give either --against-config-json or --against-config-file, not both");
  return readProviderConfigs({ ...(args.againstConfigJson !== undefined ? { configJson: args.againstConfigJson } : {}), ...(args.againstConfigFile !== undefined ? { configFile: args.againstConfigFile } : {}) }).config ?? mine;
}

/** The other provider's argv: --against (located as the candidate is) and each --against-arg. */
export function againstArgv(args: FuzzArgs): string[] {
  if (args.against === undefined) throw new KitError("usage", "--against needs the path of the other provider");
  return [resolveCandidate(args.against), ...(args.againstArg ?? []).map(String)];
}

export interface DifferentialPhase {
  run: DifferentialRun;
  /** Runs the differences down to minimal cases, writes their replay files, and returns the report's section. */
  finish(ctx: ProviderFuzzContext, budget: FuzzBudget, outDir: string): Promise<DifferentialSummary>;
}

/** The other provider as the campaign runs it: read before anything is launched, so a bad option is a usage error first. */
export interface AgainstSide {
  argv: string[];
  config: Config;
  target: ProviderTarget;
  replay: ReplayCandidate;
}

export function readAgainst(args: FuzzArgs, mine: Config, timeoutMs: number): AgainstSide {
  const argv = againstArgv(args);
  const config = againstConfig(args, mine);
  return { argv, config, target: { argv, config: config.value, timeoutMs }, replay: { argv, config: config.value, configDocument: config.document, timeoutMs } };
}

/** Sends the other side the fixed calls (after the candidate's own preparation); every case then goes to it beside the candidate. */
export async function startDifferential(args: { quiet?: boolean }, other: AgainstSide, candidate: { target: ProviderTarget; replay: ReplayCandidate; config: Config }): Promise<DifferentialPhase> {
  const { argv, target, replay } = other;
  const swap = swapOf(candidate.config, other.config);
  const run = new DifferentialRun({ candidate: candidate.target, against: target, ...(swap !== undefined ? { swap } : {}) });
  await run.prepare(candidate.config.value);
  return {
    run,
    async finish(ctx, budget, outDir) {
      if (run.found > 0 && args.quiet !== true) process.stderr.write(`awp-conformance: ${run.found} kind(s) of difference between the providers; shrinking them\n`);
      const kept = await run.finish(providerCaseArb(ctx), budget.seed);
      writeDifferences(kept, candidate.replay, replay, outDir);
      for (const k of kept) process.stdout.write(`fuzz: difference ${differenceId(k.difference)} — the candidate answered ${answerText(k.difference.candidate)}, the other ${answerText(k.difference.against)}\n  seed ${k.seed}, path ${k.path}\n  replay: ${k.reproduce ?? ""}\n`);
      return differentialSection(argv, run.cases, run.calls, kept, run.againstFailed, run.notCompared);
    },
  };
}
