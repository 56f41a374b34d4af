import { describe, expect, it } from "vitest";
import { PhaseLines, Progress, providerPhase, scenarioLine } from "../../src/cli/progress.js";

function sink(): { write: (text: string) => void; text: () => string } {
  let out = "";
  return { write: (text) => void (out += text), text: () => out };
}

describe("progress on stderr", () => {
  it("off a terminal: one plain line per finished step, in a stable form; nothing live", () => {
    const s = sink();
    const progress = new Progress("lines", s);
    progress.update("agent-cli · working");
    progress.finished(scenarioLine("awp-jsonl", "basic", { ms: 3210, turns: 2, answered: 2 }));
    progress.finished(scenarioLine("stream-json", "queued", { ms: 30_412, turns: 3, answered: 0, stop: { scenario: "queued", cause: "unanswered", turn: "turn 1 (queued-1)", waitedMs: 30_000, bound: "--turn-timeout", started: true } }));
    progress.finished(scenarioLine("awp-jsonl", "content", { ms: 30_500, turns: 1, answered: 0, stop: { scenario: "content", cause: "never-answered", started: true } }));
    progress.finished(scenarioLine("awp-jsonl", "tools", { ms: 0, turns: 0, answered: 0, stop: { scenario: "tools", cause: "run-timeout", started: false } }));
    progress.done();
    expect(s.text()).toBe([
      "awp-conformance: agent-cli (awp-jsonl) scenario basic done in 3.2 s: 2 of 2 turns answered",
      "awp-conformance: agent-cli (stream-json) scenario queued stopped after 30.4 s: turn 1 (queued-1) got no terminal event within 30000 ms (--turn-timeout)",
      "awp-conformance: agent-cli (awp-jsonl) scenario content stopped after 30.5 s: the CLI answered no turn of any scenario",
      "awp-conformance: agent-cli (awp-jsonl) scenario tools not run: the run reached --run-timeout",
      "",
    ].join("\n"));
  });

  it("on a terminal: one live line rewritten in place and cleared; with --quiet: nothing", () => {
    const live = sink();
    const progress = new Progress("live", { ...live, columns: 200 });
    progress.finished("agent-cli (awp-jsonl) scenario basic done in 1.0 s: 2 of 2 turns answered");
    progress.done();
    expect(live.text()).toMatch(/^\r\u001b\[2Kawp-conformance: agent-cli \(awp-jsonl\) scenario basic done in 1\.0 s: 2 of 2 turns answered · \d+\.\d s\r\u001b\[2K$/);
    const quiet = sink();
    const off = new Progress("off", quiet);
    off.update("x");
    off.finished("y");
    off.done();
    expect(quiet.text()).toBe("");
  });

  it("provider runs: one line per phase, a phase ending when the next begins or at the end", () => {
    const s = sink();
    const phases = new PhaseLines(new Progress("lines", s));
    const purposes = ["describe", "config-valid", "config-invalid", "config-wrong-type", "invoke", "dialect", "invoke", "control", "hostile:duplicate-keys"] as const;
    purposes.forEach((p, i) => phases.exchange(p, i + 1, p));
    phases.flush();
    phases.flush();
    const lines = s.text().trimEnd().split("\n").map((l) => l.replace(/done in \d+\.\d s/, "done in T"));
    expect(lines).toEqual([
      "awp-conformance: provider phase describe done in T: 1 call",
      "awp-conformance: provider phase validate_config done in T: 3 calls",
      "awp-conformance: provider phase invoke done in T: 3 calls",
      "awp-conformance: provider phase robustness done in T: 2 calls",
    ]);
    expect(providerPhase("hostile:malformed-json")).toBe("robustness");
  });
});
