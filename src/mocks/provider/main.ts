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

/** The answer's text and exit status, with every fault applied in order. */
function answer(ref: ReferenceProvider, hooks: readonly ProviderHooks[], request: Obj, bytes: Buffer): { text: string; exitCode: number | undefined } {
  let seen = request;
  for (const hook of hooks) if (hook.request !== undefined) seen = hook.request(seen);
  let response = ref.respond(seen);
  for (const hook of hooks) if (hook.response !== undefined) response = hook.response(response, seen, bytes);
  let text = `${stringify(response)}\n`;
  for (const hook of hooks) if (hook.text !== undefined) text = hook.text(text, response);
  const exitCode = hooks.map((h) => h.exitCode?.(response, request)).find((code) => code !== undefined);
  return { text, exitCode };
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
  const named = await Promise.all(faults.map(async (f) => ({ name: f.info.name, hooks: (await providerFault(f.info))(f.params, ctx) })));
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
    process.stderr.write(`awp-conformance-mock: rejected request: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
    return;
  }
  if (hooks.some((h) => h.crash?.(request) === true)) crashNow();
  const { text, exitCode } = answer(ref, hooks, request, bytes);
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
