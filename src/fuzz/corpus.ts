/**
 * The fuzz corpus (--corpus DIR): replay files of the cases worth keeping, read back and run
 * first on the next campaign. Files are named by a hash of their case, written under a
 * temporary name and renamed into place, so several shards may share one folder: the same
 * case is one file, and no reader ever sees half of one.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KitError } from "../core/errors.js";
import { MiB } from "../core/inputs/index.js";
import { readReplay, type ReplayFile } from "./replay.js";

/** What one campaign reads of a corpus (in name order) and the most files a folder is grown to. */
export const CORPUS_LIMITS = { maxFiles: 1000, maxBytes: 64 * MiB } as const;

export interface CorpusEntry {
  /** Where it was read from. */
  path: string;
  file: ReplayFile;
}

const NAME = /^(provider|agent-cli)-[0-9a-f]{16}\.json$/;

/** The corpus file name of a case: its protocol and the first 64 bits of a SHA-256 of the case. */
export function corpusName(file: Pick<ReplayFile, "protocol" | "case">): string {
  const hash = createHash("sha256").update(JSON.stringify([file.protocol, file.case])).digest("hex").slice(0, 16);
  return `${file.protocol}-${hash}.json`;
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => NAME.test(name)).sort();
  } catch (error) {
    throw new KitError("usage", `--corpus ${dir}: cannot be listed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/**
 * The corpus files of `protocol` in DIR, in name order, each read like any replay file
 * (bounded, strict, schema-checked: a malformed one is a usage error naming it). Reads at
 * most CORPUS_LIMITS files and bytes; `cut` says what was left out. A missing folder is an
 * empty corpus (the first campaign creates it).
 */
export function readCorpus(dir: string, protocol: ReplayFile["protocol"], limits: { maxFiles: number; maxBytes: number } = CORPUS_LIMITS): { entries: CorpusEntry[]; cut?: string } {
  if (!existsSync(dir)) return { entries: [] };
  if (!statSync(dir).isDirectory()) throw new KitError("usage", `--corpus ${dir}: not a folder`);
  const names = listNames(dir).filter((name) => name.startsWith(`${protocol}-`));
  const entries: CorpusEntry[] = [];
  let bytes = 0;
  for (const [index, name] of names.entries()) {
    const path = join(dir, name);
    const size = statSync(path).size;
    if (index >= limits.maxFiles || bytes + size > limits.maxBytes) {
      const by = index >= limits.maxFiles ? `${limits.maxFiles} files` : `${limits.maxBytes / MiB} MiB`;
      return { entries, cut: `the corpus ${dir} holds ${names.length} ${protocol} cases; the kit read the first ${entries.length} by name (at most ${by}) and left ${names.length - entries.length} out: prune the folder, or keep a corpus per campaign` };
    }
    bytes += size;
    const file = readReplay(path);
    entries.push({ path, file });
  }
  return { entries };
}

/** How many corpus files of any protocol DIR holds now. */
export function corpusSize(dir: string): number {
  return existsSync(dir) ? listNames(dir).length : 0;
}

/**
 * Adds a case to the corpus unless a file of the same case is there. Written to a temporary
 * name in the folder and renamed (atomic within one filesystem), so shards writing the same
 * folder at once never clash. Returns the path when the file is new, undefined otherwise.
 */
export function saveToCorpus(dir: string, file: ReplayFile): string | undefined {
  const path = join(dir, corpusName(file));
  if (existsSync(path)) return undefined;
  const temporary = join(dir, `.${corpusName(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new KitError("io_failed", `cannot write ${path}: ${(error as Error).message}`);
  }
  return path;
}
