import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll } from "vitest";
import type { RunReport } from "../../src/core/report/types.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const CLI = join(ROOT, "dist/src/cli/main.js");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the BUILT command line (npm test builds first), never through a shell. */
export async function runCli(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<CliResult> {
  const result = await execa(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    reject: false,
    stripFinalNewline: false,
    timeout: 120_000,
    ...(options.input !== undefined ? { input: options.input } : {}),
    env: { NO_COLOR: "1", ...options.env },
  });
  return { code: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

export function tempDir(prefix = "awp-conformance-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function readReport(dir: string): RunReport {
  return JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as RunReport;
}

export function failing(report: RunReport): string[] {
  return report.clauses.filter((c) => c.status === "fail").map((c) => c.id).sort();
}

/** A temp-dir factory for one test file; every folder it made is removed after the file's tests. */
export function useTempDirs(prefix?: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
}
