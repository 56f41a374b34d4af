import { describe, expect, it } from "vitest";
import { AGENT_MODULES, agentFault } from "../../src/mocks/agent-cli/main.js";
import { sourceProblem } from "../../src/core/clauses/sources.js";
import { CATALOGUE } from "../../src/mocks/catalogue/index.js";
import { faultUsage, renderListJson, renderListText } from "../../src/mocks/list.js";
import { PROVIDER_MODULES, providerFault } from "../../src/mocks/provider/main.js";
import * as agentCliFaults from "../integration/agent-cli-faults.js";
import * as providerFaults from "../integration/provider-faults.js";

const tableFaults = (module: Readonly<Record<string, unknown>>): string[] =>
  Object.values(module).flatMap((v) => (Array.isArray(v) ? v.flatMap((c: { fault?: unknown }) => (typeof c.fault === "string" ? [c.fault] : [])) : []));

describe("the mock fault catalogue", () => {
  it("has unique names per protocol, kebab-case, each with what it does, what a correct host does and the contract section", () => {
    for (const protocol of ["agent-cli", "provider"] as const) {
      const names = CATALOGUE.filter((f) => f.protocol === protocol).map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
    }
    for (const f of CATALOGUE) {
      expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.does.length, f.name).toBeGreaterThan(10);
      expect(f.host.does.length, f.name).toBeGreaterThan(10);
      // A public, versioned section, as a clause cites one (never a working copy users do not have).
      expect(sourceProblem(f.host.section), f.name).toBeUndefined();
      for (const p of f.params) expect(typeof p.default === "number" ? p.kind === "count" : p.kind !== "count", `${f.name}:${p.name}`).toBe(true);
    }
  });

  it("keeps each group's faults together, so the listing and the docs show every group once", () => {
    for (const protocol of ["agent-cli", "provider"] as const) {
      const groups = CATALOGUE.filter((f) => f.protocol === protocol).map((f) => f.group);
      const runs = groups.filter((g, i) => g !== groups[i - 1]);
      expect(new Set(runs).size, protocol).toBe(runs.length);
    }
  });

  it("is implemented exactly: every fault by the module of its group, and no implementation outside the catalogue", async () => {
    for (const f of CATALOGUE) await expect(f.protocol === "agent-cli" ? agentFault(f) : providerFault(f), f.name).resolves.toBeTypeOf("function");
    const listed = new Set(CATALOGUE.map((f) => `${f.protocol}/${f.name}`));
    for (const [protocol, modules] of [["agent-cli", AGENT_MODULES], ["provider", PROVIDER_MODULES]] as const) {
      for (const load of new Set(Object.values(modules))) for (const name of Object.keys(await load())) expect(listed, `${protocol}/${name}`).toContain(`${protocol}/${name}`);
    }
  });

  it("holds every fault the kit's fault tables run, and the ignore-sigterm fault of both mocks", () => {
    const names = (protocol: string): string[] => CATALOGUE.filter((f) => f.protocol === protocol).map((f) => f.name);
    expect(names("agent-cli")).toEqual(expect.arrayContaining([...tableFaults(agentCliFaults), "ignore-sigterm", "silent", "binary-garbage"]));
    expect(names("provider")).toEqual(expect.arrayContaining([...tableFaults(providerFaults), "ignore-sigterm", "hang", "slow-invoke"]));
  });

  it("lists as text (usage with defaults, host rule) and as JSON (the table itself)", () => {
    const slow = CATALOGUE.find((f) => f.name === "slow-invoke");
    expect(slow && faultUsage(slow)).toBe("slow-invoke:ms=budget+300,id=invoke-1");
    const text = renderListText(CATALOGUE.filter((f) => f.protocol === "provider"));
    expect(text).toMatch(/^provider faults: awp-conformance mock provider --fault NAME/);
    expect(text).toContain("    slow-invoke:ms=budget+300,id=invoke-1\n      does: ");
    expect(text).toContain("[aw-provider/v1alpha1 provider protocol § Delivery boundary]");
    expect(text).not.toContain("agent-cli faults");
    // The table itself, each host rule with its public link besides.
    const listed = JSON.parse(renderListJson(CATALOGUE)) as { host: { url: string } }[];
    expect(listed.map((f) => ({ ...f, host: { ...f.host, url: undefined } }))).toEqual(JSON.parse(JSON.stringify(CATALOGUE)));
    expect(listed[CATALOGUE.findIndex((f) => f.name === "slow-invoke")]?.host.url).toBe(
      "https://github.com/pilichoumao/ANOLISA/blob/f1571065b23cf6601857ce992496a953b787188c/src/aw/docs/design/provider-protocol.md#delivery-boundary",
    );
  });
});
