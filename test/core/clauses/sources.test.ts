import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "../../../src/core/clauses/catalogue.js";
import { githubAnchor, SOURCES, sourceDoc, sourceLabel, sourceProblem, sourceUrl, type SourceDoc } from "../../../src/core/clauses/sources.js";
import { CATALOGUE } from "../../../src/mocks/catalogue/index.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const clauses = (["provider", "agent-cli", "host"] as const).flatMap((protocol) => loadCatalogue(protocol));
const docs: [string, SourceDoc][] = Object.entries(SOURCES);
// Verbatim copies of the two upstream schemas (the project's working folder, absent in a clone).
const SHARED_SCHEMAS = join(root, "..", "shared", "upstream", "aw-provider");

describe("the source table", () => {
  it("pins every document to a full commit: the agent CLI contract's, the provider contract's", () => {
    for (const [key, doc] of docs) {
      expect(doc.commit, key).toMatch(/^[0-9a-f]{40}$/);
      expect(doc.repo, key).toMatch(/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/);
      expect(doc.path, key).not.toMatch(/^\/|\.\./);
    }
    expect(SOURCES["agent-cli-protocol"]).toMatchObject({ repo: "primorLee/agent-workflow-platform", path: "docs/agent-cli-protocol.md", commit: "e02fed103861daf97f518d6dc222e48f899cc24c" });
    expect(SOURCES["provider-protocol"]).toMatchObject({ repo: "pilichoumao/ANOLISA", path: "src/aw/docs/design/provider-protocol.md", commit: "f1571065b23cf6601857ce992496a953b787188c" });
  });

  it("makes GitHub's heading anchors", () => {
    expect(githubAnchor("Output JSONL")).toBe("output-jsonl");
    expect(githubAnchor("AWP Agent CLI protocol")).toBe("awp-agent-cli-protocol");
    expect(githubAnchor("validate_config")).toBe("validate_config");
    expect(githubAnchor("`describe`")).toBe("describe");
    expect(githubAnchor("Joint delivery with sec-core")).toBe("joint-delivery-with-sec-core");
    expect(githubAnchor("What's new? (v2)")).toBe("whats-new-v2");
  });

  it("resolves a heading to its anchor and an upstream place to its lines, at the commit", () => {
    expect(sourceUrl({ doc: "agent-cli-protocol", section: "Resume and delivery semantics" })).toBe(
      "https://github.com/primorLee/agent-workflow-platform/blob/e02fed103861daf97f518d6dc222e48f899cc24c/docs/agent-cli-protocol.md#resume-and-delivery-semantics",
    );
    expect(sourceUrl({ doc: "aw-provider-request-schema", section: "request_id" })).toBe(
      "https://github.com/pilichoumao/ANOLISA/blob/f1571065b23cf6601857ce992496a953b787188c/src/aw/crates/aw-provider/schemas/request-v1alpha1.schema.json#L18-L26",
    );
    expect(sourceUrl({ doc: "awp-desktop-launcher", section: "stopProcess" })).toMatch(/\/apps\/desktop\/electron\/cc\/cc-wrapper\.ts$/);
    expect(sourceLabel({ doc: "provider-protocol", section: "invoke" })).toBe("aw-provider/v1alpha1 provider protocol § invoke");
    expect(sourceLabel({ doc: "awp-desktop-launcher", section: "stopProcess" })).toBe("upstream Desktop launcher (cc-wrapper.ts): stopProcess");
  });

  it("refuses a spec/ path, an unknown document and a heading or place the cited revision lacks", () => {
    expect(sourceProblem({ doc: "spec/agent-cli-protocol.md", section: "Output JSONL" })).toMatch(/working copy users do not have/);
    expect(sourceProblem({ doc: "upstream-facts", section: "x" })).toMatch(/unknown document "upstream-facts"/);
    // The public provider contract at f1571065 has no such section (a later text does).
    expect(sourceProblem({ doc: "provider-protocol", section: "PostTool text replacement" })).toMatch(/at f1571065 has no heading of that name/);
    expect(sourceProblem({ doc: "aw-provider-request-schema", section: "tool_name" })).toMatch(/has no recorded place/);
    expect(sourceProblem({ doc: "toString", section: "x" })).toMatch(/unknown document/);
    expect(sourceUrl({ doc: "provider-protocol", section: "PostTool text replacement" })).toBeUndefined();
    expect(sourceDoc("constructor")).toBeUndefined();
  });

  it("holds only documents something cites: a clause or a mock fault's host rule", () => {
    const cited = new Set([...clauses.map((c) => c.source.doc), ...CATALOGUE.map((f) => f.host.section.doc)]);
    expect(docs.map(([key]) => key).filter((key) => !cited.has(key))).toEqual([]);
  });

  it.skipIf(!existsSync(SHARED_SCHEMAS))("gives schema places the lines where they stand at the commit (checked against ../shared's verbatim copies)", () => {
    for (const [key, doc] of docs) {
      if (doc.kind !== "upstream" || !doc.path.endsWith(".schema.json")) continue;
      const lines = readFileSync(join(SHARED_SCHEMAS, basename(doc.path)), "utf8").split("\n");
      for (const [place, range] of Object.entries(doc.places)) {
        if (range === "") continue;
        const [from, to] = (/^L(\d+)-L(\d+)$/.exec(range) ?? []).slice(1).map(Number) as [number, number];
        const first = lines[from - 1] ?? "";
        expect(first.trim(), `${key} ${place}`).toBe(`"${place.split(".").pop() ?? ""}": {`);
        const indent = first.length - first.trimStart().length;
        expect(lines[to - 1], `${key} ${place}`).toMatch(new RegExp(`^ {${indent}}\\},?$`));
      }
    }
  });
});

describe("clause sources", () => {
  it("every clause cites a public, versioned place", () => {
    for (const clause of clauses) {
      expect(sourceProblem(clause.source), clause.id).toBeUndefined();
      expect(sourceUrl(clause.source), clause.id).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\//);
    }
  });

  it("a clause resting on an upstream file says in its text that the rule is the implementation's", () => {
    const upstream = clauses.filter((c) => sourceDoc(c.source.doc)?.kind === "upstream");
    expect(upstream.length).toBeGreaterThan(0);
    for (const clause of upstream) expect(clause.text, clause.id).toMatch(/upstream/);
  });

  it("no suite file mentions the working copies users do not have", () => {
    for (const protocol of ["provider", "agent-cli", "host"]) {
      const dir = join(root, "suites", protocol);
      for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name), "utf8"), `${protocol}/${name}`).not.toMatch(/spec\/|upstream-facts/);
    }
  });
});
