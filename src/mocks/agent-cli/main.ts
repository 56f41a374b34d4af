/**
 * The agent-cli mock: the bundled reference agent CLI (examples/reference-agent-cli) with the
 * given faults. Arguments before the first flag the Desktop adds are the operator's prefix
 * arguments and are taken away (the reference has none; odd launch configurations still
 * run), and a --model the reference would refuse becomes `fake-model`. Every fault bends the
 * reference through the seams below; everything else is the reference's own behaviour,
 * imported, never copied. Without faults the mock is the reference. Without a model URL
 * (AWP_REFERENCE_API_BASE_URL) it answers turns with the kit's deterministic model, served in
 * its own process (builtin-model.ts); a configured URL wins. The seams, and how the
 * hooks of several faults chain:
 *
 *   stdin    process.stdin becomes a PassThrough fed from the real stdin, one line at a time,
 *            so a fault can drop, alter or watch input lines (and the end of input). The
 *            launch record sees every raw line first.
 *   stdout   process.stdout.write buffers complete lines and lets faults rewrite, drop or add
 *            lines; callbacks are passed through (the reference flushes with write("", cb)).
 *   fetch    globalThis.fetch is wrapped: a fault can alter request bodies, replace responses
 *            or fire requests of its own (state.fetch is the real one).
 *
 * Chaining, in the order the faults were given (AWP_CONFORMANCE_MOCK_FAULTS first, then each
 * --fault): startup hooks run one after the other; an input line passes the first fault's
 * input hook, then the second's (a dropped line stops there); every line the reference writes
 * passes the first fault's output hook, then each line that produced passes the second's; a
 * model request passes the first fault's fetch hook first and the network last (the response
 * comes back the other way); stdin stays open when any inputEnd hook says so; a SIGTERM is
 * ignored when any fault ignores it.
 */
import { PassThrough } from "node:stream";
import type { ActiveFault, FaultInfo, FaultModules } from "../catalogue/types.js";
import { exampleUrl, noteExit, ownSignals, parseObject, type MockContext, type Obj } from "../process.js";
import type { MockRecorder } from "../record.js";
import { implementationOf } from "../run.js";
import { useBuiltinModelUnlessConfigured } from "./builtin-model.js";
import type { Observer } from "./observe.js";
import { createState, KIT_DIRECTIVE, owedFor, saneModel, splitArgv, userMessage, type AgentFault, type Fetch, type Owed, type State } from "./state.js";

export interface AgentHooks {
  /** Before the reference is imported; "replace" keeps the reference out (the fault is the whole program). */
  startup?(state: State): void | "replace" | Promise<void | "replace">;
  /** An input line -> the line the reference sees (null: dropped). */
  input?(text: string, state: State): string | null;
  /** The real stdin ended; "keep-open" keeps the reference's stdin open. */
  inputEnd?(state: State): "keep-open" | undefined;
  /** A line the reference wrote -> the text to write instead (owed: the input line it answers). */
  output?(text: string, object: Obj | undefined, state: State, owed: Owed | undefined): string;
  /** A model or control-plane request of the reference; `next` passes it on. */
  fetch?(url: Parameters<Fetch>[0], init: RequestInit | undefined, next: Fetch, state: State): Promise<Response>;
  /** True: this SIGTERM is ignored. */
  ignoreSigterm?(state: State): boolean;
}

/** What the stdin hook tells the launch record. */
export interface StdinRecorder {
  stdinLine(raw: string): void;
  stdinEnd(partialBytes: number): void;
}

/** The launch record as the hooks see it: the raw stdin, and the observations of observe.ts. */
interface Recording {
  stdin: StdinRecorder;
  observer: Observer;
}

/** The output hooks chained: each line a hook produced goes through the next one. */
function chainOutput(hooks: readonly AgentHooks[]): AgentHooks["output"] {
  const outputs = hooks.flatMap((h) => (h.output === undefined ? [] : [h.output]));
  if (outputs.length <= 1) return outputs[0];
  return (text, object, state, owed) => {
    let produced = (outputs[0] as NonNullable<AgentHooks["output"]>)(text, object, state, owed);
    for (const output of outputs.slice(1)) {
      let next = "";
      let rest = produced;
      for (let nl = rest.indexOf("\n"); nl !== -1; nl = rest.indexOf("\n")) {
        const one = rest.slice(0, nl);
        rest = rest.slice(nl + 1);
        next += output(one, parseObject(one), state, owed);
      }
      produced = next + rest;
    }
    return produced;
  };
}

function hookStdin(hooks: readonly AgentHooks[], state: State, recording: Recording | undefined, onEnd: () => void): void {
  const real = process.stdin;
  const fed = new PassThrough();
  Object.defineProperty(process, "stdin", { value: fed, configurable: true, enumerable: true, writable: true });
  real.setEncoding("utf8");
  let buffer = "";
  let lines = 0;
  const forward = (raw: string, line: number | null): void => {
    if (!state.kitTags && raw.includes(KIT_DIRECTIVE)) state.kitTags = true;
    if (userMessage(raw) !== undefined) state.userLines += 1;
    let kept: string | null = raw;
    for (const hook of hooks) {
      if (kept === null) break;
      if (hook.input !== undefined) kept = hook.input(kept, state);
    }
    if (kept === null) return;
    const owed = owedFor(kept.endsWith("\r") ? kept.slice(0, -1) : kept, state.userLines, line);
    if (owed !== undefined) state.pending.push(owed);
    fed.write(`${kept}\n`);
  };
  real.on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const raw = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      recording?.stdin.stdinLine(raw);
      forward(raw, lines++);
    }
  });
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    recording?.stdin.stdinEnd(Buffer.byteLength(buffer, "utf8"));
    recording?.observer.stdinEnded();
    if (buffer !== "") forward(buffer, null);
    buffer = "";
    state.inputEnded = true;
    onEnd();
    let keepOpen = false;
    for (const hook of hooks) if (hook.inputEnd?.(state) === "keep-open") keepOpen = true;
    if (keepOpen) {
      // Nothing else keeps the event loop alive once the real stdin is gone.
      setInterval(() => undefined, 1 << 30);
      return;
    }
    fed.end();
  };
  real.on("end", end);
  real.on("error", end);
}

