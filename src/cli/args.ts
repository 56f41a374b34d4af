import { KitError } from "../core/errors.js";
// The limits and the bounded reader alone: the inputs index also loads the JSON Schema validator, which
// every command module would then pay at start-up.
import { formatBytes, INPUT_LIMITS, type InputKind } from "../core/inputs/limits.js";
import { readInputFile } from "../core/inputs/read.js";

/** An option's flag name from its camelCase key (yargs' second spelling): invalidConfigFile is invalid-config-file. */
export const kebabCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Repeated and comma-separated option values as one flat list. */
export const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) => String(v).split(",")).map((v) => v.trim()).filter((v) => v !== "");

/** All of a stream, within the limit of `kind` (stdin given as "-"). */
export async function readAll(stream: NodeJS.ReadableStream, kind: InputKind = "request"): Promise<Buffer> {
  const { maxBytes, what } = INPUT_LIMITS[kind];
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    chunks.push(Buffer.from(chunk as Uint8Array));
    total += (chunk as Uint8Array).length;
    if (total > maxBytes) throw new KitError("usage", `stdin: more than ${formatBytes(maxBytes)}, the ${what} limit`);
  }
  return Buffer.concat(chunks);
}

/** A regular file within the limit of `kind`; anything else is a usage error naming the path. */
export function readFileOrFail(path: string, kind: InputKind = "request"): Buffer {
  return readInputFile(path, kind);
}

export function colorWanted(): boolean {
  return process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
}

/** Candidate and its arguments from positionals and what follows `--`. */
export function candidateOf(args: { candidate?: string; args?: unknown; "--"?: unknown }): { candidate?: string; rest: string[] } {
  const after = ((args["--"] as unknown[] | undefined) ?? []).map(String);
  const positional = (Array.isArray(args.args) ? args.args : []).map(String);
  const candidate = args.candidate ?? after.shift();
  return { ...(candidate !== undefined ? { candidate } : {}), rest: [...positional, ...after] };
}

/** What yargs tells a check of the options it knows: every declared one, and those that take many values. */
interface DeclaredOptions {
  key?: Record<string, unknown>;
  array?: string[];
}

/**
 * A yargs check: an option that takes one value, given more than once, is a usage error at
 * once. yargs would pass the values on as a list, and a command would find out late (the
 * output directory of a run is only used when the report is written).
 */
export function oneValueEach(argv: Record<string, unknown>, options: DeclaredOptions): true {
  const many = new Set(options.array ?? []);
  for (const [name, value] of Object.entries(argv)) {
    if (!Array.isArray(value) || many.has(name) || options.key?.[name] === undefined) continue;
    throw new KitError("usage", `--${name} was given ${value.length} times (${value.map((v) => JSON.stringify(String(v))).join(", ")}): it takes one value`);
  }
  return true;
}
