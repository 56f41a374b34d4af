import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SCENARIOS } from "../core/agent-cli/scenarios.js";
import { loadCatalogue } from "../core/clauses/catalogue.js";
import { docUrl, SOURCES, sourceLabel, sourceRevision, sourceUrl } from "../core/clauses/sources.js";
import { packageRoot } from "../core/paths.js";
import type { Clause, ClauseSource, SuiteProtocol } from "../core/report/types.js";
import { areaOf, clauseAnchor } from "../reporters/links.js";
import type { FaultCase, FaultTable } from "./fault-tables.js";

/**
 * Generates docs/clauses.md from suites/ (pure: same inputs, same bytes; no dates). Which
 * fake proves a clause can fail lives in the test tables, which src/ must not import: the
 * caller (scripts/clause-docs.mjs, the docs test) loads them and passes them in.
 */

const PROTOCOLS: readonly { protocol: SuiteProtocol; title: string; about: string }[] = [
  {
    protocol: "provider",
    title: "Policy providers (aw-provider/v1alpha1)",
    about:
      "The kit plays the host: one process per request, the request on stdin, one JSON object expected on stdout. " +
      "A run sends, in order, `describe`, `validate_config` (the given configuration, the given invalid ones and the kit's own probes), " +
      "the `invoke` matrix (every described operation × tool event × admissible effect set × probe tool), the digest dialect probe " +
      "(the first accepted invocation with exponent floats, bound as each serde_json version binds it) and the hostile probes, each after a control " +
      "that differs from it in exactly one property. " +
      "Requests that depend on no answer of each other's go `--jobs` at once (default 2), and the report numbers them in this order whatever `--jobs` is. " +
      "With `--fuzz-runs`, fuzzed requests are judged by the same checks.",
  },
  {
    protocol: "agent-cli",
    title: "Agent CLIs (AWP JSON Lines over stdin/stdout)",
    about:
      "The kit launches the CLI as the Desktop does and drives the scenarios below against its own deterministic model. " +
      "Every transcript of a run is judged by every check; the table says which scenario is there to exercise which clauses.",
  },
  {
    protocol: "host",
    title: "Hosts (the other side of both protocols, judged by check-launch)",
    about:
      "A host (a desktop launcher, an aw-host, a gateway) launches the kit's mock instead of a real agent CLI or provider; the mock " +
      "records what it was given (`AWP_CONFORMANCE_MOCK_RECORD=FILE`: argv, environment, parent process, stdin lines, signals) and " +
      "`awp-conformance check-launch FILE` judges that record. The launch, input and shutdown areas judge agent-cli hosts, the provider and provider-reactions areas " +
      "provider hosts; `--expect-*` options give the host's configuration to compare with. The agent-cli-reactions area judges what an agent-cli " +
      "host does after the mock misbehaves (its faults), from the same record: the mock also notes when a fault fired, the session ids and " +
      "terminal events it gave, and when its host went away.",
  },
];

