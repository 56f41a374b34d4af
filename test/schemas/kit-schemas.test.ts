/**
 * The kit's own schemas: they compile under the kit's strict Ajv, the suites obey
 * suite.schema.json, and built reports obey report.schema.json.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadCatalogue, loadSuiteFiles } from "../../src/core/clauses/catalogue.js";
import { KitError } from "../../src/core/errors.js";
import { buildReport, type ReportInput } from "../../src/core/report/build.js";
import { combineJudgements } from "../../src/core/report/judge.js";
import type { Clause, Finding, Protocol, RunReport } from "../../src/core/report/types.js";
import { kitSchema } from "../../src/core/schema.js";

/** Lets one test point the kit at a temporary package root (for loadCatalogue, which takes no folder). */
const rootOverride = vi.hoisted(() => ({ value: undefined as string | undefined }));
vi.mock("../../src/core/paths.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/core/paths.js")>();
  return { ...actual, packageRoot: () => rootOverride.value ?? actual.packageRoot() };
});

const ROOT = resolve(import.meta.dirname, "../..");
const SCHEMAS = join(ROOT, "schemas");
const SUITES = join(ROOT, "suites");

function walk(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path, suffix);
      return entry.isFile() && entry.name.endsWith(suffix) ? [path] : [];
    })
    .sort();
}

const schemaFiles = walk(SCHEMAS, ".json").map((path) => relative(SCHEMAS, path));

describe("schemas/", () => {
  it("holds the schemas the kit relies on", () => {
    expect(schemaFiles).toEqual(
      expect.arrayContaining([
        "report.schema.json",
        "diff.schema.json",
        "matrix.schema.json",
        "suite.schema.json",
        join("provider", "request.schema.json"),
        join("provider", "response.schema.json"),
      ]),
    );
  });

  it.each(schemaFiles)("%s is JSON with $schema 2020-12 and a unique $id", (file) => {
    const schema = JSON.parse(readFileSync(join(SCHEMAS, file), "utf8")) as Record<string, unknown>;
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(typeof schema.$id).toBe("string");
    expect(schema.$id).toMatch(/^https:\/\/\S+$/);
    const ids = schemaFiles.map(
      (other) => (JSON.parse(readFileSync(join(SCHEMAS, other), "utf8")) as { $id?: unknown }).$id,
    );
    expect(ids.filter((id) => id === schema.$id)).toHaveLength(1);
  });

  // kitSchema compiles with the shared strict Ajv (kitAjv); compiling the same $id a second
  // time through kitAjv().compile would throw, so the test goes through kitSchema itself.
  it.each(schemaFiles)("%s compiles with the kit's strict Ajv", (file) => {
    expect(() => kitSchema(file.split("\\").join("/"))).not.toThrow();
  });

  // The kit's Ajv compiles without this check (kitAjv): here, every schema obeys the draft's meta-schema.
  it.each(schemaFiles)("%s obeys the draft 2020-12 meta-schema", (file) => {
    const meta = new Ajv2020({ strict: false });
    const schema = JSON.parse(readFileSync(join(SCHEMAS, file), "utf8")) as object;
    expect(meta.validateSchema(schema), JSON.stringify(meta.errors)).toBe(true);
    expect(meta.validateSchema({ ...schema, type: 12 })).toBe(false);
  });
});

describe("suites/", () => {
  const protocols = readdirSync(SUITES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name as Protocol);

  it("has at least the provider suites", () => {
    expect(protocols).toContain("provider");
  });

  it.each(protocols)("every suites/%s/*.yaml loads and validates", (protocol) => {
    const files = walk(join(SUITES, protocol), ".yaml");
    expect(files.length).toBeGreaterThan(0);
    const suites = loadSuiteFiles(protocol);
    expect(suites).toHaveLength(files.length);
    for (const suite of suites) {
      expect(suite.protocol).toBe(protocol);
      expect(suite.clauses.length).toBeGreaterThan(0);
    }
  });

  it("every yaml file anywhere under suites/ sits in a protocol folder that loadSuiteFiles reads", () => {
    for (const file of walk(SUITES, ".yaml")) {
      const parts = relative(SUITES, file).split(/[\\/]/);
      expect(parts, file).toHaveLength(2);
      expect(protocols).toContain(parts[0]);
    }
  });
});

