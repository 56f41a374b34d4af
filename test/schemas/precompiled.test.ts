/**
 * The build's standalone validators (scripts/compile-schemas.mjs, src/core/schema-standalone.ts)
 * are what a built kit validates with: each carries the hash of the schema it was compiled from
 * and judges every document as the kit's live Ajv does, errors included; a schema edited after
 * the build is compiled live.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { generateSync, type JsonSchema } from "json-schema-faker";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { configYaml } from "../../src/config/templates.js";
import { sha256 } from "../../src/core/clauses/snapshot.js";
import { buildReport } from "../../src/core/report/build.js";
import { buildMatrix } from "../../src/core/report/matrix.js";
import { diffReports } from "../../src/core/report/diff-compare.js";
import { newKitAjv, precompiledValidator } from "../../src/core/schema.js";

const ROOT = resolve(import.meta.dirname, "../..");
const SCHEMAS = join(ROOT, "schemas");
const BUILT = join(ROOT, "dist/src/core/schemas");
const require = createRequire(import.meta.url);
const files = (readdirSync(SCHEMAS, { recursive: true }) as string[]).filter((f) => f.endsWith(".schema.json")).map((f) => f.split(sep).join("/"));

const yamlOf = (path: string): unknown => parseYaml(readFileSync(join(ROOT, path), "utf8")) as unknown;

/** Valid documents of the schemas json-schema-faker cannot fill (patterns, conditionals). */
const KNOWN_VALID: Record<string, () => unknown[]> = {
  "launch-record.schema.json": () =>
    readFileSync(join(ROOT, "test/fixtures/launch-records/agent-cli-reactions.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .slice(0, 6)
      .map((line) => JSON.parse(line) as unknown),
  "suite.schema.json": () => readdirSync(join(ROOT, "suites/provider")).map((f) => yamlOf(`suites/provider/${f}`)),
  "policy-cases.schema.json": () => [yamlOf("examples/reference-provider/policy-tests.yaml")],
  "awp-conformance.config.schema.json": () => [
    parseYaml(configYaml({ schemaPath: "s.json", name: "p", protocol: "provider", command: ["./p"], config: { a: 1 } })) as unknown,
    parseYaml(configYaml({ schemaPath: "s.json", name: "a", protocol: "agent-cli", command: ["./a"], env: { A: "{{fixture.openai}}" } })) as unknown,
  ],
  "report.schema.json": () => [
    JSON.parse(JSON.stringify(buildReport({ protocol: "provider", argv: ["./p"], startedAt: new Date(0), endedAt: new Date(1000), options: {}, selection: { clause: [], skip: [] }, results: [], deselected: 0, notes: ["a note"], secrets: [] }))) as unknown,
  ],
  "matrix.schema.json": () => {
    const report = buildReport({ protocol: "provider", argv: ["./p"], startedAt: new Date(0), endedAt: new Date(1000), options: {}, selection: { clause: [], skip: [] }, results: [], deselected: 0, notes: [], secrets: [] });
    const inputs = [{ name: "p", dir: "p", protocol: "provider" as const, origin: "report" as const, report }, { name: "q", dir: "q", protocol: "provider" as const, origin: "run" as const, failure: "did not run" }];
    return [JSON.parse(JSON.stringify(buildMatrix(inputs, { name: "awp-conformance", version: "0.0.0" }))) as unknown];
  },
  "diff.schema.json": () => {
    const sample = (file: string): Parameters<typeof diffReports>[0] => JSON.parse(readFileSync(join(ROOT, "test/fixtures/reports", file), "utf8")) as Parameters<typeof diffReports>[0];
    return [JSON.parse(JSON.stringify(diffReports(sample("provider-incomplete-sample.json"), sample("provider-sample.json")))) as unknown];
  },
};

/** Documents to judge: known valid ones and ones generated from the schema, and each broken a few ways. */
function samples(file: string, schema: JsonSchema): unknown[] {
  const out: unknown[] = [null, 0, "x", [], {}];
  const generated: unknown[] = [];
  for (let seed = 1; seed <= 6; seed++) {
    try {
      generated.push(generateSync(schema, { seed, maxDepth: 4, maxDefaultItems: 3 }));
    } catch {
      // json-schema-faker gave up on this seed.
    }
  }
  for (const [seed, doc] of [...(KNOWN_VALID[file]?.() ?? []), ...generated].entries()) {
    out.push(doc);
    if (doc !== null && typeof doc === "object" && !Array.isArray(doc)) {
      const keys = Object.keys(doc);
      const first = keys[seed % Math.max(1, keys.length)];
      out.push({ ...doc, unknownField: 1 });
      if (first !== undefined) {
        const { [first]: _dropped, ...rest } = doc as Record<string, unknown>;
        out.push(rest, { ...doc, [first]: seed % 2 === 0 ? "not-what-it-was" : [{}] });
      }
    }
  }
  return out;
}

describe.skipIf(!existsSync(BUILT))("the build's standalone validators (skipped: no dist/, run npm run build)", () => {
  it.each(files)("%s: built from the schema's current bytes, judges as the live Ajv does", (file) => {
    const text = readFileSync(join(SCHEMAS, file));
    const built = require(join(BUILT, file.replace(/\.json$/, ".cjs"))) as ValidateFunction & { sha256: string };
    expect(built.sha256).toBe(sha256(text));
    const schema = JSON.parse(text.toString("utf8")) as JsonSchema;
    const live = newKitAjv().compile(schema as object);
    const docs = samples(file, schema);
    let valid = 0;
    for (const doc of docs) {
      const verdict = live(doc);
      valid += verdict ? 1 : 0;
      expect(built(doc), JSON.stringify(doc).slice(0, 300)).toBe(verdict);
      expect(built.errors ?? null).toEqual(live.errors ?? null);
    }
    // Both kinds of document were judged.
    expect(valid).toBeGreaterThan(0);
    expect(valid).toBeLessThan(docs.length);
  });
});

describe("precompiledValidator: used only when compiled from the same bytes", () => {
  const dir = mkdtempSync(join(tmpdir(), "kit-precompiled-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const text = Buffer.from('{"type":"object"}');
  const path = join(dir, "object.schema.cjs");
  writeFileSync(path, `"use strict";module.exports = function validate(data) { return typeof data === "object"; };\nmodule.exports.sha256 = ${JSON.stringify(sha256(text))};\n`);

  it("the same bytes: the built validator", () => {
    const validate = precompiledValidator(path, text);
    expect(validate?.({})).toBe(true);
    expect(validate?.(1)).toBe(false);
  });

  it("an edited schema, or no built file: none (the schema is compiled live)", () => {
    expect(precompiledValidator(path, Buffer.from('{"type": "object"}'))).toBeUndefined();
    expect(precompiledValidator(join(dir, "missing.cjs"), text)).toBeUndefined();
  });
});
