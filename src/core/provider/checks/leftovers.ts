import type { Check } from "../../report/judge.js";
import type { Finding, Judgement } from "../../report/types.js";
import { howFound, leftoverSeen, NO_PROC_REASON } from "../../leftovers.js";
import type { Leftover } from "../../process-outcome.js";
import type { ProviderExchange, ProviderTranscript } from "../types.js";
import { finding, skip } from "./helpers.js";

export const NO_LEFTOVERS = "provider/transport/no-leftover-processes";

function leftoverFinding(e: ProviderExchange, leftover: Leftover): Finding {
  return finding(NO_LEFTOVERS, e, `a process the call started outlived it, outside its process group: pid ${leftover.pid}, found by ${howFound(leftover)}`, {
    expected: "every process the call started has exited when the Provider's process exits",
    seen: leftoverSeen(leftover),
  });
}

/**
 * Judges every call the kit started (hostile requests too: a leftover is one whatever the
 * request was) on the runner's look for leftovers after it.
 */
function judgeLeftovers(t: ProviderTranscript): Judgement {
  const started = t.exchanges.filter((e) => e.outcome.spawnError === undefined);
  const scanned = started.filter((e) => e.outcome.leftovers?.scan === "proc");
  if (scanned.length === 0) {
    if (started.some((e) => e.outcome.leftovers?.scan === "unavailable")) return skip(NO_PROC_REASON);
    return skip(started.length === 0 ? "no call was started: check that the candidate is an executable file" : "the calls carry no record of a look for leftover processes: judge this clause with a live run of `awp-conformance run`");
  }
  const findings = scanned.flatMap((e) => {
    const sweep = e.outcome.leftovers;
    const listed = (sweep?.found ?? []).map((l) => leftoverFinding(e, l));
    const more = sweep?.dropped;
    return more === undefined ? listed : [...listed, finding(NO_LEFTOVERS, e, `${more} more processes the call started outlived it, outside its process group (ended by the kit, not listed)`)];
  });
  return { outcome: "judged", judged: scanned.length, findings };
}

export const leftoverChecks: Check<ProviderTranscript>[] = [{ clause: NO_LEFTOVERS, judge: judgeLeftovers }];
