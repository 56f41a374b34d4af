/**
 * The mock fault catalogue's shape: one entry per fault, data only. The same table drives
 * the mock's argument checks (names, parameters, defaults), `awp-conformance mock --list`
 * and docs/mocks.md; the behaviour of each fault lives in src/mocks/<protocol>/.
 */

export type MockProtocol = "agent-cli" | "provider";

export const MOCK_PROTOCOLS: readonly MockProtocol[] = ["agent-cli", "provider"];

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
  /** The contract document and section it rests on, e.g. "Agent CLI protocol: Output JSONL". */
  section: string;
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

export function param(name: string, kind: ParamKind, value: number | string, about: string): FaultParam {
  return { name, kind, default: value, about };
}

/** A catalogue entry as written in the tables (the protocol is added per table; no parameters by default). */
export type FaultEntry = Omit<FaultInfo, "protocol" | "params"> & { params?: readonly FaultParam[] };

export function entries(protocol: MockProtocol, list: readonly FaultEntry[]): FaultInfo[] {
  return list.map((e) => ({ ...e, protocol, params: e.params ?? [] }));
}

/** The agent-cli turn selector parameter with its default. */
export function turnParam(value: string): FaultParam {
  return param("turn", "turn", value, "which turn: N is the Nth user turn; a kit turn tag (basic-2) is the turn the kit tagged so, or, when the input carries no kit tags, the tag's number");
}

/** A number parameter's value (the checks made sure it is one). */
export function countParam(params: FaultParams, name: string): number {
  const value = params[name];
  return typeof value === "number" ? value : Number(value);
}

/** A text parameter's value. */
export function textParam(params: FaultParams, name: string): string {
  return String(params[name] ?? "");
}

/** Fault implementations by catalogue group: each module holds the faults of some groups and loads only when one of them is asked for. */
export type FaultModules<T> = Readonly<Record<string, () => Promise<Readonly<Record<string, T>>>>>;

/** A fault's implementation, from the module of its group. */
export async function implementationOf<T>(modules: FaultModules<T>, info: FaultInfo): Promise<T> {
  const make = (await modules[info.group]?.())?.[info.name];
  if (make === undefined) throw new Error(`the ${info.protocol} fault ${info.name} (group ${info.group}) has no implementation`);
  return make;
}
