#!/usr/bin/env node
// Writes docs/clauses.md from suites/ with the built generator (dist/src/docs/clauses.js).
//   npm run build && node scripts/clause-docs.mjs           regenerate docs/clauses.md
//   npm run build && node scripts/clause-docs.mjs --check   exit 1 when it is out of date
// The fault tables (test/integration/*-faults.ts) are TypeScript test files that the build
// leaves out; they are loaded with Vite's module runner, the loader vitest itself uses, so
// the docs name exactly the fakes the tests run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "docs", "clauses.md");
const built = join(root, "dist", "src", "docs", "clauses.js");
const regenerate = "npm run build && node scripts/clause-docs.mjs";

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "--check");
if (unknown.length > 0) {
  console.error(`clause-docs: unknown argument ${unknown[0]} (usage: node scripts/clause-docs.mjs [--check])`);
  process.exit(2);
}
if (!existsSync(built)) {
  console.error("clause-docs: dist/src/docs/clauses.js is missing; run npm run build first");
  process.exit(2);
}

const { renderClauseDocs, faultCasesOf, FAULT_SOURCES } = await import(pathToFileURL(built).href);
const { runnerImport } = await import("vite");

const faults = [];
for (const source of FAULT_SOURCES) {
  const { module } = await runnerImport(join(root, source.table), { root, configFile: false, logLevel: "silent" });
  faults.push({ ...source, cases: faultCasesOf(module) });
}
const text = renderClauseDocs(faults);

if (args.includes("--check")) {
  const current = existsSync(target) ? readFileSync(target, "utf8") : undefined;
  if (current !== text) {
    console.error(`clause-docs: docs/clauses.md is ${current === undefined ? "missing" : "out of date"}; regenerate it with: ${regenerate}`);
    process.exit(1);
  }
  console.log("clause-docs: docs/clauses.md is up to date");
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`clause-docs: wrote docs/clauses.md (${text.length} characters)`);
}
