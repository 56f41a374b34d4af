import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/cli");

/** Every .ts file under src/cli, as paths relative to it. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The relative specifiers a module imports: static, type-only, re-exports and dynamic import(). */
export function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [/\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\(\s*["']([^"']+)["']\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) if (match[1] !== undefined) specifiers.push(match[1]);
  return specifiers.filter((s) => s.startsWith("."));
}

/** The cycles of a graph, each as the path that closes it (a -> b -> a). */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (state.get(node) === undefined) visit(node);
  return cycles;
}

function cliGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files(CLI)) {
    const targets = importsOf(readFileSync(file, "utf8"))
      .map((s) => resolve(dirname(file), s.replace(/\.js$/, ".ts")))
      .filter((target) => target.startsWith(`${CLI}/`))
      .map((target) => relative(CLI, target));
    graph.set(relative(CLI, file), [...new Set(targets)]);
  }
  return graph;
}

describe("src/cli imports", () => {
  it("finds a cycle where there is one (the detector works)", () => {
    expect(importsOf(`import type { A } from "./a.js";\nconst m = await import("../b.js");\nexport { c } from "./c.js";\nimport x from "node:fs";`)).toEqual(["./a.js", "./c.js", "../b.js"]);
    expect(cyclesOf(new Map([["run.ts", ["fuzz.ts"]], ["fuzz.ts", ["args.ts", "run.ts"]], ["args.ts", []]]))).toEqual([["fuzz.ts", "run.ts", "fuzz.ts"]]);
  });

  // cli/fuzz.ts and cli/run.ts imported each other (issue 27, point 7): what both need lives in run-args.ts.
  it("form no cycle: no module of src/cli imports one that imports it back, type imports and import() included", () => {
    const graph = cliGraph();
    expect(graph.size).toBeGreaterThan(20);
    expect(cyclesOf(graph).map((cycle) => cycle.join(" -> "))).toEqual([]);
  });
});
