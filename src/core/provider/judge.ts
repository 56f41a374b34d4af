import { loadCatalogue } from "../clauses/catalogue.js";
import { judgeClauses, type JudgedClauses } from "../report/judge.js";
import { providerChecks } from "./checks/index.js";
import type { ProviderTranscript } from "./types.js";

/** Judges a recorded provider transcript against every selected clause of suites/provider/. */
export function judgeProviderTranscript(transcript: ProviderTranscript, selected: (id: string) => boolean = () => true): JudgedClauses {
  return judgeClauses(loadCatalogue("provider"), providerChecks, transcript, selected);
}
