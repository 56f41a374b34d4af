/** `awp-conformance init` as a function: flags in, files written, what to do next printed. */
import { createInterface } from "node:readline";
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { KitError } from "../core/errors.js";
import { bundledMatch, existing, initFiles, writeInitFiles, type InitAnswers } from "./init.js";
import { askMissing, type Ask } from "./prompt.js";

export interface InitFlags {
  protocol?: InitAnswers["protocol"];
  candidate?: string;
  args: string[];
  name?: string;
  dir: string;
  force: boolean;
  configFile?: string;
  invalidConfigFile?: string;
  mode?: string;
  model?: string;
  env?: string[];
}

export interface InitIo {
  /** Asks on the terminal; undefined when there is none (then every answer must be a flag). */
  ask?: Ask;
  print: (text: string) => void;
  cwd: string;
}

/** A question on the terminal (stderr), "" once the input ends (Ctrl-D) and an error after that. */
function terminalAsk(): Ask {
  let ended = false;
  return (question) =>
    new Promise((resolve, reject) => {
      if (ended) {
        reject(new KitError("usage", "init: the terminal input ended"));
        return;
      }
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      let answered = false;
      rl.on("SIGINT", () => {
        ended = true;
        rl.close();
      });
      rl.on("close", () => {
        if (!answered) ended = true;
        if (ended && !answered) reject(new KitError("usage", "init: stopped at a question, nothing was written"));
      });
      rl.question(question, (line) => {
        answered = true;
        rl.close();
        resolve(line);
      });
    });
}

function envRecord(pairs: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new KitError("usage", `--env ${pair}: expected NAME=VALUE`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

/** The options that belong to the other protocol, given: a usage error naming them. */
function checkProtocolOptions(flags: InitFlags, protocol: InitAnswers["protocol"]): void {
  const wrong = protocol === "provider"
    ? [flags.mode !== undefined && "--mode", flags.model !== undefined && "--model", flags.env !== undefined && "--env"]
    : [flags.configFile !== undefined && "--config-file", flags.invalidConfigFile !== undefined && "--invalid-config-file"];
  const named = wrong.filter((w): w is string => typeof w === "string");
  if (named.length > 0) throw new KitError("usage", `${named.join(", ")} ${named.length === 1 ? "does" : "do"} not apply to ${protocol === "provider" ? "a provider" : "an agent-cli"} candidate`);
}

/** Runs init; 0 when the files were written. */
export async function runInit(flags: InitFlags, io: InitIo = defaultIo()): Promise<number> {
  const given: Partial<InitAnswers> & { dir: string } = {
    dir: flags.dir,
    ...(flags.protocol !== undefined ? { protocol: flags.protocol } : {}),
    ...(flags.candidate !== undefined ? { command: [flags.candidate, ...flags.args] } : {}),
    ...(flags.name !== undefined ? { name: flags.name } : {}),
    ...(flags.configFile !== undefined ? { configFile: flags.configFile } : {}),
    ...(flags.invalidConfigFile !== undefined ? { invalidConfigFile: flags.invalidConfigFile } : {}),
    ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.env !== undefined ? { env: envRecord(flags.env) } : {}),
  };
  if (flags.candidate === undefined && flags.args.length > 0) throw new KitError("usage", "arguments after -- are the candidate's: give --candidate too");
  if (flags.name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(flags.name)) throw new KitError("usage", "--name takes letters, digits, '.', '_' and '-' (it names the report folder)");
  let answers: InitAnswers;
  if (given.protocol !== undefined && given.command !== undefined) answers = { ...given, protocol: given.protocol, command: given.command };
  else if (io.ask !== undefined) answers = await askMissing(given, io.ask);
  else throw new KitError("usage", `init needs ${[given.protocol === undefined && "--protocol provider|agent-cli", given.command === undefined && "--candidate PATH"].filter(Boolean).join(" and ")} when not on a terminal`);
  checkProtocolOptions(flags, answers.protocol);
  for (const [flag, path] of [["--config-file", answers.configFile], ["--invalid-config-file", answers.invalidConfigFile]] as const) {
    if (path !== undefined && !existsSync(resolve(io.cwd, path))) throw new KitError("usage", `${flag} ${path}: no such file (looked at ${resolve(io.cwd, path)})`);
  }
  const files = initFiles(answers, io.cwd);
  let force = flags.force;
  const there = existing(files);
  if (there.length > 0 && !force && io.ask !== undefined) {
    const answer = await io.ask(`These files exist: ${there.map((p) => relative(io.cwd, p) || p).join(", ")}. Overwrite them? [y/N] `);
    force = /^y(es)?$/i.test(answer.trim());
    if (!force) throw new KitError("usage", "init: nothing was written (the files exist; --force overwrites them)");
  }
  writeInitFiles(files, force);
  const shown = files.map((f) => `  ${relative(io.cwd, f.path) || f.path}`);
  const config = relative(io.cwd, files[0]?.path ?? "") || ".";
  io.print([
    "awp-conformance init wrote:",
    ...shown,
    "Next:",
    `  npx awp-conformance run${config === "awp-conformance.config.yaml" ? "" : ` --config ${config}`}      # checks the candidate through the configuration`,
    ...nextSteps(answers, io.cwd),
    "  the workflow needs awp-conformance in the project's devDependencies: npm install --save-dev awp-conformance",
    "",
  ].join("\n"));
  return 0;
}

/** What is left for the user to do: build a candidate not there yet; write a provider's own configurations, a CLI's model endpoint (nothing for a bundled example). */
function nextSteps(answers: InitAnswers, cwd: string): string[] {
  const executable = answers.command[0] ?? "";
  const steps = executable.includes("/") && !existsSync(resolve(cwd, executable)) ? [`  build the candidate: ${executable} does not exist yet (run checks it first)`] : [];
  if (bundledMatch(answers, cwd) !== undefined) return steps;
  if (answers.protocol === "provider") return [...steps, "  edit invalid-configs.json and policy-tests.yaml to hold your provider's own configurations and decisions"];
  return answers.env === undefined ? [...steps, "  set the CLI's model endpoint in env: (see the comments in the configuration)"] : steps;
}

function defaultIo(): InitIo {
  const tty = process.stdin.isTTY === true && process.stderr.isTTY === true;
  return { ...(tty ? { ask: terminalAsk() } : {}), print: (text) => process.stdout.write(text), cwd: process.cwd() };
}
