/**
 * The fault tables the clause and mock docs name: which fake (or changed record) proves each
 * clause can fail. They live in the test tables, which src/ must not import: the caller
 * (scripts/clause-docs.mjs, the docs tests) loads the files named here and passes the cases in.
 */
import type { Protocol } from "../core/report/types.js";

/** One row of a fault table in test/integration/*-faults.ts, or of a record table (only the fields the docs use). */
export interface FaultCase {
  fault?: string;
  name?: string;
  /** Record tables: what the broken host did. */
  about?: string;
  /** Record tables: which passing record the case changes (<fake>/<protocol>.jsonl). */
  protocol?: string;
  fails: readonly string[];
  scenarios?: readonly string[];
  options?: readonly string[];
  launch?: string;
  kitEnv?: Readonly<Record<string, string>>;
}

export interface FaultTable {
  /** Which mock the table's faults are of (none for a record table). */
  protocol?: Protocol;
  /** The broken candidate the cases run, e.g. `awp-conformance mock provider` (src/mocks/); for a record table, the folder of the passing records. */
  fake: string;
  /** "record": the cases change a passing launch record instead of running a fake (host clauses). */
  kind?: "record";
  /** The file listing the cases, e.g. test/integration/provider-faults.ts. */
  table: string;
  cases: readonly FaultCase[];
}

/** Where the fault tables are; the generator script and the docs test load these files. */
export const FAULT_SOURCES: readonly { protocol?: Protocol; fake: string; table: string; kind?: "record" }[] = [
  { protocol: "provider", fake: "awp-conformance mock provider", table: "test/integration/provider-faults.ts" },
  { protocol: "agent-cli", fake: "awp-conformance mock agent-cli", table: "test/integration/agent-cli-faults.ts" },
  { fake: "test/fixtures/launch-records", table: "test/core/host/launch-record-cases.ts", kind: "record" },
  { fake: "test/fixtures/launch-records", table: "test/core/host/reaction-record-cases.ts", kind: "record" },
];

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === "string");

function isFaultCase(value: unknown): value is FaultCase {
  if (value === null || typeof value !== "object") return false;
  const c = value as Record<string, unknown>;
  const env = c.kitEnv;
  const envOk = env === undefined || (env !== null && typeof env === "object" && Object.values(env).every((v) => typeof v === "string"));
  return strings(c.fails) && (typeof c.fault === "string" || typeof c.name === "string") && envOk;
}

/** Every fault case of a loaded table module: the rows of each exported array of cases. */
export function faultCasesOf(module: Readonly<Record<string, unknown>>): FaultCase[] {
  return Object.keys(module)
    .sort()
    .flatMap((key) => {
      const value = module[key];
      return Array.isArray(value) && value.length > 0 && value.every(isFaultCase) ? value : [];
    });
}
