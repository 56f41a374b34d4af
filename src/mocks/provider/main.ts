/**
 * The provider mock: the bundled reference provider (examples/reference-provider) with the
 * given faults, one process per request as the contract says. Everything but the faults is
 * the reference's behaviour, imported from examples/, so a fault shows up alone.
 */
import type { ActiveFault, FaultInfo, FaultModules } from "../catalogue/types.js";
import { implementationOf } from "../run.js";
import { crashNow, exampleUrl, forever, noteExit, ownSignals, sleep, type MockContext, type Obj } from "../process.js";
import type { MockRecorder } from "../record.js";
import type { ProviderFault, ProviderHooks, ReferenceProvider } from "./hooks.js";

async function loadReference(): Promise<ReferenceProvider> {
  const load = (name: string): Promise<Record<string, unknown>> => import(exampleUrl(import.meta.url, `reference-provider/${name}`)) as Promise<Record<string, unknown>>;
  const [decode, digest, policy, request, json] = await Promise.all([load("decode.mjs"), load("digest.mjs"), load("policy.mjs"), load("request.mjs"), load("strict-json.mjs")]);
  return {
    MAX_MESSAGE_BYTES: decode.MAX_MESSAGE_BYTES,
    readStdin: decode.readStdin,
    decodeRequest: decode.decodeRequest,
    requestDigest: digest.requestDigest,
    respond: policy.respond,
    RequestError: request.RequestError,
    JsonSyntaxError: json.JsonSyntaxError,
  } as ReferenceProvider;
}

/** JSON text as the mock writes it (a bigint as its digits). */
const stringify = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `@@${v}@@` : v)).replace(/"@@(\d+)@@"/g, "$1");

function decode(ref: ReferenceProvider, hooks: readonly ProviderHooks[], bytes: Buffer): Obj {
  try {
    const request = ref.decodeRequest(bytes);
    for (const hook of hooks) hook.verify?.(request, ref);
    return request;
  } catch (error) {
    if (!(error instanceof ref.RequestError || error instanceof ref.JsonSyntaxError)) throw error;
    const reader = hooks.find((h) => h.lenient?.when.test(error.message) === true)?.lenient;
    if (reader !== undefined) return reader.read(bytes.toString("utf8"));
    for (const hook of hooks) hook.rejected?.(error.message);
    throw error;
  }
}

interface Named {
  name: string;
  hooks: ProviderHooks;
  /** The catalogue says a correct host takes what this fault changes as a failed call. */
  failure: boolean;
}

/** The answer's text, response and exit status, with every fault applied in order, and the failure faults that changed it. */
function answer(ref: ReferenceProvider, named: readonly Named[], request: Obj, bytes: Buffer): { text: string; response: Obj; exitCode: number | undefined; failures: string[] } {
  const changed = new Set<string>();
  let seen = request;
  for (const { hooks } of named) if (hooks.request !== undefined) seen = hooks.request(seen);
  let response = ref.respond(seen);
  for (const { name, hooks } of named) {
    if (hooks.response === undefined) continue;
    const before = stringify(response);
    response = hooks.response(response, seen, bytes);
    if (stringify(response) !== before) changed.add(name);
  }
  let text = `${stringify(response)}\n`;
  for (const { name, hooks } of named) {
    if (hooks.text === undefined) continue;
    const before = text;
    text = hooks.text(text, response);
    if (text !== before) changed.add(name);
  }
  const exit = named.map((n) => ({ name: n.name, code: n.hooks.exitCode?.(response, request) })).find((e) => e.code !== undefined);
  if (exit !== undefined) changed.add(exit.name);
  const failures = named.filter((n) => n.failure && changed.has(n.name)).map((n) => n.name);
  return { text, response, exitCode: exit?.code, failures };
}

type Table = Readonly<Record<string, ProviderFault>>;
const answers = async (): Promise<Table> => (await import("./faults-answers.js")).ANSWER_FAULTS;
const processes = async (): Promise<Table> => (await import("./faults-process.js")).PROCESS_FAULTS;

export const PROVIDER_MODULES: FaultModules<ProviderFault> = {
  transport: answers,
  envelope: answers,
  describe: answers,
  "validate-config": answers,
  invoke: answers,
  process: processes,
  robustness: processes,
  "fuzz only": processes,
};

export const providerFault = (info: FaultInfo): Promise<ProviderFault> => implementationOf(PROVIDER_MODULES, info);

/**
 * Tells the record when the first bytes of stdin arrive (a host that never closes stdin shows by
 * that), beside the reference's own read: a 'readable' listener leaves the stream in the paused
 * mode the reference's async iteration uses, and runs before it, while the bytes are still buffered.
 */
function noteFirstBytes(recorder: MockRecorder): void {
  process.stdin.once("readable", () => {
    if (process.stdin.readableLength > 0) recorder.stdinData(process.stdin.readableLength);
  });
}

export async function runProvider(faults: readonly ActiveFault[], _args: readonly string[], ctx: MockContext, recorder: MockRecorder | undefined): Promise<void> {
  const reference = loadReference();
  const named: Named[] = await Promise.all(faults.map(async (f) => ({ name: f.info.name, hooks: (await providerFault(f.info))(f.params, ctx), failure: f.info.host.failure === true })));
  const hooks = named.map((n) => n.hooks);
  const ignoring = named.find((n) => n.hooks.ignoreSigterm === true)?.name;
  ownSignals((signal) => (signal === "SIGTERM" ? ignoring : undefined), recorder, ignoring !== undefined);
  const ref = await reference;
  for (const hook of hooks) await hook.startup?.();

  const limit = Math.max(ref.MAX_MESSAGE_BYTES + 1, ...hooks.map((h) => h.limit ?? 0));
  let request: Obj;
  let bytes: Buffer;
  try {
    if (recorder !== undefined) noteFirstBytes(recorder);
    bytes = await ref.readStdin(limit);
    recorder?.request(bytes, bytes.length >= limit);
    request = decode(ref, hooks, bytes);
  } catch (error) {
    recorder?.rejected();
    process.stderr.write(`awp-conformance-mock: rejected request: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
    return;
  }
  if (hooks.some((h) => h.crash?.(request) === true)) crashNow();
  const { text, response, exitCode, failures } = answer(ref, named, request, bytes);
  // While a fault holds the process, the record gets a heartbeat: a host that kills it with SIGKILL
  // (aw does, at the deadline) still leaves a record of when it was last running.
  if (hooks.some((h) => h.silent === true)) {
    recorder?.alive();
    await forever();
  }
  const delay = hooks.reduce((sum, h) => sum + (h.delay?.(request) ?? 0), 0);
  if (delay > 0) {
    recorder?.alive();
    await sleep(delay);
  }
  recorder?.answer(response, exitCode, failures);
  process.stdout.write(text);
  if (exitCode !== undefined) {
    noteExit("fault");
    process.exitCode = exitCode;
  }
  const linger = Math.max(0, ...hooks.map((h) => h.linger?.(request) ?? 0));
  if (linger > 0) recorder?.alive();
  if (linger === Infinity) await forever();
  else if (linger > 0) await sleep(linger);
}
