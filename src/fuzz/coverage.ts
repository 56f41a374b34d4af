/**
 * The coverage summary of a fuzz campaign: how many cases of each kind ran, and how many fell
 * into each size bucket of each measured dimension. Pure bookkeeping; the protocol sides say
 * what they measure (provider/coverage.ts, agent-cli/coverage.ts).
 */
import type { CoverageCount, CoverageDimension } from "../core/report/types.js";

/** One bucket of a scale: values up to `upTo` (inclusive) that no earlier bucket took. */
export interface Bucket {
  name: string;
  upTo: number;
}

export type Scale = readonly Bucket[];

export const KIB = 1024;
export const MIB = 1024 * 1024;

/** Member counts, string lengths, blocks: 0, 1, a few, tens, hundreds, thousands, and more. */
export const COUNT_SCALE: Scale = [
  { name: "0", upTo: 0 },
  { name: "1", upTo: 1 },
  { name: "2–9", upTo: 9 },
  { name: "10–99", upTo: 99 },
  { name: "100–999", upTo: 999 },
  { name: "1000–9999", upTo: 9_999 },
  { name: "10000–99999", upTo: 99_999 },
  { name: "≥ 100000", upTo: Infinity },
];

/** The first `n` buckets of the count scale, the last one open-ended (turns per session, blocks per turn). */
export function countScale(n: number): Scale {
  const kept = COUNT_SCALE.slice(0, n);
  const last = kept[kept.length - 1] as Bucket;
  const open = last.name.includes("–") ? `≥ ${last.name.slice(0, last.name.indexOf("–"))}` : `≥ ${last.name}`;
  return [...kept.slice(0, -1), { name: open, upTo: Infinity }];
}

/** UTF-8 sizes of texts and lines. */
export const BYTE_SCALE: Scale = [
  { name: "0", upTo: 0 },
  { name: "< 1 KiB", upTo: KIB - 1 },
  { name: "1–16 KiB", upTo: 16 * KIB - 1 },
  { name: "16–64 KiB", upTo: 64 * KIB },
  { name: "64–256 KiB", upTo: 256 * KIB - 1 },
  { name: "256 KiB–1 MiB", upTo: MIB - 1 },
  { name: "≥ 1 MiB", upTo: Infinity },
];

export function bucketOf(scale: Scale, value: number): number {
  const at = scale.findIndex((b) => value <= b.upTo);
  return at >= 0 ? at : scale.length - 1;
}

export interface DimensionSpec {
  name: string;
  of: string;
  scale: Scale;
}

/** Counts kinds and sizes as cases run; `summary()` lists every kind and bucket given up front, zeros included. */
export class CoverageTally {
  private readonly kinds = new Map<string, number>();
  private readonly dimensions = new Map<string, { spec: DimensionSpec; counts: number[] }>();

  constructor(dimensions: readonly DimensionSpec[], kinds: readonly string[] = []) {
    for (const spec of dimensions) this.dimensions.set(spec.name, { spec, counts: spec.scale.map(() => 0) });
    for (const kind of kinds) this.kinds.set(kind, 0);
  }

  kind(name: string, n = 1): void {
    this.kinds.set(name, (this.kinds.get(name) ?? 0) + n);
  }

  size(dimension: string, value: number): void {
    const entry = this.dimensions.get(dimension);
    if (entry === undefined) return;
    const at = bucketOf(entry.spec.scale, value);
    entry.counts[at] = (entry.counts[at] ?? 0) + 1;
  }

  summary(): { kinds: CoverageCount[]; sizes: CoverageDimension[] } {
    return {
      kinds: [...this.kinds.entries()].map(([name, count]) => ({ name, count })),
      sizes: [...this.dimensions.values()].map(({ spec, counts }) => ({
        name: spec.name,
        of: spec.of,
        buckets: spec.scale.map((b, i) => ({ name: b.name, count: counts[i] ?? 0 })),
      })),
    };
  }
}
