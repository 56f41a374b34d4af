import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPORTERS } from "../../src/reporters/all.js";
import { readAction, type ActionStep as Step } from "../package/action-steps.js";
import { projectBlocks } from "./blocks.js";

/** The composite action third-party adapter repositories use; its shape here, its steps run in test/package/action.test.ts. */
const action = readAction();
const steps = action.runs.steps;
const scripts = steps.flatMap((s) => (s.run === undefined ? [] : [s.run]));

describe("action.yml", () => {
  it("is a composite action with the documented inputs", () => {
    expect(action.runs.using).toBe("composite");
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(["protocol", "candidate", "args", "kit-version", "reporters", "out"]));
    // Needed for a run, not for a merge (GitHub does not enforce `required`; the kit does, exit 2).
    for (const name of ["protocol", "candidate"]) expect(action.inputs[name]?.description, name).toMatch(/unless merge is set/);
    expect(action.inputs.reporters?.default).toBe("console,json,junit,markdown,html,badge,github");
    expect(action.inputs.out?.default).toBe("awp-conformance-reports");
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
  });

  it("exposes verdict and exit-code from its steps", () => {
    expect(Object.keys(action.outputs).sort()).toEqual(["exit-code", "verdict"]);
    expect(action.outputs.verdict?.value).toBe("${{ steps.verdict.outputs.verdict }}");
    expect(action.outputs["exit-code"]?.value).toBe("${{ steps.run.outputs.exit-code }}");
    expect(steps.map((s) => s.id)).toEqual(expect.arrayContaining(["install", "run", "verdict"]));
  });

  it("installs the kit as a package, runs it, publishes the summary and the reports, then fails on a nonzero exit", () => {
    // The job's Node, the kit packed from the checkout or fetched from npm (test/package/action.test.ts runs these steps).
    expect(scripts.some((r) => r.includes("npm ci") && r.includes("npm pack") && r.includes('npm install --prefix "$KIT_HOME"'))).toBe(true);
    expect(scripts.some((r) => /node "\$KIT" run "\$\{config\[@\]\}" "\$\{protocol\[@\]\}" --out "\$OUT" --reporter "\$REPORTERS"/.test(r) && r.includes("set +e"))).toBe(true);
    expect(scripts.some((r) => r.includes("$OUT/report.md") && r.includes("$GITHUB_STEP_SUMMARY"))).toBe(true);
    expect(scripts.some((r) => r.includes("$OUT/report.json") && r.includes("verdict="))).toBe(true);
    const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.with?.path).toBe("${{ steps.run.outputs.out }}");
    const last = steps[steps.length - 1];
    expect(last?.run).toContain("exit 1");
    expect(last?.env?.CODE).toBe("${{ steps.run.outputs.exit-code }}");
  });

  it("knows every verdict of the report schema, and fails an incomplete run (exit 4) with its own message", () => {
    const schema = JSON.parse(readFileSync(new URL("../../schemas/report.schema.json", import.meta.url), "utf8")) as { $defs: { summary: { properties: { verdict: { enum: string[] } } } } };
    const verdicts = schema.$defs.summary.properties.verdict.enum;
    expect(verdicts).toContain("incomplete");
    const read = steps.find((s) => s.id === "verdict")?.run ?? "";
    for (const verdict of verdicts) expect(read).toContain(`"${verdict}"`);
    for (const verdict of verdicts) expect(action.outputs.verdict?.description).toContain(verdict);
    expect(action.outputs["exit-code"]?.description).toMatch(/4 incomplete/);
    const last = steps[steps.length - 1]?.run ?? "";
    expect(last).toMatch(/if \[ "\$CODE" = "4" \]; then\n\s+echo "::error title=awp-conformance::run incomplete/);
    // The step itself: exit 0 passes; 4 and 1 fail the job, each with its message.
    const step = (code: string, verdict: string): { status: number; out: string } => {
      const r = spawnSync("bash", ["-c", last], { env: { PATH: process.env.PATH ?? "", CODE: code, VERDICT: verdict }, encoding: "utf8" });
      return { status: r.status ?? -1, out: r.stdout };
    };
    expect(step("0", "conformant")).toEqual({ status: 0, out: "" });
    expect(step("4", "incomplete")).toMatchObject({ status: 1, out: expect.stringMatching(/^::error title=awp-conformance::run incomplete \(exit 4\)/) });
    expect(step("1", "not-conformant")).toEqual({ status: 1, out: "::error title=awp-conformance::exit code 1 (verdict: not-conformant)\n" });
  });

  it("runs one shard with --shard, or merges the shards' report folders instead of running", () => {
    expect(action.inputs.shard?.description).toMatch(/--shard K\/N/);
    expect(action.inputs.merge?.description).toMatch(/awp-conformance merge/);
    const run = steps.find((s) => s.id === "run");
    expect(run?.env?.SHARD).toBe("${{ inputs.shard }}");
    expect(run?.env?.MERGE).toBe("${{ inputs.merge }}");
    expect(run?.run).toMatch(/if \[ -n "\$SHARD" \]; then shard=\(--shard "\$SHARD"\); fi/);
    expect(run?.run).toMatch(/node "\$KIT" merge "\$\{config\[@\]\}" --out "\$OUT" --reporter "\$REPORTERS" .*"\$\{dirs\[@\]\}"/);
  });

  it("the sharded workflow of docs/reports-and-ci.md parses and gives the action only inputs it has: a 4-way matrix with --shard, then a merge job", () => {
    const doc = readFileSync(new URL("../../docs/reports-and-ci.md", import.meta.url), "utf8");
    expect(doc).toContain("## Sharding across a CI matrix");
    const section = doc.slice(doc.indexOf("## Sharding across a CI matrix"));
    const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    type Job = { needs?: string; if?: string; strategy?: { "fail-fast"?: boolean; matrix?: { shard?: number[] } }; steps: Step[] };
    const workflow = parse(block) as { jobs: Record<string, Job> };
    const jobs = Object.values(workflow.jobs);
    const uses = jobs.flatMap((j) => j.steps.filter((s) => s.uses?.endsWith("/awp-conformance@v1")));
    for (const step of uses) for (const key of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs), key).toContain(key);
    const shards = jobs.find((j) => j.strategy?.matrix?.shard !== undefined);
    expect(shards?.strategy?.matrix?.shard).toEqual([1, 2, 3, 4]);
    expect(shards?.strategy?.["fail-fast"]).toBe(false);
    expect(uses.some((s) => s.with?.shard === "${{ matrix.shard }}/4")).toBe(true);
    const merge = jobs.find((j) => j.needs !== undefined);
    expect(merge?.if).toBe("${{ !cancelled() }}");
    expect(merge?.steps.some((s) => s.with?.merge !== undefined)).toBe(true);
    expect(merge?.steps.some((s) => s.run?.includes("badge.svg"))).toBe(true);
  });

  it("every workflow of README.md and docs/*.md gives the action only inputs it has, and scripts bash can parse", () => {
    type Job = { steps: (Step & { "continue-on-error"?: boolean })[] };
    const workflows = projectBlocks(fileURLToPath(new URL("../../", import.meta.url))).filter((b) => (b.lang === "yaml" || b.lang === "yml") && /^jobs:/m.test(b.body));
    expect(workflows.length).toBeGreaterThanOrEqual(5);
    let uses = 0;
    for (const block of workflows) {
      const workflow = parse(block.body) as { jobs: Record<string, Job> };
      for (const step of Object.values(workflow.jobs).flatMap((j) => j.steps)) {
        const at = `${block.file}:${block.line}`;
        if (step.run !== undefined) expect(() => execFileSync("bash", ["-n"], { input: step.run, stdio: ["pipe", "ignore", "pipe"] }), `${at}: ${step.run}`).not.toThrow();
        if (!(step.uses?.endsWith("/awp-conformance@v1") ?? false)) continue;
        uses += 1;
        for (const key of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs), `${at}: input ${key}`).toContain(key);
      }
    }
    expect(uses).toBeGreaterThanOrEqual(5);
  });

  it("the README's matrix workflow: each adapter checked by the action in a job of its own, then one job builds the matrix of their reports and publishes it", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const heading = "#### One page for every adapter (GitHub Pages)";
    expect(readme).toContain(heading);
    const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(heading)))?.[1] ?? "";
    type Job = { needs?: string; if?: string; permissions?: Record<string, string>; strategy?: { "fail-fast"?: boolean; matrix?: { include?: Record<string, string>[] } }; steps: (Step & { "continue-on-error"?: boolean })[] };
    const jobs = Object.values((parse(block) as { jobs: Record<string, Job> }).jobs);
    const adapters = jobs.find((j) => j.strategy?.matrix?.include !== undefined);
    expect(adapters?.strategy?.["fail-fast"]).toBe(false);
    for (const entry of adapters?.strategy?.matrix?.include ?? []) expect(Object.keys(entry)).toEqual(expect.arrayContaining(["name", "candidate"]));
    const check = adapters?.steps.find((s) => s.uses?.endsWith("/awp-conformance@v1"));
    // One artifact per adapter, named after it: the page job's folders, so the matrix's column names.
    expect(check?.with).toMatchObject({ candidate: "${{ matrix.candidate }}", "artifact-name": "${{ matrix.name }}" });
    expect(check?.["continue-on-error"]).toBe(true);
    const page = jobs.find((j) => j.needs !== undefined);
    expect(page?.if).toBe("${{ !cancelled() }}");
    expect(page?.permissions).toEqual({ pages: "write", "id-token": "write" });
    const steps = page?.steps ?? [];
    const at = (pred: (s: Step) => boolean): number => steps.findIndex(pred);
    // The kit at the action's ref, installed (npm ci builds a clone) before it runs.
    const kit = at((s) => s.uses?.startsWith("actions/checkout@") === true && s.with?.repository === "OWNER/awp-conformance");
    expect(steps[kit]?.with).toMatchObject({ ref: "v1", path: "awp-conformance" });
    expect(steps[kit + 1]).toMatchObject({ run: expect.stringMatching(/^npm ci\b/), "working-directory": "awp-conformance" });
    const download = at((s) => s.uses?.startsWith("actions/download-artifact@") === true);
    expect(steps[download]?.with?.path).toBe("adapters");
    // Only the reports that exist: an adapter whose run wrote none must not stop the page.
    const matrix = at((s) => s.run?.includes(" matrix ") === true);
    expect(steps[matrix]?.run).toBe("node awp-conformance/dist/src/cli/main.js matrix adapters/*/report.json --out site");
    expect(kit).toBeLessThan(matrix);
    expect(download).toBeLessThan(matrix);
    const publish = at((s) => s.uses?.startsWith("actions/upload-pages-artifact@") === true);
    expect(steps[publish]?.with?.path).toBe("site");
    expect(matrix).toBeLessThan(publish);
    expect(steps.some((s) => s.uses?.startsWith("actions/deploy-pages@") === true)).toBe(true);
  });

  it("never expands inputs inside a script (no script injection): they arrive as environment variables", () => {
    for (const script of scripts) expect(script).not.toContain("${{");
  });

  it("has scripts bash can parse", () => {
    for (const step of steps.filter((s) => s.run !== undefined)) {
      expect(step.shell, step.name).toBe("bash");
      expect(() => execFileSync("bash", ["-n"], { input: step.run, stdio: ["pipe", "ignore", "pipe"] }), step.name).not.toThrow();
    }
  });

  it("asks only for reporters the kit knows, whose files it names", () => {
    for (const name of (action.inputs.reporters?.default ?? "").split(",")) expect(Object.keys(REPORTERS), name).toContain(name);
    const files = Object.values(REPORTERS).flatMap((outputs) => outputs.flatMap((o) => (o.file === undefined ? [] : [o.file])));
    expect(files).toEqual(expect.arrayContaining(["report.json", "report.md"]));
  });
});
