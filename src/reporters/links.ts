import { loadCatalogue } from "../core/clauses/catalogue.js";
import { sourceUrl } from "../core/clauses/sources.js";
import type { Clause, SuiteProtocol } from "../core/report/types.js";

/** The anchor of a clause in docs/clauses.md: its id with slashes as dashes. */
export function clauseAnchor(id: string): string {
  return id.replace(/\//g, "-");
}

const SUITES: readonly string[] = ["provider", "agent-cli", "host"] satisfies readonly SuiteProtocol[];

/** The kit's own clause of that id, or undefined (a policy-test case, an id of another kit version, an unreadable catalogue). */
export function catalogueClause(id: string): Clause | undefined {
  const protocol = id.split("/")[0] ?? "";
  if (!SUITES.includes(protocol)) return undefined;
  try {
    return loadCatalogue(protocol as SuiteProtocol).find((clause) => clause.id === id);
  } catch {
    return undefined;
  }
}

/**
 * Where a report links a clause. With `docsUrl` (--docs-url, a place the user hosts
 * docs/clauses.md) its anchor there; otherwise the public, versioned source the clause cites,
 * so the link works wherever the report is opened, a CI artifact included. Never a path of
 * the machine that ran the kit. Undefined when there is nothing to link.
 */
export function clauseLink(id: string, docsUrl?: string): string | undefined {
  if (docsUrl !== undefined) return `${docsUrl}#${clauseAnchor(id)}`;
  const clause = catalogueClause(id);
  return clause === undefined ? undefined : sourceUrl(clause.source);
}

/** The protocol area of a clause id (`provider/transport/utf8` → `provider/transport`). */
export function areaOf(id: string): string {
  return id.split("/").slice(0, 2).join("/");
}
