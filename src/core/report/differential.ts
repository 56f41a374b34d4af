/**
 * The exit code of a differential run (fuzz --against): the two providers differing in what a
 * host would act on is the finding the user asked for, whichever side the contract supports
 * (a port that decides differently is not done), so any difference makes the exit code 1;
 * usage errors (2) and kit failures (3) keep theirs. Without differences the candidate's own
 * verdict decides, as in any run.
 */
import type { RunReport } from "./types.js";

export function differentialExitCode(code: number, report: Pick<RunReport, "differential">): number {
  const differences = report.differential?.differences.length ?? 0;
  return differences > 0 && code !== 2 && code !== 3 ? 1 : code;
}

/** One line for notes and the console: how many cases both sides answered, and what differed. */
export function differentialLine(report: Pick<RunReport, "differential">): string | undefined {
  const d = report.differential;
  if (d === undefined) return undefined;
  const n = d.differences.length;
  const failed = d.againstFailed.length === 0 ? "" : ` The other provider's answers failed ${d.againstFailed.join(", ")} on some case (run \`awp-conformance fuzz\` on it for its own verdict and shrunk cases).`;
  const skipped = (d.notCompared ?? 0) === 0 ? "" : ` ${d.notCompared} generated case${d.notCompared === 1 ? "" : "s"} went to the candidate only: ${d.notCompared === 1 ? "it invokes" : "they invoke"} an operation, event or effect the other provider's describe did not declare, which no host would send it.`;
  return `Differential fuzzing against ${d.against.join(" ")}: ${d.cases} cases answered by both, ${n === 0 ? "no difference a host would act on" : `${n} kind${n === 1 ? "" : "s"} of difference`}.${skipped}${failed}`;
}
