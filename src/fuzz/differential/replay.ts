/**
 * Replay files of differences: the minimal request, the candidate and the other provider (each
 * with its configuration); `awp-conformance replay FILE` runs both sides again and compares.
 */
import type { JsonObject } from "../../core/provider/types.js";
import { shellQuote } from "../../runner/provider/reproduce.js";
import { runProviderCase } from "../provider-run.js";
import { deserializeCase, replayFileOf, serializeCase, writeReplay, type ReplayCandidate, type ReplayFile } from "../replay.js";
import type { SerializedProviderCase } from "../types.js";
import { answerText } from "./answer.js";
import type { KeptDifference } from "./campaign.js";
import { swapOf, withConfig } from "./config.js";
import { differenceOf, type CaseDifference } from "./pair.js";

/** The pseudo-clause a difference's replay file is named by: provider/differential/<purpose>-<aspects>. */
export function differenceId(difference: Pick<CaseDifference, "key">): string {
  const [purpose = "case", aspects = ""] = difference.key.split("|");
  const slug = `${purpose}-${aspects.split(",").join("-")}`.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return `provider/differential/${slug}`;
}

/** The command that replays a difference against the same two providers, both named explicitly. */
export function differenceCommandLine(path: string, candidate: ReplayCandidate, against: ReplayCandidate): string {
  const [other = "", ...otherArgs] = against.argv;
  const dashes = candidate.argv.slice(1).some((arg) => arg.startsWith("-")) ? ["--"] : [];
  return ["awp-conformance", "replay", path, "--against", other, ...otherArgs.map((arg) => `--against-arg=${arg}`), ...dashes, ...candidate.argv].map(shellQuote).join(" ");
}

/** Writes one replay file per kept difference (into <outDir>/replays) and sets its file and command. */
export function writeDifferences(kept: KeptDifference[], candidate: ReplayCandidate, against: ReplayCandidate, outDir: string): void {
  for (const k of kept) {
    const message = `the candidate answered ${answerText(k.difference.candidate)}; the other answered ${answerText(k.difference.against)}`;
    const file = replayFileOf({ clause: differenceId(k.difference), message, seed: k.seed, path: k.path, candidate, against, aspects: k.difference.aspects, replay: { protocol: "provider", case: serializeCase(k.request) } });
    k.file = writeReplay(outDir, file);
    k.reproduce = differenceCommandLine(k.file, candidate, against);
  }
}

/** Runs a difference's request on both sides again: the difference, or undefined when a host would now act the same on both. */
export async function replayDifference(file: ReplayFile, argv: string[], againstArgv: string[]): Promise<CaseDifference | undefined> {
  const c = deserializeCase(file.case as SerializedProviderCase);
  const timeout = (side: ReplayCandidate | undefined): number => side?.timeoutMs ?? (c.budgetMs ?? 5000) + 1000;
  const config = (side: ReplayCandidate | undefined): { value: JsonObject; document: string } => ({ value: (side?.config ?? {}) as JsonObject, document: side?.configDocument ?? JSON.stringify(side?.config ?? {}) });
  const swap = swapOf(config(file.candidate), file.against === undefined ? undefined : config(file.against));
  const [mine, theirs] = await Promise.all([
    runProviderCase(c, { argv, config: config(file.candidate).value, timeoutMs: timeout(file.candidate) }),
    runProviderCase(withConfig(c, swap), { argv: againstArgv, config: config(file.against).value, timeoutMs: timeout(file.against) }),
  ]);
  return differenceOf(c, mine, theirs);
}