/** How each area is tested when no scenario names it: the provider request groups, and agent-cli launch. */
const AREA_TESTS: Readonly<Record<string, string>> = {
  "provider/transport": "every answer to the kit's well-formed requests: `describe`, each `validate_config` and the whole `invoke` matrix (one bad answer fails the clause)",
  "provider/envelope": "the envelope of every answer to a well-formed request: `describe`, `validate_config` and `invoke`",
  "provider/describe": "the `describe` call that starts every run",
  "provider/validate-config":
    "the `validate_config` probes: the configuration given with `--config-json`/`--config-file`, the invalid ones from `--invalid-config-file`, and the kit's own (an unknown setting, each setting with a wrong type)",
  "provider/invoke":
    "the invocation matrix: `invoke` for every described operation, tool event, admissible effect set and probe tool; the digest dialect probe (one invocation with exponent floats, bound in each dialect)",
  "provider/robustness":
    "the hostile probes: requests the upstream library never sends, one kind per clause, each judged only when its control (the same request without the defect, or at the limit it crosses) was answered ok",
  "agent-cli/launch": "the launch configuration, before any process starts (from the command line, or the `AWP_AGENT_CLI_*` variables with `--from-env`)",
  "host/launch": "`check-launch` on the mock's launch record: the launch line of every agent-cli process (argv as exec'd, environment, parent process, stdin and stdout)",
  "host/input": "`check-launch` on the mock's launch record: every line the host wrote on an agent-cli process's stdin, as written, and how stdin ended",
  "host/shutdown": "`check-launch` on the mock's launch record: the signals each agent-cli process got, its `alive` lines after an ignored SIGTERM, and its exit line (or none: killed)",
  "host/provider": "`check-launch` on the mock provider's launch record: one process per call, with its launch line, request line, signals and exit line",
  "host/provider-reactions":
    "`check-launch` on the mock provider's launch record across calls: which provider each process is (its arguments; `--expect-providers-json`), the method, request id, budget_ms, operation and event hash of each request, the mock's answer line (which failure faults fired) and when each process started and ended; the host's own classification of each answer from `--host-outcomes`",
  "host/agent-cli-reactions":
    "`check-launch` on the agent-cli mock's launch record of a host run against a fault: the `fault` line (when it fired), the stdin lines and signals after it, the `session` and `result` lines that tie processes into conversations and turns to their outcome, and `host-gone`",
};

/** Clauses judged otherwise than their area: the runner's look for leftovers after every launch. */
const CLAUSE_TESTS: Readonly<Record<string, string>> = {
  "provider/transport/no-leftover-processes": "the kit's look in /proc after every call it makes (well-formed, hostile and fuzzed alike), once the process exited and its group was killed",
  "agent-cli/termination/no-leftover-processes": "the kit's look in /proc after every launch of every scenario (and of fuzzed sessions), once the process exited and its group was killed; scenario `basic` always runs it",
};

