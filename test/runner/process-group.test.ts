import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  finalizeGroup, killAllGroups, liveGroupIds, signalGroup, spawnGroup, terminateGroup, type GroupChild,
} from "../../src/runner/process-group.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/processes/", import.meta.url));
const env = { PATH: path.dirname(process.execPath) };

async function spawnFixture(name: string): Promise<GroupChild> {
  const outcome = await spawnGroup({ argv: [process.execPath, path.join(FIXTURES, name)], env });
  if (!outcome.ok) throw new Error(`spawn failed: ${outcome.error.code}`);
  outcome.child.stdout.resume();
  outcome.child.stderr.resume();
  return outcome.child;
}

describe("process groups", () => {
  it("spawns the child as leader of its own process group and registers it", async () => {
    const child = await spawnFixture("hang.mjs");
    expect(liveGroupIds()).toContain(child.pid);
    expect(signalGroup(child.pid, 0)).toBe(true);
    await terminateGroup(child, 1000);
    expect(child.exitStatus()).toMatchObject({ exitCode: null, signal: "SIGTERM" });
    await finalizeGroup(child, 200);
    expect(liveGroupIds()).not.toContain(child.pid);
    expect(signalGroup(child.pid, "SIGTERM")).toBe(false);
  });

  it("shares one termination between concurrent callers", async () => {
    const child = await spawnFixture("hang.mjs");
    const first = terminateGroup(child, 1000);
    expect(terminateGroup(child, 5)).toBe(first);
    await first;
    await finalizeGroup(child, 200);
  });

  it("killAllGroups SIGKILLs every registered group", async () => {
    const child = await spawnFixture("trap-term.mjs");
    killAllGroups();
    expect(liveGroupIds()).toEqual([]);
    expect(await child.exited).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    await finalizeGroup(child, 200);
  });

  it("reports spawn failures as data and rejects malformed options", async () => {
    const missing = await spawnGroup({ argv: ["/definitely/not/here"], env });
    expect(missing.ok ? null : missing.error.code).toBe("ENOENT");
    await expect(spawnGroup({ argv: [], env })).rejects.toThrow(TypeError);
    await expect(spawnGroup({ argv: ["node"], env: { "A=B": "x" } })).rejects.toThrow(TypeError);
  });
});
