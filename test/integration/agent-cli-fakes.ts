import { chmodSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report/types.js";
import type { AgentCliCase } from "./agent-cli-faults.js";
import { failing, ROOT, runCli, tempDir } from "./cli.js";

export const FAKE = join(ROOT, "dist/src/mocks/agent-cli.js");
export const REFERENCE = join(ROOT, "examples/reference-agent-cli/agent-cli.mjs");
export const MODES = ["awp-jsonl", "stream-json"] as const;
export type Mode = (typeof MODES)[number];

/** The environment the reference (and so the fake) needs, as src/cli/bundled.ts gives it. */
export const REFERENCE_ENV: Readonly<Record<string, string>> = {
  AWP_REFERENCE_API_BASE_URL: "{{fixture.openai}}",
  AWP_REFERENCE_API_KEY: "{{fixture.token}}",
  AWP_REFERENCE_TIMEOUT_MS: "2000",
  // The managed-task bridge on, with the contract's names; a slow control plane is given up after
  // 3 s (1 s was too short for the kit's own fixture on a loaded box: the fake gave its model a
  // control-plane timeout instead of the task's result, and result-framing failed a good CLI).
  AWP_AGENT_MANAGED_TASKS_OPT_IN: "1",
  AWP_CONTROL_PLANE_URL: "{{fixture.controlplane}}",
  AWP_CONTROL_PLANE_API_KEY: "{{fixture.controlplane_token}}",
  AWP_REFERENCE_CONTROL_PLANE_TIMEOUT_MS: "3000",
};
const ENV_FLAGS = Object.entries(REFERENCE_ENV).flatMap(([name, value]) => ["--env", `${name}=${value}`]);

/** The quiet window of cases that do not judge it (the default 3000 ms would add that much to every basic run). */
export const SHORT_QUIET_WINDOW = ["--quiet-window", "300"];

/** Every kit run waits for the candidate more than it computes; a few at once keep a 2-core box busy without starving timing. */
export const RUNS_PER_FILE = 3;
/** Per test: the wait for a free slot plus the run itself. */
export const TEST_TIMEOUT_MS = 150_000;

export type Pool = <T>(task: () => Promise<T>, options?: { alone?: boolean }) => Promise<T>;

/**
 * Runs at most `size` tasks at once, first come first served; a task asked to run `alone`
 * waits until the running ones finished and keeps every other task waiting meanwhile.
 */
export function pool(size: number): Pool {
  let free = size;
  const waiting: { need: number; start: () => void }[] = [];
  const next = (): void => {
    while (waiting.length > 0 && (waiting[0] as { need: number }).need <= free) {
      const head = waiting.shift() as { need: number; start: () => void };
      free -= head.need;
      head.start();
    }
  };
  return async (task, options = {}) => {
    const need = options.alone === true ? size : 1;
    await new Promise<void>((start) => {
      waiting.push({ need, start });
      next();
    });
    try {
      return await task();
    } finally {
      free += need;
      next();
    }
  };
}

export interface KitRun {
  code: number;
  report: RunReport;
  /** report.json as written. */
  text: string;
  ms: number;
}

/**
 * Runs `awp-conformance run --protocol agent-cli --out <fresh dir> --reporter json ...args` (the
 * built kit) and reads the report it wrote; reportDir says where report.json is under --out.
 * `protocol` replaces `--protocol agent-cli` (a run of the bundled examples gives none).
 */
export async function runKit(args: string[], env: Record<string, string> = {}, reportDir: (out: string) => string = (out) => out, protocol: string[] = ["--protocol", "agent-cli"]): Promise<KitRun & { out: string }> {
  const out = tempDir("awp-agent-cli-fake-");
  const started = performance.now();
  const result = await runCli(["run", ...protocol, "--out", out, "--reporter", "json", ...args], { env });
  const ms = performance.now() - started;
  let text: string;
  try {
    text = readFileSync(join(reportDir(out), "report.json"), "utf8");
  } catch {
    throw new Error(`no report.json (exit ${result.code}): ${result.stderr.slice(0, 2000)}`);
  }
  return { code: result.code, report: JSON.parse(text) as RunReport, text, ms, out };
}

/** The command line and kit environment that launch the candidate of a case. */
function launchOf(c: AgentCliCase, dir: string): { args: string[]; env: Record<string, string> } {
  const faultArgs = c.fault !== undefined ? ["--", "--fault", c.fault] : [];
  const fromEnv = (executable: string): { args: string[]; env: Record<string, string> } => ({
    args: ["--from-env"],
    env: {
      AWP_AGENT_CLI_EXECUTABLE: executable,
      AWP_AGENT_CLI_PROTOCOL: c.protocol ?? "awp-jsonl",
      AWP_AGENT_CLI_ENV_JSON: JSON.stringify(REFERENCE_ENV),
      AWP_AGENT_CLI_ARGS_JSON: JSON.stringify(c.fault !== undefined ? ["--fault", c.fault] : []),
    },
  });
  switch (c.launch ?? "fake") {
    case "from-env-relative":
      // runCli runs the kit in ROOT, so this relative path names the fake.
      return fromEnv(relative(ROOT, FAKE));
    case "from-env":
      return fromEnv(FAKE);
    case "copy-0644": {
      const copy = join(dir, "agent-cli-fake-copy.mjs");
      writeFileSync(copy, `#!/usr/bin/env node\nimport ${JSON.stringify(pathToFileURL(FAKE).href)};\n`);
      chmodSync(copy, 0o644);
      // Given on the command line, a file the kit cannot start is a usage error (exit 2, before any
      // launch); configured as the Desktop would be (AWP_AGENT_CLI_*), it is this clause's finding.
      return fromEnv(copy);
    }
    case "symlink": {
      const link = join(dir, "agent-cli-fake-link.mjs");
      symlinkSync(FAKE, link);
      return { args: [...ENV_FLAGS, link, ...faultArgs], env: {} };
    }
    case "fake":
      return { args: [...ENV_FLAGS, FAKE, ...faultArgs], env: {} };
  }
}

/** Rough run time, so the long cases start first and the pool drains evenly; runs that need the pool alone go last. */
function weight(c: AgentCliCase): number {
  if (c.alone === true) return 0;
  const long: Record<string, number> = { "sigterm-idle": 6, "sigterm-mid-turn": 6, "failures-error": 2, "failures-stall": 3, shutdown: 3, "managed-tasks": 4 };
  return Math.max(1, ...c.scenarios.map((s) => long[s] ?? 1)) + (c.options?.includes("--turn-timeout") ? 3 : 0) + (c.options?.includes("--quiet-window") ? 3 : 0);
}

/**
 * The modes a case runs in: its own, both when asked, else one, alternating along the table
 * so that each mode runs about half the cases (the fake behaves alike in both).
 */
function modesOf(c: AgentCliCase, at: number, both: boolean): readonly Mode[] {
  return c.modes ?? (both ? MODES : [MODES[at % MODES.length] as Mode]);
}

/**
 * For every case, in its modes (modesOf): runs the built kit against the fake and asserts the
 * exact failing clauses and exit code, that the report never shows a secret, and (separately)
 * that every finding of a failing clause carries evidence.
 */
export function agentCliCaseTests(title: string, cases: readonly AgentCliCase[], runsAtOnce = RUNS_PER_FILE, both = false): void {
  const dirs: string[] = [];
  const limit = pool(runsAtOnce);
  const runs = new Map<string, Promise<KitRun>>();
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const runOf = (c: AgentCliCase, mode: Mode): Promise<KitRun> => {
    const key = `${c.name}/${mode}`;
    let run = runs.get(key);
    if (run === undefined) {
      run = limit(async () => {
        const dir = tempDir("awp-agent-cli-launch-");
        dirs.push(dir);
        const { args, env } = launchOf(c, dir);
        const quiet = c.alone === true || c.options?.includes("--quiet-window") === true ? [] : SHORT_QUIET_WINDOW;
        const result = await runKit(
          ["--mode", mode, ...c.scenarios.flatMap((s) => ["--scenario", s]), ...quiet, ...(c.options ?? []), ...args],
          { AWP_AGENT_REMOTE_API_OPT_IN: "0", ...c.kitEnv, ...env },
        );
        dirs.push(result.out);
        return result;
      }, { alone: c.alone === true });
      runs.set(key, run);
    }
    return run;
  };

  const modes = new Map(cases.map((c, at) => [c, modesOf(c, at, both)]));
  const ordered = [...cases].sort((a, b) => weight(b) - weight(a));
  describe.concurrent(title, () => {
    for (const c of ordered) {
      for (const mode of modes.get(c) ?? MODES) {
        it(`${c.name} (${mode}) fails exactly ${c.fails.join(", ")}, each finding with evidence; the report shows no secret`, async () => {
          const { code, report, text } = await runOf(c, mode);
          expect(report.mode).toBe(mode);
          expect(failing(report)).toEqual([...c.fails].sort());
          for (const [id, reason] of Object.entries(c.skips ?? {})) {
            const skipped = report.clauses.find((clause) => clause.id === id);
            expect([id, skipped?.status]).toEqual([id, "skip"]);
            expect(skipped?.reason, id).toMatch(reason);
          }
          const levels = new Map(report.clauses.map((clause) => [clause.id, clause.level]));
          const mustFails = c.fails.some((id) => levels.get(id) === "MUST");
          // Cases that run only some scenarios leave the others' MUST clauses unjudged: incomplete (exit 4).
          const mustSkipped = report.clauses.some((clause) => clause.status === "skip" && clause.level === "MUST");
          expect(code).toBe(mustFails ? 1 : mustSkipped ? 4 : 0);
          expect(report.summary.verdict).toBe(mustFails ? "not-conformant" : mustSkipped ? "incomplete" : "conformant");
          expect(report.options.fixtureToken).toBe(true);
          expect(text).not.toContain("sk-awp-");
          expect(text).not.toMatch(/awp-cp-[0-9a-f]{48}/);
          for (const secret of c.secrets ?? []) expect(text).not.toContain(secret);
          // Every finding of a failing clause carries evidence (and what the case says it quotes).
          for (const clause of report.clauses.filter((r) => r.status === "fail")) {
            expect(clause.findings.length, clause.id).toBeGreaterThan(0);
            for (const f of clause.findings) expect(f.evidence?.length ?? 0, `${clause.id}: ${f.message}`).toBeGreaterThan(0);
            for (const f of clause.findings) if (c.says !== undefined) expect(f.message, clause.id).toContain(c.says);
          }
        }, TEST_TIMEOUT_MS);
      }
    }
  });
}