/** Escapes catalogue text (trusted, but written as prose) for Markdown; keeps snake_case names readable. */
export function md(text: string): string {
  return text
    .replace(/[\\`*[\]|$~]/g, (c) => `\\${c}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/_/g, (c, at: number, all: string) => (/[A-Za-z0-9]/.test(all[at - 1] ?? "") && /[A-Za-z0-9]/.test(all[at + 1] ?? "") ? c : `\\${c}`));
}

const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
export const code = (text: string): string => `\`${text}\``;

/** A source as a Markdown link to its public, versioned place (the link holds the commit; `revision` also names it). */
export function sourceLink(source: ClauseSource, revision = true): string {
  const url = sourceUrl(source);
  const label = md(sourceLabel(source));
  if (url === undefined) return label;
  return revision ? `[${label}](${url}) (${md(sourceRevision(source) ?? "")})` : `[${label}](${url})`;
}

/** The documents clauses cite (src/core/clauses/sources.ts), each linked at its commit. */
function sourcesTable(): string[] {
  const rows = Object.values(SOURCES).map((doc) => `| [${md(doc.title)}](${docUrl(doc)}) | ${doc.kind === "contract" ? "contract" : "upstream implementation"} | ${code(doc.repo)} | ${code(doc.commit.slice(0, 8))} |`);
  return ["| Document | Kind | Repository | Commit |", "|---|---|---|---|", ...rows, ""];
}
const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? "" : "s"}`;

function levelCounts(clauses: readonly Clause[]): string {
  return (["MUST", "SHOULD", "MAY"] as const)
    .map((level) => ({ level, n: clauses.filter((c) => c.level === level).length }))
    .filter(({ n }) => n > 0)
    .map(({ level, n }) => `${n} ${level}`)
    .join(", ");
}

/** The one-line summary at the top of a suite file (its first comment), without the protocol prefix. */
function areaSummary(protocol: SuiteProtocol, area: string): string {
  const text = readFileSync(join(packageRoot(), "suites", protocol, `${area}.yaml`), "utf8");
  const first = /^#\s*(.+)$/m.exec(text)?.[1] ?? "";
  return first.replace(/^[^:]*:\s*/, "");
}

function howTested(clause: Clause): string {
  const area = areaOf(clause.id);
  const own = CLAUSE_TESTS[clause.id];
  if (own !== undefined) return own;
  if (clause.id.startsWith("agent-cli/")) {
    const names = Object.entries(SCENARIOS)
      .filter(([, s]) => s.judges.some((j: string) => clause.id === j || clause.id.startsWith(`${j}/`)))
      .map(([name, s]) => `${code(name)} (${md(s.about)})`);
    if (names.length > 0) return `${names.length === 1 ? "scenario" : "scenarios"} ${names.join("; ")}`;
  }
  return AREA_TESTS[area] ?? "not listed: no scenario or request group judges this area (a gap in src/docs/clauses.ts)";
}

function describeCase(table: FaultTable, c: FaultCase, clause: string): string {
  const options = (c.options ?? []).join(" ");
  const env = Object.entries(c.kitEnv ?? {}).map(([k, v]) => `${k}=${v}`);
  const extras = [
    options === "" ? "" : options.length <= 40 && !options.includes("`") ? `kit options ${code(options)}` : `kit options ${(c.options ?? []).filter((o) => o.startsWith("--")).map(code).join(", ")}`,
    env.length > 0 ? `kit environment ${env.map(code).join(", ")}` : "",
    c.launch !== undefined ? `launch ${code(c.launch)}` : "",
    c.scenarios !== undefined && c.scenarios.length > 0 ? `scenario ${c.scenarios.map(code).join(", ")}` : "",
    c.fails.length > 1 ? `also fails ${c.fails.filter((id) => id !== clause).map(code).join(", ")}` : "",
  ].filter((e) => e !== "");
  const run = c.fault !== undefined ? code(`${table.fake} --fault ${c.fault}`) : `${code(table.fake)} with a launch configuration that breaks it, case ${code(c.name ?? "?")}`;
  return `${run}${extras.length > 0 ? ` (${extras.join("; ")})` : ""}`;
}

/** A record case: the passing record it changes and what the broken host did. */
function describeRecordCase(table: FaultTable, c: FaultCase, clause: string): string {
  const also = c.fails.length > 1 ? `; also fails ${c.fails.filter((id) => id !== clause).map(code).join(", ")}` : "";
  return `${code(`${table.fake}/${c.protocol ?? "?"}.jsonl`)} changed to show ${md(c.about ?? "a broken host")} (case ${code(c.name ?? "?")}${also})`;
}

function provedBy(clause: Clause, faults: readonly FaultTable[] | undefined): string {
  if (faults === undefined) return "the mock faults of `src/mocks/` (docs/mocks.md), see `test/integration/*-faults.ts`";
  const found = faults.flatMap((table) => {
    const cases = table.cases.filter((c) => c.fails.includes(clause.id)).map((c) => (table.kind === "record" ? describeRecordCase : describeCase)(table, c, clause.id));
    return cases.length > 0 ? [`${cases.join("; ")}; listed in ${code(table.table)}`] : [];
  });
  return found.length > 0 ? found.join("; ") : "no broken fake fails this clause yet";
}

function renderClause(clause: Clause, faults: readonly FaultTable[] | undefined): string[] {
  return [
    `<a id="${clauseAnchor(clause.id)}"></a>`,
    "",
    `#### ${clause.id} · ${clause.level} · ${md(clause.title)}`,
    "",
    md(clause.text.trim()),
    "",
    `- **Source:** ${sourceLink(clause.source)}`,
    ...(clause.modes !== undefined ? [`- **Modes:** ${clause.modes.map(code).join(", ")} only`] : []),
    `- **How it is tested:** ${howTested(clause)}`,
    `- **Shown to fail by:** ${provedBy(clause, faults)}`,
    "",
  ];
}

interface Area {
  id: string;
  clauses: Clause[];
}

