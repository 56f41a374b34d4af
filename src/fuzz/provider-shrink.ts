/**
 * Shrinking a provider campaign's failures: the first failing case of every clause is shrunk
 * with fast-check (seed + path replay it exactly), `jobs` clauses at a time. Each shrink is a run
 * of its own from its own path, so running them side by side gives every clause the same shrunk
 * case as running them one after another; only the order the calls are made in differs.
 */
import fc from "fast-check";
import type { Finding } from "../core/report/types.js";
import { interrupted } from "../core/interrupt.js";
import type { ProviderCall } from "../runner/provider/call.js";
import { pool } from "./pool.js";
import { serializeCase } from "./replay.js";
import type { FuzzFailure, FuzzProgressHook, ProviderCase } from "./types.js";

/**
 * Candidate cases one shrink may run (the failing case itself included). Shrinking usually
 * needs a few dozen; the bound keeps a failure whose parts trade off against each other from
 * running for minutes, and, being a count, gives the same shrunk case on any machine.
 */
export const MAX_SHRINK_CASES = 400;

/** A clause's first failing case of the campaign (by index), and what it found. */
export interface FirstFailure {
  index: number;
  c: ProviderCase;
  finding: Finding;
}

export interface ShrinkContext<Target> {
  arb: fc.Arbitrary<ProviderCase>;
  target: Target;
  call: ProviderCall;
  /** Runs one case and judges it (provider-run's evaluateProviderCase). */
  evaluate: (c: ProviderCase, target: Target, call: ProviderCall) => Promise<Finding[]>;
  seed: number;
  /** Clauses shrunk at once (the campaign's --jobs). */
  jobs: number;
  /** false: every failure is reported as it was found. */
  shrink: boolean;
  progress?: FuzzProgressHook;
}

/** The failures of `byIndex` (clause, first failure; in index order), shrunk, in the same order. */
export async function shrinkFailures<Target>(byIndex: readonly (readonly [string, FirstFailure])[], ctx: ShrinkContext<Target>): Promise<FuzzFailure[]> {
  // Not shrunk (shrink: false, an interruption, a failure that did not come back): each case as it failed (its replay file still reproduces it).
  const unshrunk = (clause: string, first: FirstFailure): FuzzFailure => failureOf(clause, first.finding, first.c, ctx.seed, String(first.index));
  if (!ctx.shrink) return byIndex.map(([clause, first]) => unshrunk(clause, first));
  const failures: FuzzFailure[] = new Array<FuzzFailure>(byIndex.length);
  await pool(
    byIndex,
    ctx.jobs,
    async ([clause, first], at) => {
      ctx.progress?.shrinking(clause, at + 1, byIndex.length);
      failures[at] = interrupted() !== undefined ? unshrunk(clause, first) : ((await shrinkOne(clause, first, ctx)) ?? unshrunk(clause, first));
    },
    () => false,
  );
  return failures;
}

/** The smallest failing case fast-check finds from `first`, or undefined when it is not to be trusted. */
async function shrinkOne<Target>(clause: string, first: FirstFailure, ctx: ShrinkContext<Target>): Promise<FuzzFailure | undefined> {
  let last: Finding | undefined;
  let tried = 0;
  const property = fc.asyncProperty(ctx.arb, async (c) => {
    // Past the budget (or once the kit is interrupted) every further candidate counts as passing: fast-check keeps the smallest failure so far.
    if (tried++ > MAX_SHRINK_CASES || interrupted() !== undefined) return true;
    const found = (await ctx.evaluate(c, ctx.target, ctx.call)).find((f) => f.clause === clause);
    if (found) last = found;
    return found === undefined;
  });
  // numRuns 1: the failing case at its path, then its shrinks (never the cases after it, of which a time box has no end).
  const result = await fc.check(property, { seed: ctx.seed, path: String(first.index), numRuns: 1 });
  // Interrupted while shrinking, a call out may have been ended by it: what fast-check kept is not trusted.
  if (interrupted() !== undefined) return undefined;
  const shrunk = result.counterexample?.[0];
  // The failure did not come back when fast-check ran its case again (a flaky one): reported as it was found.
  if (!result.failed || shrunk === undefined) return undefined;
  // Re-evaluate the shrunk case so the finding describes exactly what the replay file holds.
  const finding = (await ctx.evaluate(shrunk, ctx.target, ctx.call)).find((f) => f.clause === clause) ?? last;
  if (finding === undefined) return undefined;
  return failureOf(clause, finding, shrunk, ctx.seed, result.counterexamplePath ?? String(first.index));
}

function failureOf(clause: string, finding: Finding, c: ProviderCase, seed: number, path: string): FuzzFailure {
  // When the well-formed base of a hostile case is what failed, the base alone is the minimal case.
  const minimal = c.base !== undefined && finding.requestId === c.base.requestId ? c.base : c;
  return { clause, finding: { ...finding, foundBy: "fuzz" }, seed, path, replay: { protocol: "provider", case: serializeCase(minimal) } };
}