describe("broken suite files are rejected with catalogue_invalid", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kit-suites-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  interface ClauseYaml {
    id: string;
    /** The YAML flow mapping of the clause's source. */
    source?: string;
    level: string;
    title: string;
  }

  const clause = (overrides: Partial<ClauseYaml> = {}): ClauseYaml => ({
    id: "provider/sample/first-rule",
    level: "MUST",
    title: "the provider answers every request",
    ...overrides,
  });

  function clauseYaml(c: ClauseYaml): string {
    return [
      `  - id: ${c.id}`,
      `    level: ${c.level}`,
      `    title: ${JSON.stringify(c.title)}`,
      "    text: A sentence long enough to be a clause text.",
      `    source: ${c.source ?? "{ doc: provider-protocol, section: Transport contract }"}`,
    ].join("\n");
  }

  /** Writes <root>/<protocol>/<file> (only that one yaml file) and returns <root>. */
  function writeSuite(name: string, clauses: ClauseYaml[], options: { area?: string; file?: string; protocol?: Protocol } = {}): string {
    const protocol = options.protocol ?? "provider";
    const root = join(dir, name);
    mkdirSync(join(root, protocol), { recursive: true });
    const area = options.area ?? "sample";
    const body = [`protocol: ${protocol}`, `area: ${area}`, "order: 1", "clauses:", ...clauses.map(clauseYaml)].join("\n");
    writeFileSync(join(root, protocol, options.file ?? `${area}.yaml`), `${body}\n`);
    return root;
  }

  function rejection(root: string, protocol: Protocol = "provider"): KitError {
    try {
      loadSuiteFiles(protocol, root);
    } catch (error) {
      if (error instanceof KitError) return error;
      throw error;
    }
    throw new Error(`loadSuiteFiles accepted ${root}`);
  }

  it("a well-formed temporary suite loads (so the rejections below are about the defect)", () => {
    const root = writeSuite("good", [clause(), clause({ id: "provider/sample/second-rule", level: "SHOULD" })]);
    const suites = loadSuiteFiles("provider", root);
    expect(suites).toHaveLength(1);
    expect(suites[0]!.clauses.map((c) => c.id)).toEqual(["provider/sample/first-rule", "provider/sample/second-rule"]);
  });

  it("a 70-character title is fine, a 71-character one is not", () => {
    const seventy = "a".repeat(70);
    expect(() => loadSuiteFiles("provider", writeSuite("title-70", [clause({ title: seventy })]))).not.toThrow();
    const error = rejection(writeSuite("title-71", [clause({ title: `${seventy}b` })]));
    expect(error.code).toBe("catalogue_invalid");
    expect(error.message).toMatch(/sample\.yaml/);
  });

  it.each(["Should answer quickly", "should answer quickly", "Test that it answers", "test that it answers"])(
    "a title starting %j",
    (title) => {
      expect(rejection(writeSuite(`title-${title.replace(/\W+/g, "-")}`, [clause({ title })])).code).toBe("catalogue_invalid");
    },
  );

  it("a title that merely contains 'should' is fine", () => {
    expect(() => loadSuiteFiles("provider", writeSuite("title-contains", [clause({ title: "what a provider should say" })]))).not.toThrow();
  });

  it.each(["MUSTNT", "must", "OPTIONAL", "RECOMMENDED"])("the level %j", (level) => {
    expect(rejection(writeSuite(`level-${level}`, [clause({ level })])).code).toBe("catalogue_invalid");
  });

  it("an id outside its area", () => {
    const error = rejection(writeSuite("outside", [clause({ id: "provider/other/first-rule" })]));
    expect(error.code).toBe("catalogue_invalid");
    expect(error.message).toContain("provider/other/first-rule");
  });

  it("an id under another protocol", () => {
    expect(rejection(writeSuite("other-protocol", [clause({ id: "agent-cli/sample/first-rule" })])).code).toBe("catalogue_invalid");
  });

  it("an id with a bad shape (uppercase, three segments below the protocol)", () => {
    expect(rejection(writeSuite("upper", [clause({ id: "provider/sample/First-rule" })])).code).toBe("catalogue_invalid");
    expect(rejection(writeSuite("deep", [clause({ id: "provider/sample/first/rule" })])).code).toBe("catalogue_invalid");
  });

  it.each([
    ["a working copy users do not have (spec/)", "{ doc: spec/provider-protocol.md, section: Transport contract }", /must match pattern/],
    ["an unknown document", "{ doc: provider-protocl, section: Transport contract }", /first-rule: cites the unknown document "provider-protocl"/],
    ["a heading the cited revision does not have", "{ doc: provider-protocol, section: PostTool text replacement }", /first-rule: cites "PostTool text replacement", but pilichoumao\/ANOLISA .* at f1571065 has no heading/],
    ["a heading of the other contract", "{ doc: agent-cli-protocol, section: Transport contract }", /has no heading of that name/],
    ["a place an upstream file does not record", "{ doc: aw-provider-request-schema, section: tool_name }", /has no recorded place of that name/],
  ])("a source citing %s", (_what, source, message) => {
    const error = rejection(writeSuite(`source-${source.replace(/\W+/g, "-")}`, [clause({ source })]));
    expect(error.code).toBe("catalogue_invalid");
    expect(error.message).toMatch(message);
  });

  it("an area that does not match the file name", () => {
    const root = writeSuite("area-mismatch", [clause()], { file: "elsewhere.yaml" });
    expect(rejection(root).code).toBe("catalogue_invalid");
  });

  it("a duplicate id passes loadSuiteFiles but is caught by loadCatalogue", () => {
    const duplicate = clause({ id: "agent-cli/sample/first-rule" });
    const root = writeSuite("duplicate", [duplicate, { ...duplicate, title: "the same id a second time" }], {
      protocol: "agent-cli",
    });
    // loadSuiteFiles checks each file's shape only; duplicates are loadCatalogue's job.
    expect(loadSuiteFiles("agent-cli", root)[0]!.clauses).toHaveLength(2);

    // loadCatalogue reads <packageRoot>/suites and <packageRoot>/schemas: give it a root that
    // holds the temporary suites and the real schemas. (Ids must sit under their own file's area,
    // so a duplicate can only occur inside one file.)
    const fakeRoot = join(dir, "fake-root");
    mkdirSync(fakeRoot, { recursive: true });
    symlinkSync(SCHEMAS, join(fakeRoot, "schemas"), "dir");
    symlinkSync(root, join(fakeRoot, "suites"), "dir");
    rootOverride.value = fakeRoot;
    try {
      let caught: unknown;
      try {
        loadCatalogue("agent-cli");
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(KitError);
      expect((caught as KitError).code).toBe("catalogue_invalid");
      expect((caught as KitError).message).toContain("duplicate clause id agent-cli/sample/first-rule");
    } finally {
      rootOverride.value = undefined;
    }
  });
});

