/**
 * Starts a mock: reads its options (usage mistakes exit 2 with one line), opens the launch
 * record when asked, then runs the protocol's mock. The hot path loads little: the record
 * module only when recording, a fault's implementation module only when it is asked for.
 *
 * The mock's own options, taken out of argv wherever they appear before `--`:
 *
 *   --fault NAME[:k=v[,k=v]...]   a fault, with parameters (also --fault=...); repeatable
 *   --seed N                      the seed of the faults with randomness
 *   --record FILE                 append the launch record to FILE
 *   --                            everything after it is passed on unchanged
 *
 * and from the environment: AWP_CONFORMANCE_MOCK_FAULTS (a comma-separated list in the same
 * syntax: a part with `=` and no `:` before it is one more parameter of the fault before it,
 * so `slow-invoke:ms=10,id=*,ignore-sigterm` is two faults), AWP_CONFORMANCE_MOCK_SEED and
 * AWP_CONFORMANCE_MOCK_RECORD (the flags win). Parameters may also be separated by `;`.
 * Faults apply in order: the environment's first, then the flags; a fault named again
 * replaces the earlier one (keeping its place).
 */
import type { ActiveFault, FaultEntry, FaultInfo, FaultModules, FaultParam, FaultParams, MockProtocol, ParamKind } from "./catalogue/types.js";
import { nearest } from "../core/nearest.js";

export { nearest };
import { seededRandom, type MockContext } from "./process.js";
import type { MockRecorder } from "./record.js";

export const FAULTS_ENV = "AWP_CONFORMANCE_MOCK_FAULTS";
export const SEED_ENV = "AWP_CONFORMANCE_MOCK_SEED";
export const RECORD_ENV = "AWP_CONFORMANCE_MOCK_RECORD";

/** A mistake in the mock's own options: one line on stderr, exit 2. */
export class MockUsageError extends Error {}

/** A fault name the protocol's catalogue does not have (the caller may look in the other one). */
export class UnknownFaultError extends MockUsageError {
  constructor(
    message: string,
    readonly fault: string,
  ) {
    super(message);
  }
}

export interface MockOptions {
  faults: ActiveFault[];
  seed: number | undefined;
  record: string | undefined;
  /** The arguments left for the reference behaviour, in order (what a real CLI would have seen from the host). */
  rest: string[];
}

const VALID: Readonly<Record<FaultParam["kind"], { test: RegExp; says: string }>> = {
  count: { test: /^\d{1,15}$/, says: "a whole number" },
  text: { test: /^.+$/s, says: "some text" },
  turn: { test: /^[A-Za-z0-9._-]+$/, says: "a turn number or a kit turn tag" },
  delay: { test: /^(\d{1,15}|budget(\+\d{1,15})?)$/, says: "a number of ms, or budget+N" },
};

/** Checks one fault spec (NAME or NAME:k=v,k=v) against the protocol's catalogue. */
export function resolveFault(protocol: MockProtocol, catalogue: readonly FaultInfo[], spec: string): ActiveFault {
  const colon = spec.indexOf(":");
  const name = colon === -1 ? spec : spec.slice(0, colon);
  const info = catalogue.find((f) => f.name === name);
  if (info === undefined) {
    const names = catalogue.map((f) => f.name);
    throw new UnknownFaultError(`unknown ${protocol} fault ${JSON.stringify(name)}; nearest: ${nearest(name, names).join(", ")} (list them: awp-conformance mock --list --protocol ${protocol})`, name);
  }
  return { info, params: paramsOf(info, colon === -1 ? "" : spec.slice(colon + 1)), spec };
}

function paramsOf(info: FaultInfo, text: string): Record<string, number | string> {
  const values: Record<string, number | string> = Object.fromEntries(info.params.map((p) => [p.name, p.default]));
  const given = new Set<string>();
  const takes = info.params.length === 0 ? "it takes none" : `it takes ${info.params.map((p) => p.name).join(", ")}`;
  for (const pair of text === "" ? [] : text.split(/[,;]/)) {
    const eq = pair.indexOf("=");
    const key = eq === -1 ? pair : pair.slice(0, eq);
    const param = info.params.find((p) => p.name === key);
    if (param === undefined) {
      const near = info.params.length === 0 ? "" : `; nearest: ${nearest(key, info.params.map((p) => p.name)).join(", ")}`;
      throw new MockUsageError(`fault ${info.name} has no parameter ${JSON.stringify(key)} (${takes}${near})`);
    }
    if (eq === -1) throw new MockUsageError(`parameter ${key} of fault ${info.name} needs a value: ${info.name}:${key}=VALUE`);
    if (given.has(key)) throw new MockUsageError(`parameter ${key} of fault ${info.name} is given twice`);
    given.add(key);
    const value = pair.slice(eq + 1);
    const rule = VALID[param.kind];
    if (!rule.test.test(value)) throw new MockUsageError(`parameter ${key} of fault ${info.name} must be ${rule.says}, not ${JSON.stringify(value)}`);
    values[key] = param.kind === "count" ? Number(value) : value;
  }
  return values;
}

