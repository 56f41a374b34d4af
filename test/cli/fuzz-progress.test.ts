import { describe, expect, it } from "vitest";
import { FuzzProgress } from "../../src/cli/fuzz-progress.js";

function sink(): { write: (text: string) => void; text: () => string; columns: number } {
  let out = "";
  return { write: (text) => void (out += text), text: () => out, columns: 200 };
}

/** A clock the test moves by hand (ms). */
function fakeClock(start = 5000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe("fuzz progress on stderr", () => {
  it("off a terminal (CI): one plain line per 10 s however many cases, then one at the end", () => {
    const s = sink();
    const clock = fakeClock();
    const progress = new FuzzProgress("lines", "fuzz provider", s, clock.now);
    // 25 s of a campaign: a case every 250 ms, the timer ticking every second in between.
    for (let ms = 250, done = 1; ms <= 25_000; ms += 250, done++) {
      clock.advance(250);
      progress.cases(done, done >= 60 ? 1 : 0);
      if (ms % 1000 === 0) progress.tick();
    }
    progress.shrinking("provider/transport/valid-request-exits-zero", 1, 1);
    clock.advance(5000);
    progress.tick();
    progress.end();
    progress.end();
    expect(s.text()).toBe([
      "awp-conformance: fuzz provider: 40 cases, 4.0 cases/s, 0 failing clauses, 10.0 s",
      "awp-conformance: fuzz provider: 80 cases, 4.0 cases/s, 1 failing clause, 20.0 s",
      "awp-conformance: fuzz provider: shrinking the failure of provider/transport/valid-request-exits-zero, 30.0 s",
      "awp-conformance: fuzz provider done: 100 cases in 30.0 s (3.3 cases/s), 1 failing clause",
      "",
    ].join("\n"));
  });

  it("on a terminal: one live line rewritten in place (\\r) with cases, cases/s and failures, cleared at the end; --quiet: nothing", () => {
    const s = sink();
    const clock = fakeClock();
    const progress = new FuzzProgress("live", "fuzz agent-cli", s, clock.now);
    clock.advance(2000);
    progress.cases(4, 0);
    clock.advance(2000);
    progress.cases(8, 1);
    progress.end();
    const writes = s.text().split("\r").filter((w) => w !== "");
    expect(writes).toEqual([
      "\u001b[2Kawp-conformance: fuzz agent-cli: 4 cases, 2.0 cases/s, 0 failing clauses · 2.0 s",
      "\u001b[2Kawp-conformance: fuzz agent-cli: 8 cases, 2.0 cases/s, 1 failing clause · 4.0 s",
      "\u001b[2K",
    ]);
    expect(s.text()).not.toContain("\n");
    const quiet = sink();
    const off = new FuzzProgress("off", "fuzz provider", quiet, clock.now);
    off.cases(1, 0);
    clock.advance(20_000);
    off.tick();
    off.end();
    expect(quiet.text()).toBe("");
  });
});