function areasOf(clauses: readonly Clause[]): Area[] {
  const areas: Area[] = [];
  for (const clause of clauses) {
    const id = areaOf(clause.id);
    const last = areas[areas.length - 1];
    if (last !== undefined && last.id === id) last.clauses.push(clause);
    else areas.push({ id, clauses: [clause] });
  }
  return areas;
}

const INTRO = [
  "# Conformance clauses",
  "",
  "<!-- Generated from suites/ by scripts/clause-docs.mjs; do not edit. Regenerate: npm run build && node scripts/clause-docs.mjs -->",
  "",
  "Every check of awp-conformance judges one clause below. Each clause gives its level, its text, the " +
    "public source it comes from, how the kit tests it, and the deliberately broken fake that shows the check " +
    "can fail (for a host clause: the launch record of a deliberately broken host). Each is anchored by its id " +
    "(`provider/transport/utf8` as `#provider-transport-utf8`): reports link each result to its source, or here " +
    "when run with `--docs-url` pointing at a copy of this file.",
  "",
  "## Sources",
  "",
  "Clauses cite the two contracts by section, at a fixed commit anyone can open. Where a limit or behaviour " +
    "comes only from an upstream implementation (its JSON Schemas or code), the clause cites that file and says " +
    "in its text that the limit is the implementation's, not the contract's. Behaviour observed from real CLIs " +
    "(Claude Code, Qwen Code) has no public file: such a clause cites the contract section it relates to and " +
    "says what was observed. The replace_result and effect text rules come from a later revision of the " +
    "provider contract than the public one, and those clauses say so.",
  "",
  ...sourcesTable(),
  "| Level | Meaning |",
  "|---|---|",
  "| MUST | required by the contract; a failure makes the run not conformant |",
  "| SHOULD | recommended; a failure is a warning unless the run uses `--level should` or `--level all` |",
  "| MAY | optional behaviour the kit can still check; a failure counts only with `--level all` |",
  "",
  "A clause ends `pass`, `fail`, `skip` (something it needs did not happen; the report says what) or " +
    "`not-applicable` (the situation never arose). A run is not conformant when a failure of a counted level " +
    "stands or an `--expected-failures` entry went stale; otherwise it is incomplete (exit 4) when a clause of a " +
    "counted level was skipped, and conformant when something was judged.",
  "",
];

/** docs/clauses.md. Pass the loaded fault tables to name the fake that breaks each clause. */
export function renderClauseDocs(faults?: readonly FaultTable[]): string {
  const protocols = PROTOCOLS.map((p) => ({ ...p, areas: areasOf(loadCatalogue(p.protocol)) }));
  const lines = [...INTRO, "## Contents", ""];
  for (const p of protocols) {
    const all = p.areas.flatMap((a) => a.clauses);
    lines.push(`- [${p.title}](#${p.protocol}): ${plural(all.length, "clause")} (${levelCounts(all)})`);
    for (const area of p.areas) lines.push(`  - [${area.id}](#${clauseAnchor(area.id)}) (${levelCounts(area.clauses)}): ${md(areaSummary(p.protocol, area.id.split("/")[1] ?? "").replace(/\.$/, ""))}`);
  }
  lines.push("");
  for (const p of protocols) {
    lines.push(`<a id="${p.protocol}"></a>`, "", `## ${p.title}`, "", p.about, "");
    if (p.protocol === "agent-cli") {
      lines.push("| Scenario | What it does |", "|---|---|");
      for (const [name, s] of Object.entries(SCENARIOS)) lines.push(`| ${code(name)} | ${md(s.about)} |`);
      lines.push("");
    }
    for (const area of p.areas) {
      lines.push(`<a id="${clauseAnchor(area.id)}"></a>`, "", `### ${area.id}`, "", capitalized(md(areaSummary(p.protocol, area.id.split("/")[1] ?? ""))), "");
      for (const clause of area.clauses) lines.push(...renderClause(clause, faults));
    }
  }
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}
