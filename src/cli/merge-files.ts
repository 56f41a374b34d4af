import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { KitError } from "../core/errors.js";
import { readInputFile } from "../core/inputs/index.js";
import type { Finding, RunReport } from "../core/report/types.js";
import { checkReplay } from "../fuzz/replay-check.js";
import { shellQuote } from "../runner/provider/reproduce.js";

/**
 * The files a merged report points at, collected from the shard folders into the merged one:
 * the replay files of fuzz failures (<dir>/replays/) and the saved requests of provider
 * findings (<dir>/requests/), each read within the replay or request limits (a replay file is
 * checked like `replay` checks it). Findings are pointed at the copies.
 */

/** Where a finding's file came from: the shard folder that reported it. */
export interface FileSource {
  dir: string;
  report: RunReport;
}

const REQUEST = / < (\S+|'(?:[^']|'\\'')*')$/;

function unquote(arg: string): string {
  return arg.startsWith("'") ? arg.slice(1, -1).replace(/'\\''/g, "'") : arg;
}

class Collector {
  private readonly copied = new Map<string, string>();
  readonly missing: string[] = [];

  constructor(private readonly outDir: string) {}

  /** Copies `name` from `<dir>/<sub>/` (or `original` when that is where it is) to `<out>/<sub>/`; returns the new path. */
  copy(dir: string, sub: "replays" | "requests", original: string): string | undefined {
    const name = basename(original);
    const from = [join(dir, sub, name), original].find((p) => existsSync(p));
    if (from === undefined) {
      this.missing.push(`${sub}/${name} (not in ${dir})`);
      return undefined;
    }
    const known = this.copied.get(from);
    if (known !== undefined) return known;
    const bytes = readInputFile(from, sub === "replays" ? "replay" : "request");
    if (sub === "replays") checkReplay(bytes, from);
    let to = join(this.outDir, sub, name);
    // Two shards may name different files alike (requests are numbered per run): keep both.
    for (let n = 2; existsSync(to) && !readFileSync(to).equals(bytes); n++) to = join(this.outDir, sub, name.replace(/(\.json)?$/, `-${n}$1`));
    try {
      mkdirSync(join(this.outDir, sub), { recursive: true });
      writeFileSync(to, bytes);
    } catch (error) {
      throw new KitError("io_failed", `cannot write ${to}: ${(error as Error).message}`);
    }
    this.copied.set(from, to);
    return to;
  }
}

function collectOne(f: Finding, dir: string, collector: Collector): Finding {
  if (f.fuzzCase?.file !== undefined && f.fuzzCase.corpus !== true) {
    const old = f.fuzzCase.file;
    const to = collector.copy(dir, "replays", old);
    if (to === undefined) return f;
    return { ...f, fuzzCase: { ...f.fuzzCase, file: to }, ...(f.reproduce !== undefined ? { reproduce: f.reproduce.replace(shellQuote(old), shellQuote(to)) } : {}) };
  }
  const request = f.reproduce !== undefined ? REQUEST.exec(f.reproduce) : null;
  if (request === null || f.reproduce === undefined) return f;
  const old = unquote(request[1] as string);
  const to = collector.copy(dir, "requests", old);
  return to === undefined ? f : { ...f, reproduce: f.reproduce.slice(0, request.index) + ` < ${shellQuote(to)}` };
}

/**
 * Points the merged report's findings at copies in outDir. A finding belongs to the shard
 * whose report holds the very same finding (the first such shard). Returns the report and the
 * files that could not be found (noted in the report).
 */
export function collectFiles(merged: RunReport, sources: readonly FileSource[], outDir: string): RunReport {
  const collector = new Collector(outDir);
  const owner = (clause: string, f: Finding): string | undefined =>
    sources.find((s) => s.report.clauses.some((c) => c.id === clause && c.findings.some((g) => g.reproduce === f.reproduce && g.message === f.message)))?.dir;
  const clauses = merged.clauses.map((c) => ({
    ...c,
    findings: c.findings.map((f) => {
      const dir = owner(c.id, f);
      return dir === undefined ? f : collectOne(f, dir, collector);
    }),
  }));
  const notes = collector.missing.length === 0 ? merged.notes : [...merged.notes, `Files the shard reports name but their folders lack (their findings keep the shard's path): ${collector.missing.slice(0, 10).join(", ")}${collector.missing.length > 10 ? ", …" : ""}.`];
  return { ...merged, clauses, notes };
}