/** Splits an AWP_CONFORMANCE_MOCK_FAULTS value into fault specs. */
export function splitFaultList(text: string): string[] {
  const specs: string[] = [];
  for (const part of text.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const eq = part.indexOf("=");
    const colon = part.indexOf(":");
    const continues = eq !== -1 && (colon === -1 || eq < colon) && specs.length > 0;
    if (continues) specs[specs.length - 1] += `${(specs[specs.length - 1] as string).includes(":") ? "," : ":"}${part}`;
    else specs.push(part);
  }
  return specs;
}

function seedOf(text: string, from: string): number {
  if (!/^\d{1,10}$/.test(text) || Number(text) > 0xffffffff) throw new MockUsageError(`${from} must be a whole number from 0 to 4294967295, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** Reads the mock's options from argv (after `mock <protocol>`, or the bin's own argv) and the environment. */
export function parseMockArgs(protocol: MockProtocol, catalogue: readonly FaultInfo[], argv: readonly string[], env: Readonly<Record<string, string | undefined>>): MockOptions {
  const specs = splitFaultList(env[FAULTS_ENV] ?? "");
  let seed = env[SEED_ENV] === undefined || env[SEED_ENV] === "" ? undefined : seedOf(env[SEED_ENV], SEED_ENV);
  let record = env[RECORD_ENV] === "" ? undefined : env[RECORD_ENV];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === "--") {
      rest.push(...argv.slice(i + 1));
      break;
    }
    const flag = /^--(fault|seed|record)(?:=(.*))?$/s.exec(arg);
    if (flag === null) {
      rest.push(arg);
      continue;
    }
    const [, name, inline] = flag;
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") throw new MockUsageError(`--${name} needs a value`);
    if (name === "fault") specs.push(value);
    else if (name === "seed") seed = seedOf(value, "--seed");
    else record = value;
  }
  const faults: ActiveFault[] = [];
  for (const spec of specs) {
    const fault = resolveFault(protocol, catalogue, spec);
    const at = faults.findIndex((f) => f.info.name === fault.info.name);
    if (at === -1) faults.push(fault);
    else faults[at] = fault;
  }
  return { faults, seed, record, rest };
}

const LAUNCH_MARKER_ENV = "AWP_CONFORMANCE_LAUNCH";

/** One protocol's mock: its catalogue and its runner. */
export interface MockProgram {
  protocol: MockProtocol;
  catalogue: readonly FaultInfo[];
  run(faults: readonly ActiveFault[], args: readonly string[], ctx: MockContext, recorder: MockRecorder | undefined): Promise<void>;
}

function usageExit(message: string): never {
  process.stderr.write(`awp-conformance mock: ${message}\n`);
  process.exit(2);
}

/** The usage message, saying so when an unknown fault belongs to the other protocol. */
async function usageMessage(protocol: MockProtocol, error: MockUsageError): Promise<string> {
  if (!(error instanceof UnknownFaultError)) return error.message;
  const { CATALOGUE } = await import("./catalogue/index.js");
  const other = CATALOGUE.find((f) => f.name === error.fault && f.protocol !== protocol)?.protocol;
  return other === undefined ? error.message : `fault ${JSON.stringify(error.fault)} is a ${other} fault, not an ${protocol} one (list them: awp-conformance mock --list --protocol ${protocol})`;
}

async function recorderFor(protocol: MockProtocol, options: MockOptions): Promise<MockRecorder | undefined> {
  if (options.record === undefined) return undefined;
  const { openRecorder } = await import("./record.js");
  try {
    return openRecorder(options.record, protocol, { mockArgs: options.rest, faults: options.faults.map((f) => f.spec) });
  } catch (error) {
    return usageExit(`cannot write the launch record ${options.record}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Runs a mock with the arguments the host gave it (after `mock <protocol>`, or the bin's own). */
export async function runMock(program: MockProgram, argv: readonly string[]): Promise<void> {
  let options: MockOptions;
  try {
    options = parseMockArgs(program.protocol, program.catalogue, argv, process.env);
  } catch (error) {
    if (error instanceof MockUsageError) usageExit(await usageMessage(program.protocol, error));
    throw error;
  }
  const recorder = await recorderFor(program.protocol, options);
  // Without --seed, a fresh one each run (nothing is printed: stderr is part of what a host sees).
  const seed = options.seed ?? Math.floor(Math.random() * 0x100000000);
  const ctx: MockContext = { random: seededRandom(seed), underKit: process.env[LAUNCH_MARKER_ENV] !== undefined };
  await program.run(options.faults, options.rest, ctx, recorder);
}

/** A bin's whole program: the mock, and an internal error as one line and exit 1. */
export function mockBin(program: MockProgram): void {
  runMock(program, process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`awp-conformance-mock: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}

// ---- building catalogue entries, reading parameters, finding implementations

/** A parameter of a catalogue entry, with the default that keeps today's behaviour. */
export function param(name: string, kind: ParamKind, value: number | string, about: string): FaultParam {
  return { name, kind, default: value, about };
}

/** A catalogue table's entries with their protocol (and no parameters unless given). */
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

/** A fault's implementation, from the module of its group. */
export async function implementationOf<T>(modules: FaultModules<T>, info: FaultInfo): Promise<T> {
  const make = (await modules[info.group]?.())?.[info.name];
  if (make === undefined) throw new Error(`the ${info.protocol} fault ${info.name} (group ${info.group}) has no implementation`);
  return make;
}
