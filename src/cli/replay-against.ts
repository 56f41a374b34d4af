/** `replay FILE` of a difference (fuzz --against): both providers run the request again and their answers are compared. */
import { KitError } from "../core/errors.js";
import { answerText } from "../fuzz/differential/answer.js";
import { replayDifference } from "../fuzz/differential/replay.js";
import { consentedArgv, type ReplayConsent } from "../fuzz/replay-run.js";
import type { ReplayFile } from "../fuzz/replay.js";

/** Prints STILL DIFFERENT (exit 1) or NO LONGER DIFFERENT (exit 0); the other side's recorded command runs only with consent, as the candidate's does. */
export async function replayDifferenceCommand(file: ReplayFile, path: string, argv: string[], against: string[] | undefined, consent: ReplayConsent): Promise<number> {
  if (file.against === undefined) throw new KitError("usage", `${path}: --against is for the replay file of a difference (fuzz --against); this file replays one provider's failure of ${file.clause}`);
  if (against === undefined && !consent.yes && !consent.interactive) {
    throw new KitError("usage", `${path}: not run: the file names the other provider's command (${file.against.argv.join(" ")}), and a replay file may come from anyone; give it with --against OTHER [--against-arg=ARG ...], or pass --yes to run the recorded command`);
  }
  const other = await consentedArgv({ ...file, candidate: file.against }, path, against, consent);
  const difference = await replayDifference(file, argv, other);
  if (difference === undefined) {
    process.stdout.write(`NO LONGER DIFFERENT: both providers answer the same (${file.aspects?.join(", ") ?? "answers"} differed when found; ${path})\n`);
    return 0;
  }
  process.stdout.write(`STILL DIFFERENT (${difference.aspects.join(", ")})\n  candidate: ${answerText(difference.candidate)}\n  against:   ${answerText(difference.against)}\n`);
  return 1;
}
