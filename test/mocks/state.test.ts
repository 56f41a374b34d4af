import { describe, expect, it } from "vitest";
import { owedFor, saneModel, splitArgv, turnSelected, turnTag } from "../../src/mocks/agent-cli/state.js";
import { randomBytesFrom, seededRandom } from "../../src/mocks/process.js";

const userLine = (text: string): string => JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text }] } });

describe("the agent-cli mock's session state", () => {
  it("picks a turn by number, by the kit's tag, or (input without the kit's directive) by the tag's number", () => {
    const second = { tag: "basic-2", index: 2 };
    expect(turnSelected("2", second, true)).toBe(true);
    expect(turnSelected("basic-2", second, true)).toBe(true);
    expect(turnSelected("tools-1", { tag: "tools-1", index: 3 }, true)).toBe(true);
    expect(turnSelected("basic-2", { tag: undefined, index: 2 }, true)).toBe(false);
    expect(turnSelected("basic-2", { tag: undefined, index: 2 }, false)).toBe(true);
    expect(turnSelected("mt-succeed", { tag: undefined, index: 1 }, false)).toBe(false);
    expect(turnSelected("1", undefined, false)).toBe(false);
  });

  it("knows which lines the reference owes a result, with the turn's tag and number", () => {
    expect(owedFor(userLine("hi [[awp-fixture turn=basic%2D2 reply=x]]"), 2)).toEqual({ kind: "user", tag: "basic-2", index: 2, lines: 0, line: null });
    expect(turnTag("a [[awp-fixture turn=a]] b [[awp-fixture turn=b]]")).toBe("b");
    expect(owedFor("not json", 0, 3)).toEqual({ kind: "other", tag: undefined, index: 0, lines: 0, line: 3 });
    expect(owedFor("  ", 0)).toBeUndefined();
    expect(owedFor('{"type":"shutdown"}', 0)).toBeUndefined();
  });

  it("keeps the Desktop's flags only, and a --model the reference takes", () => {
    expect(splitArgv(["a0", "--api-key", "x", "--print", "--model", "m"])).toEqual({ prefix: ["a0", "--api-key", "x"], desktop: ["--print", "--model", "m"] });
    expect(saneModel(["--model", "m".repeat(300), "--resume", "s"])).toEqual(["--model", "fake-model", "--resume", "s"]);
    expect(saneModel(["--model", " ok "])).toEqual(["--model", " ok "]);
  });
});

describe("the mocks' random source", () => {
  it("repeats itself for one seed and differs for another", () => {
    expect(randomBytesFrom(seededRandom(5), 32)).toEqual(randomBytesFrom(seededRandom(5), 32));
    expect(randomBytesFrom(seededRandom(5), 32)).not.toEqual(randomBytesFrom(seededRandom(6), 32));
    const draws = Array.from({ length: 1000 }, seededRandom(1));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
  });
});
