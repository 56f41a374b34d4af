import { describe, expect, it } from "vitest";
import { AGENT_CLI_CATALOGUE } from "../../src/mocks/catalogue/agent-cli.js";
import { PROVIDER_CATALOGUE } from "../../src/mocks/catalogue/provider.js";
import { MockUsageError, nearest, parseMockArgs, splitFaultList, UnknownFaultError } from "../../src/mocks/run.js";

const agent = (argv: string[], env: Record<string, string> = {}): ReturnType<typeof parseMockArgs> => parseMockArgs("agent-cli", AGENT_CLI_CATALOGUE, argv, env);
const provider = (argv: string[], env: Record<string, string> = {}): ReturnType<typeof parseMockArgs> => parseMockArgs("provider", PROVIDER_CATALOGUE, argv, env);
const usage = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof MockUsageError) return error.message;
    throw error;
  }
  throw new Error("no usage error");
};

describe("the mock's own options", () => {
  it("takes its options out wherever they come before --, and passes everything else on in order", () => {
    const o = agent(["--fault", "double-result", "--output-format", "stream-json", "--seed=7", "--model", "m", "--record", "/tmp/r.jsonl", "--resume", "s1", "--", "--fault", "x"]);
    expect(o.faults.map((f) => f.spec)).toEqual(["double-result"]);
    expect(o.seed).toBe(7);
    expect(o.record).toBe("/tmp/r.jsonl");
    expect(o.rest).toEqual(["--output-format", "stream-json", "--model", "m", "--resume", "s1", "--fault", "x"]);
  });

  it("reads faults, seed and record from the environment, the flags after them (record and seed: the flag wins; a fault named again keeps its place, with the later parameters)", () => {
    const env = { AWP_CONFORMANCE_MOCK_FAULTS: "slow-invoke:ms=10,id=*, hang ,linger", AWP_CONFORMANCE_MOCK_SEED: "3", AWP_CONFORMANCE_MOCK_RECORD: "/tmp/env.jsonl" };
    const o = provider(["--fault=slow-invoke:ms=budget+5", "--fault", "wrong-digest", "--record", "/tmp/flag.jsonl"], env);
    expect(o.faults.map((f) => f.info.name)).toEqual(["slow-invoke", "hang", "linger", "wrong-digest"]);
    expect(o.faults[0]?.params).toEqual({ ms: "budget+5", id: "invoke-1" });
    expect(o.faults[2]?.params).toEqual({ ms: 0 });
    expect(o.seed).toBe(3);
    expect(o.record).toBe("/tmp/flag.jsonl");
  });

  it("splits the environment's list: a part with = and no : before it is a parameter of the fault before it", () => {
    expect(splitFaultList("a,b:ms=10,id=x:y,c;d,e:k=1;j=2")).toEqual(["a", "b:ms=10,id=x:y", "c;d", "e:k=1;j=2"]);
    expect(splitFaultList(" ,")).toEqual([]);
  });

  it("fills every default and types counts as numbers", () => {
    const [huge] = agent(["--fault", "huge-line:bytes=10"]).faults;
    expect(huge?.params).toEqual({ bytes: 10, turn: "tools-1" });
    expect(agent(["--fault", "exit-mid-turn:turn=3;after=2"]).faults[0]?.params).toEqual({ turn: "3", after: 2, code: 1 });
  });

  it("refuses mistakes with one line naming the nearest valid names", () => {
    expect(usage(() => provider(["--fault", "slow-invok"]))).toMatch(/^unknown provider fault "slow-invok"; nearest: slow-invoke, /);
    expect(() => provider(["--fault", "double-result"])).toThrow(UnknownFaultError);
    expect(usage(() => provider(["--fault", "slow-invoke:mss=1"]))).toBe('fault slow-invoke has no parameter "mss" (it takes ms, id; nearest: ms, id)');
    expect(usage(() => agent(["--fault", "double-result:x=1"]))).toBe('fault double-result has no parameter "x" (it takes none)');
    expect(usage(() => agent(["--fault", "huge-line:bytes=lots"]))).toBe('parameter bytes of fault huge-line must be a whole number, not "lots"');
    expect(usage(() => provider(["--fault", "slow-invoke:ms=soon"]))).toMatch(/must be a number of ms, or budget\+N/);
    expect(usage(() => agent(["--fault", "huge-line:bytes=1,bytes=2"]))).toMatch(/given twice/);
    expect(usage(() => agent(["--fault", "huge-line:bytes"]))).toMatch(/needs a value/);
    expect(usage(() => agent(["--seed", "x"]))).toMatch(/^--seed must be a whole number/);
    expect(usage(() => agent(["--record"]))).toBe("--record needs a value");
    expect(nearest("ignore-sigterm-idel", AGENT_CLI_CATALOGUE.map((f) => f.name), 1)).toEqual(["ignore-sigterm-idle"]);
  });
});
