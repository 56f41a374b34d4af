import { readFileSync } from "node:fs";
import { KitError } from "../core/errors.js";

/** Repeated and comma-separated option values as one flat list. */
export const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) => String(v).split(",")).map((v) => v.trim()).filter((v) => v !== "");

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export function readFileOrFail(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new KitError("usage", `cannot read ${path}: ${(error as Error).message}`);
  }
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