function hookStdout(hooks: readonly AgentHooks[], state: State, observer: Observer | undefined): void {
  const stdout = process.stdout;
  const output = chainOutput(hooks);
  let buffer = "";

  const processLine = (text: string): string => {
    const object = parseObject(text);
    const owed = state.pending[0];
    let out = output === undefined ? `${text}\n` : output(text, object, state, owed);
    observer?.output(out, owed, owed !== undefined && object?.type === "result");
    if (owed !== undefined) {
      owed.lines += 1;
      if (object?.type === "result") {
        state.pending.shift();
        if (!state.inFlight) for (const fn of state.idle.splice(0)) out += fn();
      }
    }
    return out;
  };

  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void): boolean => {
    if (typeof encoding === "function") {
      callback = encoding;
      encoding = undefined;
    }
    buffer += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(encoding ?? "utf8");
    let text = "";
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const one = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      text += processLine(one);
    }
    // A fault waits for this write to be handed to the pipe whole (only while recording).
    const flushed = observer?.takeFlushed() ?? [];
    if (flushed.length > 0) {
      const done = callback;
      callback = () => {
        for (const fn of flushed) fn();
        done?.();
      };
    }
    if (callback !== undefined) return state.rawWrite(text, callback);
    return text === "" ? true : state.rawWrite(text);
  };
  stdout.write = write as typeof stdout.write;
}

function hookFetch(hooks: readonly AgentHooks[], state: State): void {
  let next: Fetch = state.fetch;
  // The last fault's hook wraps the real fetch, the first one's wraps them all.
  for (const hook of [...hooks].reverse()) {
    const own = hook.fetch;
    if (own === undefined) continue;
    const inner = next;
    next = ((url: Parameters<Fetch>[0], init?: RequestInit) => own(url, init, inner, state)) as Fetch;
  }
  globalThis.fetch = next;
}

/** Installs every hook; the reference is imported afterwards. `onInputEnd` runs when the real stdin ends. */
function installHooks(hooks: readonly AgentHooks[], state: State, recording: Recording | undefined, onInputEnd: () => void): void {
  hookStdout(hooks, state, recording?.observer);
  hookStdin(hooks, state, recording, onInputEnd);
  hookFetch(hooks, state);
}

type Table = Readonly<Record<string, AgentFault>>;
const wire = async (): Promise<Table> => (await import("./faults-wire.js")).WIRE_FAULTS;
const model = async (): Promise<Table> => (await import("./faults-model.js")).MODEL_FAULTS;
const consistency = async (): Promise<Table> => (await import("./faults-consistency.js")).CONSISTENCY_FAULTS;
const processes = async (): Promise<Table> => (await import("./faults-process.js")).PROCESS_FAULTS;
const managed = async (): Promise<Table> => (await import("./faults-managed.js")).MANAGED_FAULTS;
const anthropic = async (): Promise<Table> => (await import("./faults-anthropic.js")).ANTHROPIC_FAULTS;
const start = async (): Promise<Table> => (await import("./faults-start.js")).START_FAULTS;

export const AGENT_MODULES: FaultModules<AgentFault> = {
  output: wire,
  session: wire,
  turns: wire,
  input: model,
  resume: model,
  secrets: model,
  fidelity: model,
  failures: model,
  "fuzz only": model,
  consistency,
  termination: processes,
  "never answers": processes,
  "managed tasks": managed,
  "anthropic messages": anthropic,
  "start and exit": start,
};

export const agentFault = (info: FaultInfo): Promise<AgentFault> => implementationOf(AGENT_MODULES, info);

export async function runAgentCli(faults: readonly ActiveFault[], args: readonly string[], ctx: MockContext, recorder: MockRecorder | undefined): Promise<void> {
  const named = await Promise.all(faults.map(async (f) => ({ name: f.info.name, hooks: (await agentFault(f.info))(f.params, ctx) })));
  const hooks: AgentHooks[] = named.map((n) => n.hooks);
  const { desktop } = splitArgv(args);
  process.argv = [process.argv[0] ?? process.execPath, process.argv[1] ?? "", ...saneModel(desktop)];

  const state = createState(desktop);
  const observer = recorder === undefined ? undefined : (await import("./observe.js")).createObserver(recorder);
  if (observer !== undefined) state.notes = observer;
  const ignoring = named.filter((n) => n.hooks.ignoreSigterm !== undefined);
  ownSignals((signal) => (signal === "SIGTERM" ? ignoring.find((n) => n.hooks.ignoreSigterm?.(state) === true)?.name : undefined), recorder, ignoring.length > 0);
  for (const hook of hooks) {
    // A fault that replaces the reference (it never answers) is the whole program from here.
    if ((await hook.startup?.(state)) === "replace") return;
  }
  // No model URL configured (a host author's test): the kit's deterministic model, in-process.
  await useBuiltinModelUnlessConfigured(process.env);
  installHooks(hooks, state, recorder === undefined || observer === undefined ? undefined : { stdin: recorder, observer }, () => noteExit("stdin-ended"));
  await import(exampleUrl(import.meta.url, "reference-agent-cli/agent-cli.mjs"));
}
