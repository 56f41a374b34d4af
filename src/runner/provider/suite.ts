import { loadCatalogue } from "../../core/clauses/catalogue.js";
import { makeSelector, type Selection } from "../../core/clauses/patterns.js";
import { HOSTILE_KINDS } from "../../core/provider/checks/robustness.js";
import { judgeProviderTranscript } from "../../core/provider/judge.js";
import { buildReport } from "../../core/report/build.js";
import type { RunReport } from "../../core/report/types.js";
import type { HostileKind, ProviderTranscript } from "../../core/provider/types.js";
import { DEFAULT_RUN_TIMEOUT_MS, runTimeoutReason } from "../../core/run-timeout.js";
import { recordProviderSession, type ProviderSuiteOptions, type RequestGroup } from "./driver.js";

export interface RunProviderSuiteOptions extends ProviderSuiteOptions {
  selection?: Selection;
}

/** Requests are only worth sending when a selected clause will judge them (so --clause runs faster). */
function groupsFor(selected: (id: string) => boolean): Record<RequestGroup, boolean> {
  // The look for leftovers follows every call, whichever requests are sent.
  const ids = loadCatalogue("provider").map((c) => c.id).filter((id) => selected(id) && id !== "provider/transport/no-leftover-processes");
  const any = (...prefixes: string[]): boolean => ids.some((id) => prefixes.some((p) => id.startsWith(p)));
  return {
    invalidConfigs: any("provider/validate-config/rejects-invalid-config"),
    unknownKey: any("provider/validate-config/rejects-unknown-setting"),
    wrongTypes: any("provider/validate-config/rejects-wrong-typed-setting"),
    invocations: any("provider/invoke/", "provider/robustness/", "provider/transport/", "provider/envelope/"),
    matrix: any("provider/invoke/", "provider/transport/", "provider/envelope/"),
    dialects: any("provider/invoke/digest-dialects"),
    hostile: any("provider/robustness/"),
    whitespace: any("provider/transport/request-whitespace"),
    freshDir: any("provider/describe/leaves-no-files", "provider/describe/same-answer-twice"),
  };
}

/**
 * The hostile probes worth sending: those of the selected rejects-<kind> clauses, or every kind
 * when none is selected (no-hang and no-signal-death judge whatever probes were sent).
 */
function hostileKindsFor(selected: (id: string) => boolean): readonly HostileKind[] {
  const kinds = HOSTILE_KINDS.filter((kind) => selected(`provider/robustness/rejects-${kind}`));
  return kinds.length > 0 ? kinds : HOSTILE_KINDS;
}

export interface ProviderSuiteRun {
  report: RunReport;
  transcript: ProviderTranscript;
}

/** Runs the whole aw-provider/v1alpha1 suite against one candidate and judges it. */
export async function runProviderSuite(options: RunProviderSuiteOptions): Promise<ProviderSuiteRun> {
  const selection = options.selection ?? { clause: [], skip: [] };
  const selected = makeSelector(selection);
  const startedAt = new Date();
  const transcript = await recordProviderSession({ hostileKinds: hostileKindsFor(selected), ...options, send: { ...groupsFor(selected), ...options.send } });
  const endedAt = new Date();
  const judged = judgeProviderTranscript(transcript, selected);
  const { deselected } = judged;
  // Cut short, the kit cannot tell what the unsent requests would have shown: every skip says so.
  const cut = transcript.context.runTimedOut;
  const halted = cut === undefined ? undefined : runTimeoutReason(cut, `after ${transcript.exchanges.length} calls, before the kit sent every request`);
  const results = halted === undefined ? judged.results : judged.results.map((r) => (r.status === "skip" ? { ...r, reason: halted } : r));
  const report = buildReport({
    protocol: "provider",
    argv: options.argv,
    startedAt,
    endedAt,
    options: {
      budgetMs: options.budgetMs ?? 5000,
      timeoutMs: options.timeoutMs ?? null,
      configGiven: options.config !== undefined,
      invalidConfigs: options.invalidConfigs?.length ?? 0,
      calls: transcript.exchanges.length,
      runTimeoutMs: options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
    },
    selection,
    results,
    deselected,
    notes: transcript.context.notes,
    secrets: transcript.context.secrets,
    ...(halted !== undefined ? { halted } : {}),
  });
  const dialect = transcript.context.digestDialect;
  if (dialect !== undefined) report.digestDialect = { bound: dialect.bound, accepted: [...dialect.accepted] };
  return { report, transcript };
}
