/**
 * The run command's handler forwards each flag to runCommand by name (it imports the runner
 * lazily). A flag declared but not forwarded is parsed and then silently ignored: that hid
 * --managed-tasks-opt-in and friends for two issues. Every declared option must arrive.
 */
import { describe, expect, it, vi } from "vitest";
import type { Argv } from "yargs";

const received: Record<string, unknown>[] = [];
vi.mock("../../src/cli/run.js", () => ({
  runCommand: async (args: Record<string, unknown>): Promise<number> => {
    received.push(args);
    return 0;
  },
}));

const { runCommandDefinition } = await import("../../src/cli/commands/run.js");

interface Declared {
  name: string;
  type: unknown;
  array: boolean;
}

/** The options the run command declares (its builder run against a recorder) and its handler. */
function declared(): { options: Declared[]; handler: (args: Record<string, unknown>) => Promise<void> } {
  const options: Declared[] = [];
  let handler: ((args: Record<string, unknown>) => Promise<void>) | undefined;
  const recorder: Argv = new Proxy({} as Argv, {
    get: (_target, method) => (...call: unknown[]) => {
      if (method === "option") {
        const [name, spec] = call as [string, { type?: unknown; array?: boolean }];
        options.push({ name, type: spec.type, array: spec.array === true });
      }
      return recorder;
    },
  });
  const root = {
    command: (_cmd: string, _desc: string, builder: (y: Argv) => Argv, run: (args: Record<string, unknown>) => Promise<void>): Argv => {
      builder(recorder);
      handler = run;
      return root as unknown as Argv;
    },
  } as unknown as Argv;
  runCommandDefinition(root, () => undefined);
  if (handler === undefined) throw new Error("the run command declared no handler");
  return { options, handler };
}

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

describe("the run command", () => {
  it("forwards every option it declares to the runner", async () => {
    const { options, handler } = declared();
    expect(options.length).toBeGreaterThan(30);
    const args: Record<string, unknown> = { _: ["run"], $0: "awp-conformance", candidate: "./cli" };
    for (const { name, type, array } of options) {
      const value = type === "number" ? 7 : type === "boolean" ? true : "x";
      args[camel(name)] = array ? [value] : value;
    }
    // --config is the configuration layer's own (src/config/run.ts): --no-config, so the flags reach the runner as given.
    args.config = false;
    await handler(args);
    const got = received.at(-1) ?? {};
    const missing = options.map((o) => camel(o.name)).filter((key) => key !== "config" && !(key in got));
    expect(missing).toEqual([]);
  });
});
