/**
 * Fuzz replays new in NEW: every fuzz finding of NEW whose case OLD has no finding of, for the
 * same clause. A case is known by its identity, given by the caller (the command reads the
 * replay files and names each by its content, fuzz/corpus.ts corpusName: two runs with
 * different seeds, or folders, that find the same case agree); without one, by seed and path.
 */
import type { Finding, RunReport } from "./types.js";
import type { NewReplay } from "./diff-types.js";

/** The identity of a fuzz finding's case; `side` says which report it is of. */
export type ReplayIdentity = (finding: Finding & { fuzzCase: NonNullable<Finding["fuzzCase"]> }, side: "old" | "new") => string;

/** Without the files: the case by its seed and fast-check path (the same only for runs of one seed and kit). */
export const seedIdentity: ReplayIdentity = (finding) => `seed ${finding.fuzzCase.seed} path ${finding.fuzzCase.path}`;

type FuzzFinding = Parameters<ReplayIdentity>[0];

function fuzzFindings(report: RunReport): FuzzFinding[] {
  return report.clauses.flatMap((c) => c.findings.filter((f): f is FuzzFinding => f.fuzzCase !== undefined));
}

export function newReplays(older: RunReport, newer: RunReport, identity: ReplayIdentity = seedIdentity): NewReplay[] {
  const known = new Set(fuzzFindings(older).map((f) => `${f.clause}\n${identity(f, "old")}`));
  const out: NewReplay[] = [];
  const listed = new Set<string>();
  for (const f of fuzzFindings(newer)) {
    const id = identity(f, "new");
    const key = `${f.clause}\n${id}`;
    if (known.has(key) || listed.has(key)) continue;
    listed.add(key);
    const c = f.fuzzCase;
    out.push({ clause: f.clause, identity: id, ...(c.file !== undefined ? { file: c.file } : {}), seed: c.seed, path: c.path, ...(c.corpus === true ? { corpus: true } : {}) });
  }
  return out;
}
