/**
 * init on a terminal: asks for what the flags did not give. `Ask` is the question-and-answer
 * function (node:readline on a terminal, a list of answers in the tests).
 */
import { KitError } from "../core/errors.js";
import { defaultName, type InitAnswers } from "./init.js";

/** Asks one question; an empty answer takes `fallback` when there is one. */
export type Ask = (question: string) => Promise<string>;

const TRIES = 3;

async function askUntil(ask: Ask, question: string, fallback: string | undefined, valid: (answer: string) => boolean, what: string): Promise<string> {
  for (let i = 0; i < TRIES; i++) {
    const answer = (await ask(`${question}${fallback !== undefined ? ` [${fallback}]` : ""}: `)).trim();
    const value = answer === "" && fallback !== undefined ? fallback : answer;
    if (valid(value)) return value;
  }
  throw new KitError("usage", `init: no ${what} after ${TRIES} tries`);
}

/** Splits an argument line on white space (quotes group words; no other shell syntax). */
export function splitArgs(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

/** The answers, asking for those the flags left out. */
export async function askMissing(given: Partial<InitAnswers> & { dir: string }, ask: Ask): Promise<InitAnswers> {
  const protocol = given.protocol ?? ((await askUntil(ask, "Protocol of the candidate (provider or agent-cli)", "provider", (a) => a === "provider" || a === "agent-cli", "protocol")) as InitAnswers["protocol"]);
  let command = given.command;
  if (command === undefined || command.length === 0) {
    const executable = await askUntil(ask, "The candidate's executable (a path, or a command on PATH)", undefined, (a) => a !== "", "executable");
    command = [executable, ...splitArgs(await ask("Its arguments (empty for none): "))];
  }
  const name = given.name ?? (await askUntil(ask, "Name of the candidate", defaultName(command[0] ?? ""), (a) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(a), "name"));
  const answers: InitAnswers = { ...given, protocol, command, name };
  if (protocol === "provider" && given.configFile === undefined) {
    const file = (await ask("A JSON file with the provider's valid configuration (empty: write one in the config): ")).trim();
    if (file !== "") answers.configFile = file;
  }
  if (protocol === "agent-cli" && given.mode === undefined) {
    answers.mode = await askUntil(ask, "Mode (awp-jsonl or stream-json)", "awp-jsonl", (a) => a === "awp-jsonl" || a === "stream-json", "mode");
  }
  return answers;
}
