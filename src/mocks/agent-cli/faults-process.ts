/** The agent-cli faults on the process: termination, leftovers, and the CLIs that never answer. */
import type { FaultParams } from "../catalogue/types.js";
import { countParam } from "../run.js";
import { parseObject, randomBytesFrom, say } from "../process.js";
import { fixed, type AgentFault } from "./state.js";

/** Random bytes on stdout that never form a line (no LF), every `ms` ms. */
const binaryGarbage: AgentFault = (p, ctx) => ({
  startup: () => {
    say("writing binary data, not JSON lines");
    const chunk = (): void => {
      const bytes = randomBytesFrom(ctx.random, countParam(p, "bytes"));
      for (let i = 0; i < bytes.length; i += 1) if (bytes[i] === 0x0a) bytes[i] = 0x00;
      process.stdout.write(bytes);
    };
    chunk();
    setInterval(chunk, countParam(p, "ms"));
    return "replace";
  },
});

/** A leftover-daemon fault (../daemon.ts, loaded only then). */
const daemon = (name: string): AgentFault => (p: FaultParams) => ({ startup: async () => (await import("../daemon.js")).leaveDaemon(name, countParam(p, "ms")) });

export const PROCESS_FAULTS: Readonly<Record<string, AgentFault>> = {
  "ignore-shutdown": fixed({ input: (text) => (parseObject(text)?.type === "shutdown" ? null : text) }),
  "ignore-sigterm": fixed({ ignoreSigterm: () => true }),
  "ignore-sigterm-idle": fixed({ ignoreSigterm: (state) => !state.inFlight }),
  "ignore-sigterm-mid-turn": fixed({ ignoreSigterm: (state) => state.inFlight }),
  "ignore-eof": fixed({ inputEnd: () => "keep-open" }),
  // A grandchild in a new session, left running after the CLI exits (../daemon.ts).
  "leave-daemon-stdout": daemon("leave-daemon-stdout"),
  "leave-daemon-stderr": daemon("leave-daemon-stderr"),
  "leave-daemon-no-fds": daemon("leave-daemon-no-fds"),
  // Prints nothing, never reads stdin and stays up until it is killed.
  silent: fixed({
    startup: () => {
      setInterval(() => undefined, 60_000);
      return "replace";
    },
  }),
  "binary-garbage": binaryGarbage,
};
