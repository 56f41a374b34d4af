/** The anchor of a clause in docs/clauses.md: its id with slashes as dashes. */
export function clauseAnchor(id: string): string {
  return id.replace(/\//g, "-");
}

export const DEFAULT_DOCS_URL = "docs/clauses.md";

export function clauseLink(id: string, docsUrl: string = DEFAULT_DOCS_URL): string {
  return `${docsUrl}#${clauseAnchor(id)}`;
}

/** The protocol area of a clause id (`provider/transport/utf8` → `provider/transport`). */
export function areaOf(id: string): string {
  return id.split("/").slice(0, 2).join("/");
}
