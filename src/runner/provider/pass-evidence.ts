import { loadCatalogue } from "../../core/clauses/catalogue.js";
import { exchangeWire } from "../../core/provider/checks/helpers.js";
import { providerChecks } from "../../core/provider/checks/index.js";
import type { ProviderExchange, ProviderTranscript } from "../../core/provider/types.js";
import { passEvidenceCutNote, withPassEvidence, type EvidenceUnit } from "../../core/report/pass-evidence.js";
import type { ClauseResult } from "../../core/report/types.js";

/** Exchanges one scenario's wire log shows at most (each bounded like a finding's). */
const EXCHANGES_PER_SCENARIO = 3;

/**
 * The parts of a provider transcript a passing clause may have been judged on, most specific
 * first: each request alone (a hostile one with its control, a repeated one with its plain
 * request), then each scenario's requests together, then the requests of each purpose.
 */
function units(transcript: ProviderTranscript): EvidenceUnit<ProviderTranscript>[] {
  const part = (exchanges: ProviderExchange[]): ProviderTranscript => ({ ...transcript, exchanges });
  const single = transcript.exchanges.map((e): EvidenceUnit<ProviderTranscript> => {
    // The request it is judged against: a hostile one's control, a repeated one's plain request.
    const before = [e.controlSeq, e.plainSeq].flatMap((seq) => transcript.exchanges.filter((x) => seq !== undefined && x.seq === seq));
    const shown = [...before, e];
    return { subject: part(shown), scenario: e.scenario, requestId: e.requestId, wire: () => shown.flatMap((x) => exchangeWire(x)) };
  });
  const group = (key: (e: ProviderExchange) => string): EvidenceUnit<ProviderTranscript>[] =>
    [...new Set(transcript.exchanges.map(key))].flatMap((value) => {
      const exchanges = transcript.exchanges.filter((e) => key(e) === value);
      if (exchanges.length < 2) return [];
      const scenario = [...new Set(exchanges.map((e) => e.scenario))].join(" + ");
      return [{ subject: part(exchanges), scenario, wire: () => exchanges.slice(0, EXCHANGES_PER_SCENARIO).flatMap((x) => exchangeWire(x)) }];
    });
  return [...single, ...group((e) => e.scenario), ...group((e) => e.purpose)];
}

/** --evidence all on a provider run: each pass with the request it was judged on; notes when the total bound left some without. */
export function providerPassEvidence(results: readonly ClauseResult[], transcript: ProviderTranscript): { results: ClauseResult[]; notes: string[] } {
  const found = withPassEvidence(results, { clauses: loadCatalogue("provider"), checks: providerChecks, empty: { ...transcript, exchanges: [] }, units: units(transcript) });
  return { results: found.results, notes: passEvidenceCutNote(found.cut) };
}
