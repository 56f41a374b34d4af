/**
 * The truthfulness corpus, agent-cli half: good CLIs written unlike the reference
 * (test/corpus/) must come out conformant, or with exactly the named SHOULD/MAY findings,
 * or incomplete when the kit could not judge them: never failed for their style.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NO_MODEL_REASON } from "../../src/core/agent-cli/causes.js";
import { MODEL_CLAUSES } from "../../src/core/agent-cli/judge.js";
import { pool, runKit, TEST_TIMEOUT_MS, type KitRun } from "./agent-cli-fakes.js";
import { failing, ROOT } from "./cli.js";
import { rmSync } from "node:fs";

const SCRIPTED = join(ROOT, "test/corpus/scripted-cli.mjs");
const TERSE = join(ROOT, "test/corpus/terse-cli.mjs");
const limit = pool(3);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function once(args: string[]): () => Promise<KitRun> {
  let run: Promise<KitRun> | undefined;
  return () =>
    (run ??= limit(async () => {
      const result = await runKit(args);
      dirs.push(result.out);
      return result;
    }));
}

const scriptedAlone = once([SCRIPTED]);
const scriptedWithModel = once(["--env", "SCRIPTED_CLI_OPENAI_BASE={{fixture.openai}}", "--env", "SCRIPTED_CLI_OPENAI_KEY={{fixture.token}}", "--env", "SCRIPTED_CLI_TIMEOUT_MS=3000", SCRIPTED]);
const terse = once(["--mode", "stream-json", "--env", "TERSE_CLI_ANTHROPIC_URL={{fixture.anthropic}}", "--env", "TERSE_CLI_KEY={{fixture.token}}", "--env", "TERSE_CLI_TIMEOUT_MS=3000", TERSE]);
const status = (run: KitRun, id: string): string | undefined => run.report.clauses.find((c) => c.id === id)?.status;

describe.concurrent("good CLIs of other styles", () => {
  it("a scripted CLI that calls no model: no failure, model clauses skipped for one stated reason, verdict incomplete (exit 4)", async () => {
    const run = await scriptedAlone();
    expect(failing(run.report)).toEqual([]);
    expect(run.code).toBe(4);
    expect(run.report.summary.verdict).toBe("incomplete");
    const group = run.report.summary.incomplete.find((g) => g.reason === NO_MODEL_REASON);
    expect(group?.clauses).toEqual(expect.arrayContaining(["agent-cli/input/text-block", "agent-cli/fidelity/streamed-text", "agent-cli/failures/model-stall"]));
    for (const id of MODEL_CLAUSES.filter((c) => !/image|document|unsupported/.test(c))) expect(status(run, id), id).toBe("skip");
    // Its notes name each attachment it cannot read: that is an explicit conversion, judged without a model.
    for (const id of ["image-block", "document-block", "unsupported-block"]) expect(status(run, `agent-cli/input/${id}`), id).toBe("pass");
  }, TEST_TIMEOUT_MS);

  it("the same CLI pointed at the fixture (complete assistant messages, notes before the model's text): conformant", async () => {
    const run = await scriptedWithModel();
    expect(failing(run.report)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report.summary.verdict).toBe("conformant");
    expect(status(run, "agent-cli/fidelity/streamed-text")).toBe("pass");
    expect(status(run, "agent-cli/turns/tool-use")).toBe("not-applicable");
  }, TEST_TIMEOUT_MS);

  it("an Anthropic CLI without system/init, slow, one read-only tool: only the SHOULD init event and the MAY history fail", async () => {
    const run = await terse();
    expect(failing(run.report)).toEqual(["agent-cli/resume/history-restored", "agent-cli/session/init-event"]);
    expect(run.code).toBe(0);
    expect(status(run, "agent-cli/turns/tool-use")).toBe("pass");
    expect(status(run, "agent-cli/input/unsupported-block")).toBe("pass");
  }, TEST_TIMEOUT_MS);
});
