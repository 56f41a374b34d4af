/**
 * Runs the `run:` steps of the composite action (action.yml) as a GitHub runner would, for tests:
 * each step's env: and working-directory: expressions are evaluated (inputs with their defaults,
 * github.*, steps.ID.outputs.NAME), the script runs in bash with GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, and the outputs it writes become steps.ID.outputs. `uses:` steps
 * (setup-node, cache, upload-artifact) are not run; the tests say which steps to run.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export interface ActionStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  "working-directory"?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

export interface ActionFile {
  name: string;
  inputs: Record<string, { required?: boolean; default?: string; description: string }>;
  outputs: Record<string, { value: string; description: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export const actionPath = new URL("../../action.yml", import.meta.url);

/** action.yml, parsed. */
export function readAction(): ActionFile {
  return parse(readFileSync(actionPath, "utf8")) as ActionFile;
}

/** Every `${{ ... }}` expression in a string, trimmed. */
export function expressions(text: string): string[] {
  return [...text.matchAll(/\$\{\{\s*(.*?)\s*\}\}/g)].map((m) => m[1] ?? "");
}

export interface StepResult {
  status: number;
  stdout: string;
  stderr: string;
}

export interface Job {
  /** The runner's context: workspace, action path, temp folder. */
  workspace: string;
  actionDir: string;
  temp: string;
  /** Inputs given in `with:`; the others take their defaults. */
  with: Record<string, string>;
  /** Extra environment for every step (e.g. npm settings). */
  env?: Record<string, string>;
}

/** A job that runs the action's steps one at a time, keeping their outputs. */
export class ActionRun {
  readonly outputs: Record<string, Record<string, string>> = {};
  readonly summary: string;
  private readonly action = readAction();

  constructor(private readonly job: Job) {
    this.summary = join(job.temp, "step-summary.md");
    writeFileSync(this.summary, "");
  }

  /** The value of one expression of the forms action.yml uses. */
  evaluate(expr: string): string {
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input !== null) {
      const name = input[1] ?? "";
      const declared = this.action.inputs[name];
      if (declared === undefined) throw new Error(`action.yml uses input ${name}, which it does not declare`);
      return this.job.with[name] ?? declared.default ?? "";
    }
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output !== null) return this.outputs[output[1] ?? ""]?.[output[2] ?? ""] ?? "";
    const context: Record<string, string> = {
      "github.workspace": this.job.workspace,
      "github.action_path": this.job.actionDir,
      "github.action_repository": "",
      "github.action_ref": "",
    };
    const value = context[expr];
    if (value === undefined) throw new Error(`the test runner does not know the expression ${expr}`);
    return value;
  }

  private substitute(text: string): string {
    return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => this.evaluate(expr));
  }

  /** Runs the step with this id (or name), bounded; its GITHUB_OUTPUT lines become its outputs. */
  step(key: string, timeout = 120_000): StepResult {
    const step = this.action.runs.steps.find((s) => s.id === key || s.name === key);
    if (step?.run === undefined) throw new Error(`no run: step ${key} in action.yml`);
    const output = join(this.job.temp, `output-${key.replace(/\W/g, "_")}`);
    writeFileSync(output, "");
    // The runner's environment passes through (PATH, HOME, proxy and CA settings for npm), as on a runner.
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...this.job.env,
      GITHUB_WORKSPACE: this.job.workspace,
      GITHUB_ACTION_PATH: this.job.actionDir,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: this.summary,
      RUNNER_TEMP: this.job.temp,
      RUNNER_OS: "Linux",
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = this.substitute(String(value));
    const cwd = step["working-directory"] === undefined ? this.job.workspace : this.substitute(step["working-directory"]);
    // The runner's own bash invocation for `shell: bash`.
    const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run], { cwd, env, encoding: "utf8", timeout, maxBuffer: 16 * 1024 * 1024 });
    const outputs: Record<string, string> = {};
    for (const line of readFileSync(output, "utf8").split("\n")) {
      const eq = line.indexOf("=");
      if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
    }
    if (step.id !== undefined) this.outputs[step.id] = outputs;
    appendFileSync(join(this.job.temp, "log"), `== ${key} (${r.status})\n${r.stdout}${r.stderr}`);
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }
}
