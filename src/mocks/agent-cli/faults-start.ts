/**
 * The agent-cli faults of how the process starts and ends: a start refused for one flag only,
 * and a non-zero exit status where the host asked for an orderly end.
 */
import { countParam } from "../run.js";
import { faultExit, line, parseObject, say } from "../process.js";
import type { FaultParams } from "../catalogue/types.js";
import type { AgentHooks } from "./main.js";
import type { AgentFault, State } from "./state.js";

/** Like a CLI that does not know one of the Desktop's flags: a startup error naming it, then an exit; without the flag, the reference. */
function refuseWith(name: string, flag: string, given: (state: State) => boolean): AgentFault {
  return (p) => ({
    startup: (state) => {
      if (!given(state)) return undefined;
      state.notes.fired(name, undefined);
      const code = countParam(p, "code");
      say(`unknown option ${flag}`);
      process.stdout.write(line({ type: "result", subtype: "startup_error", is_error: true, result: `unknown_option:${flag}` }), () => faultExit(code));
      // A reader that never drains stdout must not keep the refusal alive.
      setTimeout(() => faultExit(code), 1000).unref();
      return "replace";
    },
  });
}

/** Every exit of the reference (it exits 0 on each orderly end) becomes `code` once `ending(state)` holds. */
function exitStatusWhen(p: FaultParams, ending: (state: State) => boolean): AgentHooks {
  return {
    startup: (state) => {
      const code = countParam(p, "code");
      const real = process.exit.bind(process);
      process.exit = ((status?: number | string | null) => real(ending(state) ? code : (status ?? undefined))) as typeof process.exit;
    },
  };
}

export const START_FAULTS: Readonly<Record<string, AgentFault>> = {
  "refuse-mcp-config": refuseWith("refuse-mcp-config", "--mcp-config", (state) => state.mcpConfig !== undefined),
  "refuse-resume": refuseWith("refuse-resume", "--resume", (state) => state.resumed),
  "exit-nonzero-on-shutdown": (p) => {
    let seen = false;
    return {
      ...exitStatusWhen(p, () => seen),
      input: (text) => {
        if (parseObject(text)?.type === "shutdown") seen = true;
        return text;
      },
    };
  },
  "exit-nonzero-on-eof": (p) => exitStatusWhen(p, (state) => state.inputEnded),
};
