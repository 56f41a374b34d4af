import { loadCatalogue } from "../clauses/catalogue.js";
import { KitError } from "../errors.js";
import { judgeClauses, type Check, type JudgedClauses } from "../report/judge.js";
import type { ClauseResult } from "../report/types.js";
import { inputChecks } from "./checks/input.js";
import { launchChecks } from "./checks/launch.js";
import { hostProviderChecks } from "./checks/provider.js";
import { providerClaimChecks } from "./checks/provider-claims.js";
import { providerPreparationChecks } from "./checks/provider-preparation.js";
import { reactionOutputChecks } from "./checks/reactions-output.js";
import { reactionSessionChecks } from "./checks/reactions-session.js";
import { shutdownChecks } from "./checks/shutdown.js";
import { noLaunch } from "./helpers.js";
import type { HostProtocol, LaunchRecord } from "./record.js";
import type { HostBounds, HostExpectations, HostRun } from "./types.js";

/** The checks of each kind of host; each judges the clauses of its areas of suites/host/. */
export const HOST_CHECKS: Readonly<Record<HostProtocol, readonly Check<HostRun>[]>> = {
  "agent-cli": [...launchChecks, ...inputChecks, ...shutdownChecks, ...reactionOutputChecks, ...reactionSessionChecks],
  provider: [...hostProviderChecks, ...providerPreparationChecks, ...providerClaimChecks],
};

/** The host clauses that judge a host of this protocol, in catalogue order. */
export function hostClauses(protocol: HostProtocol): ReturnType<typeof loadCatalogue> {
  const ids = new Set(HOST_CHECKS[protocol].map((check) => check.clause));
  return loadCatalogue("host").filter((clause) => ids.has(clause.id));
}

/** Which host the record is about: --protocol, else the one protocol its processes share. */
export function recordProtocol(record: LaunchRecord, given?: HostProtocol): HostProtocol {
  if (given !== undefined) return given;
  const seen = [...new Set(record.processes.map((p) => p.protocol))];
  if (seen.length > 1) throw new KitError("usage", "the record holds both agent-cli and provider processes: give --protocol agent-cli or --protocol provider");
  return seen[0] ?? "agent-cli";
}

/** Builds the subject of the host checks: the record's processes of one protocol. */
export function hostRun(record: LaunchRecord, protocol: HostProtocol, expect: HostExpectations, bounds: HostBounds): HostRun {
  return { protocol, processes: record.processes.filter((p) => p.protocol === protocol), record, expect, bounds };
}

/** Why the record cannot be trusted whole, or undefined. */
export function incompleteRecord(record: LaunchRecord): string | undefined {
  const first = record.issues[0];
  if (first === undefined) return undefined;
  const more = record.issues.length - 1;
  return `the record is incomplete (line ${first.line}: ${first.message}${more > 0 ? `; ${more} more issue${more === 1 ? "" : "s"}` : ""}), so no clause can pass on it: record the host's launch again with the mock (AWP_CONFORMANCE_MOCK_RECORD=FILE, a fresh file)`;
}

const EXPECTATIONS: Readonly<Record<HostProtocol, readonly [keyof HostExpectations, string][]>> = {
  "agent-cli": [["model", "--expect-model"], ["mode", "--expect-mode"], ["args", "--expect-args-json"], ["env", "--expect-env-json"]],
  provider: [["args", "--expect-args-json"], ["providers", "--expect-providers-json"], ["cwd", "--expect-cwd"], ["env", "--expect-env-json"], ["outcomes", "--host-outcomes"]],
};

function notesOf(run: HostRun): string[] {
  const others = run.record.processes.length - run.processes.length;
  const notes = [`judged ${run.processes.length} ${run.protocol} process${run.processes.length === 1 ? "" : "es"} of the record${others > 0 ? `; ${others} of the other protocol left out (--protocol)` : ""}`];
  // The configured providers carry their arguments, cwd and environment: the single-provider options are not missing then.
  const covered = run.expect.providers !== undefined ? new Set<keyof HostExpectations>(["args", "cwd", "env"]) : new Set<keyof HostExpectations>();
  const missing = EXPECTATIONS[run.protocol].filter(([key]) => run.expect[key] === undefined && !covered.has(key)).map(([, flag]) => flag);
  if (missing.length > 0) notes.push(`compared with no ${missing.join(", ")}: only the contract's own shape was judged there; give the host's configuration to compare it too`);
  return notes;
}

/**
 * Judges the selected host clauses of the run's protocol. A record without a process of that
 * protocol skips every clause; an incomplete record (malformed lines, cut short) keeps its
 * failures and skips everything else, so it is never called conformant.
 */
export function judgeHostRun(run: HostRun, selected: (id: string) => boolean = () => true): JudgedClauses & { notes: string[]; halted?: string } {
  const judged = judgeClauses(hostClauses(run.protocol), HOST_CHECKS[run.protocol], run, selected);
  const empty = run.processes.length === 0 ? noLaunch(run).reason : undefined;
  const halted = empty ?? incompleteRecord(run.record);
  const results: ClauseResult[] = halted === undefined ? judged.results : judged.results.map((r) => (r.status === "fail" ? r : { ...r, status: "skip", reason: halted, judged: 0, findings: [] }));
  return { results, deselected: judged.deselected, notes: notesOf(run), ...(halted !== undefined ? { halted } : {}) };
}
