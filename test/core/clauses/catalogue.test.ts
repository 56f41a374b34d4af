import { describe, expect, it } from "vitest";
import { loadCatalogue, loadSuiteFiles } from "../../../src/core/clauses/catalogue.js";
import { sourceProblem, sourceUrl } from "../../../src/core/clauses/sources.js";
import { providerChecks } from "../../../src/core/provider/checks/index.js";
import type { Clause, Level } from "../../../src/core/report/types.js";

const catalogue: Clause[] = loadCatalogue("provider");
const suites = loadSuiteFiles("provider");
const areaOf = (id: string): string => id.split("/")[1] as string;

describe("the provider catalogue", () => {
  it("is not empty and holds every clause of every suite file", () => {
    expect(catalogue.length).toBeGreaterThan(0);
    expect(catalogue).toHaveLength(suites.reduce((sum, suite) => sum + suite.clauses.length, 0));
  });

  it("is cached: a second load returns the same clauses", () => {
    expect(loadCatalogue("provider")).toBe(catalogue);
  });

  it("has unique ids", () => {
    const ids = catalogue.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("has ids of the form provider/<area>/<name> under the suite's area", () => {
    const areas = new Set(suites.map((s) => s.area));
    for (const clause of catalogue) {
      expect(clause.id).toMatch(/^provider\/[a-z0-9]+(-[a-z0-9]+)*\/[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(areas.has(areaOf(clause.id)), clause.id).toBe(true);
    }
  });

  it("gives every clause at least one check", () => {
    const checked = new Set(providerChecks.map((check) => check.clause));
    expect(catalogue.filter((c) => !checked.has(c.id)).map((c) => c.id)).toEqual([]);
  });

  it("has a clause for every check", () => {
    const ids = new Set(catalogue.map((c) => c.id));
    expect(providerChecks.filter((check) => !ids.has(check.clause)).map((check) => check.clause)).toEqual([]);
  });

  it("has MUST and SHOULD clauses, and only the three levels", () => {
    const counts: Record<Level, number> = { MUST: 0, SHOULD: 0, MAY: 0 };
    for (const clause of catalogue) counts[clause.level]++;
    expect(counts.MUST).toBeGreaterThan(0);
    expect(counts.SHOULD).toBeGreaterThan(0);
    expect(counts.MUST + counts.SHOULD + counts.MAY).toBe(catalogue.length);
  });

  it("has short titles (at most 70 characters) that do not start with should or test that", () => {
    for (const clause of catalogue) {
      expect(clause.title.length, clause.id).toBeLessThanOrEqual(70);
      expect(clause.title, clause.id).not.toMatch(/^\s*(should|test that)\b/i);
      expect(clause.title.trim(), clause.id).toBe(clause.title);
    }
  });

  it("has unique titles and a source for each clause", () => {
    const titles = catalogue.map((c) => c.title);
    expect(new Set(titles).size).toBe(titles.length);
    for (const clause of catalogue) {
      expect(sourceProblem(clause.source), clause.id).toBeUndefined();
      expect(sourceUrl(clause.source), clause.id).toMatch(/^https:\/\/github\.com\//);
    }
  });

  it("lists areas by their order, each area's clauses together and in file order", () => {
    const orderOf = new Map(suites.map((s) => [s.area, s.order]));
    const areaSequence = catalogue.map((c) => areaOf(c.id));
    const blocks = areaSequence.filter((area, i) => i === 0 || areaSequence[i - 1] !== area);
    expect(new Set(blocks).size).toBe(blocks.length);
    const expected = [...suites]
      .sort((a, b) => a.order - b.order || a.area.localeCompare(b.area))
      .map((s) => s.area);
    expect(blocks).toEqual(expected);
    for (let i = 1; i < blocks.length; i++) {
      expect(orderOf.get(blocks[i]!)!).toBeGreaterThanOrEqual(orderOf.get(blocks[i - 1]!)!);
    }
    for (const suite of suites) {
      expect(catalogue.filter((c) => areaOf(c.id) === suite.area).map((c) => c.id)).toEqual(suite.clauses.map((c) => c.id));
    }
  });

  it("gives areas distinct orders", () => {
    const orders = suites.map((s) => s.order);
    expect(new Set(orders).size).toBe(orders.length);
  });
});
