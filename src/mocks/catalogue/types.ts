/**
 * The mock fault catalogue's shape: one entry per fault, data only. The same table drives
 * the mock's argument checks (names, parameters, defaults), `awp-conformance mock --list`
 * and docs/mocks.md; the behaviour of each fault lives in src/mocks/<protocol>/. Types only
 * (the helpers that build and read entries are in ../run.ts), so no mock loads this file.
 */

import type { ClauseSource } from "../../core/report/types.js";

export type MockProtocol = "agent-cli" | "provider";

/**
 * A parameter's kind: a whole number >= 0; free text; a turn selector (a number N is the
 * Nth user turn; a kit turn tag such as basic-2 is the turn the kit tagged so, or the
 * tag's number when the input carries no kit tags); a delay (ms, or budget+N: N ms past
 * the request's budget_ms).
 */
export type ParamKind = "count" | "text" | "turn" | "delay";

export interface FaultParam {
  name: string;
  kind: ParamKind;
  /** The value that keeps today's behaviour (what the kit's own fault tables expect). */
  default: number | string;
  about: string;
}

/** What a correct host does about a fault, and where the contract says so. */
export interface HostRule {
  /** In our own words: what the host should do when a candidate misbehaves this way. */
  does: string;
  /** The public section it rests on, as a clause cites one: `{doc: "agent-cli-protocol", section: "Output JSONL"}` (src/core/clauses/sources.ts). */
  section: ClauseSource;
  /**
   * Provider faults: what the fault changes is a failed call a correct host applies the step's
   * on_error to, never a policy decision. The mock's record names such a fault in the `answer`
   * of each call it changed, and check-launch judges the host's reaction to it.
   */
  failure?: true;
}

export interface FaultInfo {
  name: string;
  protocol: MockProtocol;
  /** A heading to group the listing by (output, session, transport...). */
  group: string;
  /** What the mock does, in one or two sentences. */
  does: string;
  host: HostRule;
  params: readonly FaultParam[];
  /** Uses --seed (the fault has randomness). */
  seeded?: boolean;
  /** Set when only the kit's own scenarios or fixtures trigger or observe it: why. */
  kitOnly?: string;
  /** The check-launch clauses that judge, from the launch record, how a host reacted to this fault. */
  hostClauses?: readonly string[];
}

/** Parameter values with every default filled in. */
export type FaultParams = Readonly<Record<string, number | string>>;

/** One fault as the user asked for it, after checking: the catalogue entry and its parameters. */
export interface ActiveFault {
  info: FaultInfo;
  params: FaultParams;
  /** As given, e.g. "slow-invoke:ms=4000" (for the launch record). */
  spec: string;
}

/** A catalogue entry as written in the tables (the protocol is added per table; no parameters by default). */
export type FaultEntry = Omit<FaultInfo, "protocol" | "params"> & { params?: readonly FaultParam[] };

/** Fault implementations by catalogue group: each module holds the faults of some groups and loads only when one of them is asked for. */
export type FaultModules<T> = Readonly<Record<string, () => Promise<Readonly<Record<string, T>>>>>;
