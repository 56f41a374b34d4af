#!/usr/bin/env node
// Writes docs/clauses.md from suites/ and docs/mocks.md from the mock fault catalogue
// (src/mocks/catalogue/) with the built generators (dist/src/docs/clauses.js, mocks.js).
//   npm run build && node scripts/clause-docs.mjs           regenerate both
//   npm run build && node scripts/clause-docs.mjs --check   exit 1 when either is out of date
// The fault tables (test/integration/*-faults.ts) are TypeScript test files that the build
// leaves out; they are loaded with Vite's module runner, the loader vitest itself uses, so
// the docs name exactly the fakes the tests run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
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

const { renderClauseDocs } = await import(pathToFileURL(built).href);
const { faultCasesOf, FAULT_SOURCES } = await import(pathToFileURL(join(root, "dist", "src", "docs", "fault-tables.js")).href);
const { renderMockDocs } = await import(pathToFileURL(join(root, "dist", "src", "docs", "mocks.js")).href);
const { runnerImport } = await import("vite");

const faults = [];
for (const source of FAULT_SOURCES) {
  const { module } = await runnerImport(join(root, source.table), { root, configFile: false, logLevel: "silent" });
  faults.push({ ...source, cases: faultCasesOf(module) });
}
const outputs = [
  { name: "docs/clauses.md", text: renderClauseDocs(faults) },
  { name: "docs/mocks.md", text: renderMockDocs(faults) },
];

if (args.includes("--check")) {
  let stale = false;
  for (const { name, text } of outputs) {
    const target = join(root, name);
    const current = existsSync(target) ? readFileSync(target, "utf8") : undefined;
    if (current !== text) {
      console.error(`clause-docs: ${name} is ${current === undefined ? "missing" : "out of date"}; regenerate it with: ${regenerate}`);
      stale = true;
    } else console.log(`clause-docs: ${name} is up to date`);
  }
  if (stale) process.exit(1);
} else {
  for (const { name, text } of outputs) {
    const target = join(root, name);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    console.log(`clause-docs: wrote ${name} (${text.length} characters)`);
  }
}