describe("report.schema.json", () => {
  let validate: ValidateFunction;
  beforeAll(() => {
    // The kit's Ajv options without strict mode: strict mode lints the schema at compile time but
    // never changes what it accepts, and the lint has its own test above.
    const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
    addFormats.default(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, "report.schema.json"), "utf8")) as object);
  });

  const clauseOf = (id: string, level: Clause["level"] = "MUST"): Clause => ({
    id,
    level,
    title: `title of ${id}`,
    text: "A clause text for the report test.",
    source: { doc: "provider-protocol", section: "Transport contract" },
  });

  const finding: Finding = {
    clause: "provider/sample/fails",
    message: "stdout held two JSON objects",
    expected: "one object",
    seen: '{"a":1}{"b":2}',
    requestId: "req-7",
    scenario: "describe",
    foundBy: "scenario",
    evidence: [
      { excerpt: '{"b":2}', stream: "stdout", seq: 0, offset: 7, line: 1, column: 8 },
      { excerpt: "exit 0", stream: "process" },
    ],
  };

  function input(): ReportInput {
    const results = [
      combineJudgements(clauseOf("provider/sample/passes"), [{ outcome: "judged", judged: 3, findings: [] }]),
      combineJudgements(clauseOf("provider/sample/fails"), [{ outcome: "judged", judged: 1, findings: [finding] }]),
      combineJudgements(clauseOf("provider/sample/skipped", "SHOULD"), [{ outcome: "skip", reason: "no tool.after operation" }]),
      combineJudgements(clauseOf("provider/sample/not-applicable", "MAY"), [
        { outcome: "not-applicable", reason: "the provider declares no block effect" },
      ]),
    ];
    return {
      protocol: "provider",
      argv: ["node", "provider.mjs", "--token", "s3cr3t-value"],
      startedAt: new Date("2026-01-02T03:04:05.000Z"),
      endedAt: new Date("2026-01-02T03:04:06.500Z"),
      options: { timeoutMs: 5000, fuzz: false },
      selection: { clause: ["provider"], skip: ["provider/robustness"] },
      results,
      deselected: 2,
      notes: ["ran with token s3cr3t-value"],
      secrets: ["s3cr3t-value"],
    };
  }

  function report(): RunReport {
    return buildReport(input());
  }

  function errorsOf(value: unknown): unknown {
    return validate(value) ? null : validate.errors;
  }

  it("a built report with pass, fail, skip and not-applicable clauses is valid", () => {
    const built = report();
    expect(built.clauses.map((c) => c.status)).toEqual(["pass", "fail", "skip", "not-applicable"]);
    expect(errorsOf(built)).toBeNull();
    expect(errorsOf(buildReport({ ...input(), mode: "stream-json" }))).toBeNull();
    expect(errorsOf(JSON.parse(JSON.stringify(built)))).toBeNull();
  });

  it("the built report carries the summary and no secret", () => {
    const built = report();
    expect(built.summary).toMatchObject({ total: 4, passed: 1, failed: 1, skipped: 1, notApplicable: 1, deselected: 2 });
    expect(built.summary.verdict).toBe("not-conformant");
    expect(JSON.stringify(built)).not.toContain("s3cr3t-value");
  });

  it("a report with nothing judged is still valid", () => {
    const empty = buildReport({ ...input(), results: [], deselected: 0 });
    expect(empty.summary.verdict).toBe("nothing-judged");
    expect(errorsOf(empty)).toBeNull();
  });

  const mutations: [string, (r: RunReport) => void][] = [
    ["a fail with no findings", (r) => { r.clauses[1]!.findings = []; }],
    ["a skip without a reason", (r) => { delete r.clauses[2]!.reason; }],
    ["a not-applicable without a reason", (r) => { delete r.clauses[3]!.reason; }],
    ["a pass with findings", (r) => { r.clauses[0]!.findings = [finding]; }],
    ["an unknown status", (r) => { (r.clauses[0] as { status: string }).status = "passed"; }],
    ["an unknown verdict", (r) => { (r.summary as { verdict: string }).verdict = "mostly-conformant"; }],
    ["a negative count", (r) => { r.summary.failed = -1; }],
    ["a finding without a message", (r) => { delete (r.clauses[1]!.findings[0] as Partial<Finding>).message; }],
    ["evidence without an excerpt", (r) => { delete (r.clauses[1]!.findings[0]!.evidence![0] as { excerpt?: string }).excerpt; }],
    ["evidence on an unknown stream", (r) => { (r.clauses[1]!.findings[0]!.evidence![0] as { stream: string }).stream = "stdlog"; }],
    ["evidence line 0", (r) => { r.clauses[1]!.findings[0]!.evidence![0]!.line = 0; }],
    ["a clause id with a bad shape", (r) => { r.clauses[0]!.id = "provider/Sample"; }],
    ["an unknown top-level field", (r) => { (r as unknown as Record<string, unknown>).extra = 1; }],
    ["reportVersion 2", (r) => { (r as { reportVersion: number }).reportVersion = 2; }],
    ["an empty argv", (r) => { r.candidate.argv = []; }],
    ["a startedAt that is not a date-time", (r) => { r.startedAt = "yesterday"; }],
    ["an unknown protocol", (r) => { (r as { protocol: string }).protocol = "mcp"; }],
  ];

  it.each(mutations)("rejects %s", (_name, mutate) => {
    const mutated = structuredClone(report());
    mutate(mutated);
    expect(validate(mutated)).toBe(false);
  });
});
