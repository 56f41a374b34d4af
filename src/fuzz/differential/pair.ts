/**
 * One case as both providers answered it: which exchanges count (the request's own answer, a
 * hostile case's control and the hostile request itself) and where the answers first differ.
 * Pure: two transcripts in, the difference (or none) out.
 */
import type { ProviderExchange, ProviderTranscript } from "../../core/provider/types.js";
import type { ProviderCase } from "../types.js";
import { compareAnswers, hostAnswer, type Aspect, type HostAnswer } from "./answer.js";

/** Where two answers to one case differ. */
export interface CaseDifference {
  /** "control": a hostile case's well-formed base was answered differently (the base alone is the minimal case); "case": the request itself. */
  at: "control" | "case";
  aspects: Aspect[];
  candidate: HostAnswer;
  against: HostAnswer;
  /** What kind of difference it is: the differing request's purpose and the aspects ("invoke|effects"); shrinking keeps it. */
  key: string;
}

/**
 * The answer that counts for a well-formed send: the first, unless a resend bound in another
 * digest dialect got further (the first is then marked dialectRefused, and the resend that got
 * further was the last one sent: runProviderCase stops there).
 */
function counted(sends: readonly ProviderExchange[]): ProviderExchange | undefined {
  const first = sends[0];
  return first?.dialectRefused === true ? sends.at(-1) : first;
}

/** The exchanges of a transcript that a host's decision rests on: the control (or the request itself), and a hostile request's own answer. */
export function answersOf(transcript: ProviderTranscript): { own?: ProviderExchange; hostile?: ProviderExchange } {
  const hostile = transcript.exchanges.find((e) => e.controlSeq !== undefined);
  const own = counted(transcript.exchanges.filter((e) => e.controlSeq === undefined));
  return { ...(own !== undefined ? { own } : {}), ...(hostile !== undefined ? { hostile } : {}) };
}

/** The first place where the two providers' answers to case `c` differ, or undefined when a host would act the same on both. */
export function differenceOf(c: ProviderCase, mine: ProviderTranscript, theirs: ProviderTranscript): CaseDifference | undefined {
  const a = answersOf(mine);
  const b = answersOf(theirs);
  const hostileCase = c.base !== undefined;
  const compare = (x: ProviderExchange | undefined, y: ProviderExchange | undefined, at: CaseDifference["at"], purpose: string): CaseDifference | undefined => {
    if (x === undefined || y === undefined) return undefined;
    const candidate = hostAnswer(x);
    const against = hostAnswer(y);
    const aspects = compareAnswers(candidate, against);
    return aspects.length === 0 ? undefined : { at, aspects, candidate, against, key: `${purpose}|${aspects.join(",")}` };
  };
  const first = compare(a.own, b.own, hostileCase ? "control" : "case", hostileCase ? (c.base?.purpose ?? "invoke") : c.purpose);
  if (first !== undefined || !hostileCase) return first;
  // The controls agree: the hostile request went to both or to neither (it follows an ok control only).
  return compare(a.hostile, b.hostile, "case", c.purpose);
}

/** The request a difference is about: a hostile case's base when the controls differ, else the case. */
export function differingRequest(c: ProviderCase, difference: Pick<CaseDifference, "at">): ProviderCase {
  return difference.at === "control" && c.base !== undefined ? c.base : c;
}
