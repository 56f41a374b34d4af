/**
 * What `awp-conformance init` writes, from its answers (flags or the terminal's): the
 * configuration, for a provider an invalid-configs file and a policy-tests.yaml skeleton, and a
 * GitHub workflow. A candidate that is one of the kit's bundled examples gets that example's
 * configurations, so the files it writes pass `run` as they are. Nothing is overwritten unless
 * asked (--force); every file is checked before the first is written.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { KitError } from "../core/errors.js";
import { packageRoot } from "../core/paths.js";
import { bundledCandidates, type BundledCandidate } from "../cli/bundled.js";
import { configYaml, invalidConfigsJson, policyTestsYaml, workflowYaml } from "./templates.js";
import { CONFIG_NAMES, CONFIG_SCHEMA } from "./types.js";

export interface InitAnswers {
  protocol: "provider" | "agent-cli";
  /** The executable (a path, or a name looked up on PATH) and its arguments, as given. */
  command: string[];
  name?: string;
  /** The folder the configuration goes to. */
  dir: string;
  configFile?: string;
  invalidConfigFile?: string;
  mode?: string;
  model?: string;
  env?: Record<string, string>;
}

export interface InitFile {
  path: string;
  text: string;
}

/**
 * A path as written in a file of `dir`: relative ("./" first when it does not climb) when it is
 * in the same repository (or under `dir`), so the files travel with it; absolute otherwise.
 */
function fromDir(dir: string, path: string): string {
  const base = repositoryRoot(dir) ?? dir;
  if (relative(base, path).startsWith("..") || isAbsolute(relative(base, path))) return path;
  const rel = relative(dir, path).split(sep).join("/");
  return rel.startsWith("../") || rel === ".." ? rel : `./${rel}`;
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The bundled example the candidate is, if it is one (same file, protocol and mode). */
export function bundledMatch(answers: InitAnswers, cwd: string): BundledCandidate | undefined {
  const executable = answers.command[0];
  if (executable === undefined || !executable.includes("/")) return undefined;
  const path = real(resolve(cwd, executable));
  if (path === undefined) return undefined;
  const mode = answers.protocol === "agent-cli" ? (answers.mode ?? "awp-jsonl") : undefined;
  return bundledCandidates().find((c) => c.protocol === answers.protocol && c.mode === mode && c.argv[0] !== undefined && real(c.argv[0]) === path);
}

/** The schema for the editor line: the installed package's near the folder, the kit's own when the folder is in its checkout. */
function schemaPath(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    const installed = join(current, "node_modules", "awp-conformance", "schemas", CONFIG_SCHEMA);
    if (existsSync(installed)) return fromDir(dir, installed);
    if (dirname(current) === current) break;
  }
  const root = packageRoot();
  const inKit = !relative(root, dir).startsWith("..") && !isAbsolute(relative(root, dir));
  return inKit ? fromDir(dir, join(root, "schemas", CONFIG_SCHEMA)) : `./node_modules/awp-conformance/schemas/${CONFIG_SCHEMA}`;
}

/** The repository the folder is in (its .git), if any. */
function repositoryRoot(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, ".git"))) return current;
    if (dirname(current) === current) return undefined;
  }
}

function jsonFile(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8")) as unknown;
}

function objectOr(value: unknown, fallback: Record<string, unknown>): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : fallback;
}

/** A name the configuration accepts, from the candidate's file name. */
export function defaultName(executable: string): string {
  const stem = basename(executable, extname(executable)).replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 64);
  return stem === "" ? "candidate" : stem;
}

/** The files init writes for these answers. */
export function initFiles(answers: InitAnswers, cwd: string = process.cwd()): InitFile[] {
  const dir = resolve(cwd, answers.dir);
  const bundled = bundledMatch(answers, cwd);
  const [executable = "", ...args] = answers.command;
  const command = [executable.includes("/") ? fromDir(dir, resolve(cwd, executable)) : executable, ...args];
  const name = answers.name ?? bundled?.name ?? defaultName(executable);
  const files: InitFile[] = [];
  let validConfig: Record<string, unknown> = {};
  const base = { schemaPath: schemaPath(dir), name, protocol: answers.protocol, command };
  if (answers.protocol === "provider") {
    const given = answers.configFile !== undefined ? resolve(cwd, answers.configFile) : undefined;
    validConfig = objectOr(given !== undefined ? safeJson(given) : bundled?.configFile !== undefined ? jsonFile(bundled.configFile) : {}, {});
    const invalid = answers.invalidConfigFile !== undefined ? fromDir(dir, resolve(cwd, answers.invalidConfigFile)) : undefined;
    files.push({
      path: join(dir, CONFIG_NAMES[0] ?? "awp-conformance.config.yaml"),
      text: configYaml({ ...base, ...(given !== undefined ? { configFile: fromDir(dir, given) } : { config: validConfig }), ...(invalid !== undefined ? { invalidConfigFile: invalid } : {}) }),
    });
    if (invalid === undefined) {
      const known = bundled?.invalidConfigFile !== undefined ? (jsonFile(bundled.invalidConfigFile) as unknown[]) : undefined;
      files.push({ path: join(dir, "invalid-configs.json"), text: invalidConfigsJson(known) });
    }
    files.push({ path: join(dir, "policy-tests.yaml"), text: policyTestsYaml(validConfig, bundled !== undefined) });
  } else {
    const env = answers.env ?? (bundled?.env !== undefined ? Object.fromEntries(bundled.env.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)])) : undefined);
    files.push({
      path: join(dir, CONFIG_NAMES[0] ?? "awp-conformance.config.yaml"),
      text: configYaml({ ...base, mode: answers.mode ?? "awp-jsonl", ...(answers.model !== undefined ? { model: answers.model } : {}), ...(env !== undefined ? { env } : {}) }),
    });
  }
  const repo = repositoryRoot(dir) ?? dir;
  const folder = relative(repo, dir).split(sep).join("/");
  files.push({
    path: join(repo, ".github", "workflows", "awp-conformance.yml"),
    text: workflowYaml({ folder, protocol: answers.protocol, ...(answers.protocol === "provider" ? { policyTest: { cases: "policy-tests.yaml", command } } : {}) }),
  });
  return files;
}

function safeJson(path: string): unknown {
  try {
    return jsonFile(path);
  } catch (error) {
    throw new KitError("usage", `--config-file ${path}: ${error instanceof SyntaxError ? "not valid JSON" : "cannot be read"} (${(error as Error).message})`);
  }
}

/** The files of the list that exist already. */
export function existing(files: readonly InitFile[]): string[] {
  return files.filter((file) => existsSync(file.path)).map((file) => file.path);
}

/** Writes the files; one that exists is a usage error (nothing written) unless `force`. */
export function writeInitFiles(files: readonly InitFile[], force: boolean): void {
  const there = existing(files);
  if (there.length > 0 && !force) {
    throw new KitError("usage", `init would overwrite ${there.join(", ")}: nothing was written; give --force to overwrite, or --dir for another folder`);
  }
  for (const file of files) {
    try {
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, file.text);
    } catch (error) {
      throw new KitError("usage", `cannot write ${file.path}: ${(error as Error).message}`);
    }
  }
}
