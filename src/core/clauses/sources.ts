/**
 * The public, versioned documents clauses cite, in one place. A clause's source is
 * `{doc: <key>, section: <heading or place>}`; the repository, path and commit live only
 * here, and every link is built from them. The catalogue loader refuses a clause whose
 * source this table does not resolve (an unknown key, a `spec/` path, a heading the cited
 * revision does not have), so no clause can cite a file users do not have.
 *
 * Contract documents are cited by heading, as rendered (backticks dropped): the headings
 * below are those of the document at that commit. Upstream code and schemas (cited only
 * where a limit or behaviour comes from the implementation, not the contract text) are
 * cited by a name that occurs in the file at that commit (a function, a constant, a schema
 * property), with its lines when they are known.
 */
import type { ClauseSource } from "../report/types.js";

interface SourceBase {
  /** What the document is, as docs and reports name it. */
  title: string;
  /** owner/name on GitHub. */
  repo: string;
  path: string;
  /** The full commit the citations were checked against. */
  commit: string;
}

/** A contract document: its text is the contract. */
export interface ContractDoc extends SourceBase {
  kind: "contract";
  /** The document's headings at that commit, as rendered. */
  headings: readonly string[];
}

/** An upstream implementation file: its limits are the implementation's, not the contract's. */
export interface UpstreamFile extends SourceBase {
  kind: "upstream";
  /** Names that occur in the file at that commit, each with its lines there ("L18-L26") or "" when not recorded. */
  places: Readonly<Record<string, string>>;
}

export type SourceDoc = ContractDoc | UpstreamFile;

const AWP = { repo: "primorLee/agent-workflow-platform", commit: "e02fed103861daf97f518d6dc222e48f899cc24c" } as const;
const ANOLISA = { repo: "pilichoumao/ANOLISA", commit: "f1571065b23cf6601857ce992496a953b787188c" } as const;

export const SOURCES = {
  "agent-cli-protocol": {
    ...AWP,
    kind: "contract",
    title: "AWP Agent CLI protocol",
    path: "docs/agent-cli-protocol.md",
    headings: ["AWP Agent CLI protocol", "Launch contract", "Input JSONL", "Output JSONL", "Resume and delivery semantics", "Security boundary", "Reference implementation and regression"],
  },
  "provider-protocol": {
    ...ANOLISA,
    kind: "contract",
    title: "aw-provider/v1alpha1 provider protocol",
    path: "src/aw/docs/design/provider-protocol.md",
    headings: [
      "Provider protocol and capability admission",
      "Delivery boundary",
      "Transport contract",
      "Three methods",
      "describe",
      "validate_config",
      "invoke",
      "Offline admission",
      "Relationship to Core and security enforcement",
      "Standalone stdio example",
      "Joint delivery with sec-core",
    ],
  },
  "awp-desktop-launcher": {
    ...AWP,
    kind: "upstream",
    title: "upstream Desktop launcher (cc-wrapper.ts)",
    path: "apps/desktop/electron/cc/cc-wrapper.ts",
    places: { parseConfiguredArgs: "", parseExplicitCliEnv: "", SAFE_PARENT_ENV_KEYS: "", isRemoteHttpUrl: "", startSession: "", translateEvent: "", handleStdoutChunk: "", stopProcess: "" },
  },
  "awp-desktop-agent-mode": {
    ...AWP,
    kind: "upstream",
    title: "upstream Desktop real-agent launch script (agent-electron.mjs)",
    path: "apps/desktop/scripts/agent-electron.mjs",
    places: { AWP_AGENT_CLI_EXECUTABLE: "L7-L13", AWP_AGENT_DEFAULT_MODEL: "L14-L19" },
  },
  "awp-reference-cli": {
    ...AWP,
    kind: "upstream",
    title: "upstream reference agent CLI (awp-agent-cli.mjs)",
    path: "examples/openai-compatible-agent-cli/awp-agent-cli.mjs",
    places: { userMessageFromLine: "", publicError: "", requestControlPlaneJson: "", runManagedTask: "", completeTurn: "", main: "" },
  },
  "aw-provider-request-schema": {
    ...ANOLISA,
    kind: "upstream",
    title: "upstream aw-provider request schema",
    path: "src/aw/crates/aw-provider/schemas/request-v1alpha1.schema.json",
    // request_id: the describe branch of the schema's oneOf (every branch has the same); the rest: the invoke branch.
    places: { request_id: "L18-L26", operation: "L93-L101", budget_ms: "L108-L112", allowed_effects: "L113-L127", input_digest: "L128-L133", event: "L137-L231", "event.name": "L148-L153" },
  },
  "aw-provider-response-schema": {
    ...ANOLISA,
    kind: "upstream",
    title: "upstream aw-provider response schema",
    path: "src/aw/crates/aw-provider/schemas/response-v1alpha1.schema.json",
    // status: one const per branch of the oneOf ("ok" three times, "error" once), so no one place.
    places: { status: "", operations: "L31-L96", effects: "L157-L188" },
  },
} as const satisfies Readonly<Record<string, SourceDoc>>;

export type SourceKey = keyof typeof SOURCES;

const TABLE: Readonly<Record<string, SourceDoc>> = SOURCES;

/** The document a key names, or undefined. */
export function sourceDoc(key: string): SourceDoc | undefined {
  return Object.hasOwn(TABLE, key) ? TABLE[key] : undefined;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces as hyphens. */
export function githubAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Why a clause source does not resolve to a public, versioned place, or undefined when it does. */
export function sourceProblem(source: ClauseSource): string | undefined {
  if (source.doc.startsWith("spec/")) return `cites ${source.doc}, a working copy users do not have; cite a key of src/core/clauses/sources.ts`;
  const doc = sourceDoc(source.doc);
  if (doc === undefined) return `cites the unknown document "${source.doc}" (known: ${Object.keys(TABLE).join(", ")})`;
  const known = doc.kind === "contract" ? doc.headings.includes(source.section) : Object.hasOwn(doc.places, source.section);
  if (known) return undefined;
  const what = doc.kind === "contract" ? "has no heading" : "has no recorded place";
  return `cites "${source.section}", but ${doc.repo} ${doc.path} at ${doc.commit.slice(0, 8)} ${what} of that name`;
}

/** The GitHub address of a document at its commit. */
export function docUrl(doc: SourceDoc): string {
  return `https://github.com/${doc.repo}/blob/${doc.commit}/${doc.path}`;
}

/** The public link of a clause source (the heading's anchor, or the place's lines), or undefined when it does not resolve. */
export function sourceUrl(source: ClauseSource): string | undefined {
  if (sourceProblem(source) !== undefined) return undefined;
  const doc = sourceDoc(source.doc) as SourceDoc;
  const fragment = doc.kind === "contract" ? githubAnchor(source.section) : (doc.places[source.section] ?? "");
  return fragment === "" ? docUrl(doc) : `${docUrl(doc)}#${fragment}`;
}

/** How docs and reports name a source: "AWP Agent CLI protocol § Output JSONL", or the file and the name in it. */
export function sourceLabel(source: ClauseSource): string {
  const doc = sourceDoc(source.doc);
  if (doc === undefined) return `${source.doc} § ${source.section}`;
  return doc.kind === "contract" ? `${doc.title} § ${source.section}` : `${doc.title}: ${source.section}`;
}

/** Where the cited revision lives, short: "primorLee/agent-workflow-platform at e02fed10". */
export function sourceRevision(source: ClauseSource): string | undefined {
  const doc = sourceDoc(source.doc);
  return doc === undefined ? undefined : `${doc.repo} at ${doc.commit.slice(0, 8)}`;
}
