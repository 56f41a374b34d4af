/**
 * The agent-cli mock: the bundled reference agent CLI (examples/reference-agent-cli) with the
 * given faults. Arguments before the first flag the Desktop adds are the operator's prefix
 * arguments and are taken away (the reference has none; odd launch configurations still
 * run), and a --model the reference would refuse becomes `fake-model`. Every fault bends the
 * reference through the hooks of hooks.ts; everything else is the reference's own behaviour,
 * imported, never copied. Without faults the mock is the reference.
 */
import { implementationOf, type ActiveFault, type FaultInfo, type FaultModules } from "../catalogue/types.js";
import { createState, saneModel, splitArgv, type AgentFault } from "./state.js";
import { exampleUrl, noteExit, ownSignals, type MockContext } from "../process.js";
import type { MockRecorder } from "../record.js";
import { installHooks, type AgentHooks } from "./hooks.js";

type Table = Readonly<Record<string, AgentFault>>;
const wire = async (): Promise<Table> => (await import("./faults-wire.js")).WIRE_FAULTS;
const model = async (): Promise<Table> => (await import("./faults-model.js")).MODEL_FAULTS;
const consistency = async (): Promise<Table> => (await import("./faults-consistency.js")).CONSISTENCY_FAULTS;
const processes = async (): Promise<Table> => (await import("./faults-process.js")).PROCESS_FAULTS;
const managed = async (): Promise<Table> => (await import("./faults-managed.js")).MANAGED_FAULTS;

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
};

export const agentFault = (info: FaultInfo): Promise<AgentFault> => implementationOf(AGENT_MODULES, info);

export async function runAgentCli(faults: readonly ActiveFault[], args: readonly string[], ctx: MockContext, recorder: MockRecorder | undefined): Promise<void> {
  const named = await Promise.all(faults.map(async (f) => ({ name: f.info.name, hooks: (await agentFault(f.info))(f.params, ctx) })));
  const hooks: AgentHooks[] = named.map((n) => n.hooks);
  const { desktop } = splitArgv(args);
  process.argv = [process.argv[0] ?? process.execPath, process.argv[1] ?? "", ...saneModel(desktop)];

  const state = createState(desktop);
  const ignoring = named.filter((n) => n.hooks.ignoreSigterm !== undefined);
  ownSignals((signal) => (signal === "SIGTERM" ? ignoring.find((n) => n.hooks.ignoreSigterm?.(state) === true)?.name : undefined), recorder, ignoring.length > 0);
  for (const hook of hooks) {
    // A fault that replaces the reference (it never answers) is the whole program from here.
    if ((await hook.startup?.(state)) === "replace") return;
  }
  installHooks(hooks, state, recorder, () => noteExit("stdin-ended"));
  await import(exampleUrl(import.meta.url, "reference-agent-cli/agent-cli.mjs"));
}
