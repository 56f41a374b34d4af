import { sourceLink } from "./clauses.js";
import { CATALOGUE } from "../mocks/catalogue/index.js";
import type { FaultInfo, MockProtocol } from "../mocks/catalogue/types.js";
import { faultUsage } from "../mocks/list.js";
import { clauseAnchor } from "../reporters/links.js";
import { code, md } from "./clauses.js";
import type { FaultTable } from "./fault-tables.js";

/**
 * Generates docs/mocks.md from the mock fault catalogue (src/mocks/catalogue/), pure: same
 * inputs, same bytes. Given the fault tables (test/integration/*-faults.ts, loaded by the
 * caller as for docs/clauses.md), each fault also names the kit clauses it makes fail.
 */

/** Catalogue prose: Markdown-escaped, but `code spans` kept. */
const prose = (text: string): string =>
  text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : md(part)))
    .join("");

export const mockAnchor = (fault: FaultInfo): string => `mock-${fault.protocol}-${fault.name}`;

const TITLES: Readonly<Record<MockProtocol, string>> = {
  "agent-cli": "Agent CLI mock faults",
  provider: "Provider mock faults",
};

const INTRO: readonly string[] = [
  "# Mocks: misbehaving candidates for testing a host",
  "",
  "<!-- Generated from src/mocks/catalogue/ by scripts/clause-docs.mjs; do not edit. Regenerate: npm run build && node scripts/clause-docs.mjs -->",
  "",
  "The kit judges candidates; the mocks serve the other side of the wire. A host (a Desktop launcher, a gateway that " +
    "drives agent CLIs, an aw-host running policy providers) can point its own tests at a mock that behaves like the " +
    "bundled reference candidate and misbehaves in named ways, to prove the host survives each one. The kit's own tests " +
    "use the same code: every clause of docs/clauses.md is shown to fail by one of these faults.",
  "",
  "## Running a mock",
  "",
  "```",
  "awp-conformance mock agent-cli|provider [--fault NAME[:k=v[,k=v]]]... [--seed N] [--record FILE] [--] [host args...]",
  "awp-conformance mock --list [--protocol agent-cli|provider] [--json]",
  "awp-conformance mock --path agent-cli|provider",
  "```",
  "",
  "- **Standalone bins**, for a host that needs an absolute executable path (the agent-cli launch contract does): " +
    "`awp-conformance-mock-agent-cli` and `awp-conformance-mock-provider`, that is " +
    "`node_modules/awp-conformance/dist/src/mocks/agent-cli.js` and `.../dist/src/mocks/provider.js` (executable, with a shebang). " +
    "`awp-conformance mock --path agent-cli` prints that absolute path (symbolic links resolved: npm's `.bin` entries are links, " +
    "which the launch contract refuses), wherever the kit is installed or cloned. " +
    "`awp-conformance mock ...` starts as fast: it is dispatched before the kit loads.",
  "- **Arguments.** The mock takes its own options (`--fault`, `--seed`, `--record`) out of argv wherever they come before " +
    "`--`, so they can be prefix arguments the host was configured with; everything else is passed on unchanged, in order " +
    "(after `--`, everything). The agent-cli mock ignores arguments before the first flag " +
    "the Desktop adds (`--output-format`, `--input-format`, `--print`, `--verbose`, `--model`, `--resume`, `--mcp-config`) " +
    "and replaces a `--model` the reference would refuse by `fake-model`.",
  "- **Environment.** `AWP_CONFORMANCE_MOCK_FAULTS` holds faults for a host that cannot pass flags: a comma-separated list " +
    "in the flag's syntax, where a part with `=` and no `:` before it is one more parameter of the fault before it " +
    "(`slow-invoke:ms=4000,id=*,ignore-sigterm` is two faults). `AWP_CONFORMANCE_MOCK_SEED` and " +
    "`AWP_CONFORMANCE_MOCK_RECORD` stand for `--seed` and `--record` (the flags win). The agent-cli mock runs the reference " +
    "CLI, which talks to the model at `AWP_REFERENCE_API_BASE_URL` (an OpenAI-compatible base URL; `awp-conformance fixture` " +
    "serves one on 127.0.0.1) with `AWP_REFERENCE_API_KEY`; see examples/reference-agent-cli. **Without a model URL** (the " +
    "variable unset or empty) the mock answers every turn with the kit's built-in deterministic model, served inside the " +
    "mock process on 127.0.0.1 (the replies read `Reply N from the awp-conformance fixture (turn N).`), so a host's tests " +
    "need nothing else running; a configured URL always wins.",
  "- **Parameters** are `name:k=v,k=v` (`;` works too). Each has a default that keeps what the kit's own tests expect. " +
    "A turn selector (`turn=`) is a number N (the Nth user line the process got) or one of the kit's turn tags (`basic-2`): " +
    "with input that never carried the kit's `[[awp-fixture ...]]` directive, a tag stands for its number, so " +
    "`exit-mid-turn` ends a host's 2nd turn. `slow-invoke`'s default `id=invoke-1` is the kit's first invocation when the " +
    "kit launched the mock (its launch marker `AWP_CONFORMANCE_LAUNCH` is set) and every invocation under any other host.",
  "- **Several faults** compose (`--fault a --fault b`) and apply in the order given, the environment's first; a fault " +
    "named twice counts once, with the parameters given last. Agent-cli: start-up hooks run in order; an input line passes " +
    "each fault's input hook in turn (a dropped line stops there); each line the reference writes passes the first " +
    "fault's output hook, then every line that produced passes the next one's; a model request passes the first fault's " +
    "fetch hook first and the network last; stdin stays open if any fault keeps it open; a SIGTERM is ignored if any " +
    "fault ignores it. Provider: a refused request is taken by the first lenient fault that matches the refusal; request, " +
    "response and stdout-text hooks each pass their result to the next fault's; the first exit status set wins; delays " +
    "before answering add up; the longest linger wins; SIGTERM is ignored if any fault ignores it.",
  "- **Seeds.** `--seed N` (0 to 4294967295) makes the faults marked *random* repeat themselves; without it each run draws a fresh seed.",
  "- **Mistakes** (an unknown fault or parameter, a bad value) exit 2 with one line on stderr naming the nearest valid names.",
  "",
  "## The launch record",
  "",
  "`--record FILE` (or `AWP_CONFORMANCE_MOCK_RECORD=FILE`) makes the mock append what the host gave it to FILE as JSON " +
    "Lines, one synchronous append per event, so a SIGKILL loses nothing already written and the provider processes of " +
    "one host can share a file. Recording off costs nothing: the recorder is not even loaded. Every line has " +
    "`v` (1), `protocol`, `pid`, `at` (epoch milliseconds with fractions, comparable across processes) and `event`:",
  "",
  "| Event | Fields | When |",
  "|---|---|---|",
  "| `launch` | `argv` (the script path as the exec gave it, then every argument), `mockArgs` (what is left after the mock's own options), `execPath`, `cwd`, `env` (every variable; the value of a name holding key, token, secret, passwd/password, credential or auth, the kit's own rule, is `[redacted]`), `stdin` and `stdout` (`isTTY`, `kind`: pipe, file, tty, socket, null or other), `parent` (`pid`, `comm`, `exe`), `pgid`, `sid`, `faults` (as given); agent-cli also `mcpConfig` (`path`, `exists`, `json`) or null | first line of every process |",
  "| `stdin-line` | `index`, `bytes`, `sha256`, `text` (the first 4096 characters), `truncated`, `json` (null, or `{type}`) | every line the host wrote (agent-cli), before any fault touches it, blank lines too |",
  "| `stdin-data` | `bytes`: the size of the first chunk | provider: the first bytes of stdin arrived (once; a process killed before it shows none) |",
  "| `stdin-end` | `partial`: bytes of an unterminated last line | stdin reached its end |",
  "| `request` | `bytes`, `documents` (top-level JSON documents on stdin), `method`, `id`, `deadline` (`{budget_ms}` as sent, or null), `operation`, `toolEvent` (`name`, `callId`: the event's tool.call_id, `sha256`: the event object hashed with sorted keys, so the same event sent to several providers shows alike; null without an event), `json` (one object), `capped` when the input cap was hit | provider, once stdin ended |",
  "| `answer` | `status` (of the response written, or null), `effects` (their types), `exitCode` (the status a fault set, or null), `failures` (the faults that changed this answer into a failed call: their host rule below says so), `rejected` when the mock refused the request (exit 2) | provider, just before it writes its answer; none when it was killed first (hang, slow-invoke) or crashed |",
  "| `signal` | `name` (SIGTERM, SIGINT, SIGHUP), `action` (exit or ignored) | each signal |",
  "| `alive` | | one at once, then every 100 ms, while the mock runs on after ignoring a signal, and while a provider fault holds it (hang, slow-invoke, linger), so a SIGKILL shows when it came (at most 600; then `exit` with reason not-killed, exit 1) |",
  "| `exit` | `code`, `reason` (stdin-ended, signal, fault, not-killed, done) | just before the process ends by itself; a crash fault writes code 139 (SIGSEGV). No `exit` line: it was killed (SIGKILL) after its last line |",
  "| `fault` | `name`, `input` (the index of the stdin line whose turn it hit, or null), `bytes` (huge-line: the run's length) | agent-cli: the moment a fault that a host reacts to fired: huge-line (its run begins), log-on-stdout, untyped-event, unknown-event, split-lines (once per turn), exit-mid-turn, exit-at-start, refused-launch, refuse-resume, refuse-mcp-config, partial-last-line |",
  "| `fault-flushed` | `name`, `input` | agent-cli: huge-line's run was handed to the pipe whole (the host had read all of it but what the pipe holds) |",
  "| `session` | `id` | agent-cli: a session id the host got on stdout, the first time (so a later `--resume ID` ties two processes to one conversation) |",
  "| `result` | `input`, `error` (is_error true) | agent-cli: the terminal event (a result, or message_stop) the host got for the stdin line of that index; a line without one failed before its end |",
  "| `host-gone` | `parent`: the pid of the host | agent-cli: stdin ended because the host is exiting or gone (its pid is no longer the parent, or /proc shows it exiting) |",
  "| `record-full` | | the file reached 16 MiB; nothing more is written |",
  "",
  "The faults `silent` and `binary-garbage` never read stdin, so their records have no stdin lines.",
  "",
];

function renderFault(fault: FaultInfo, clauses: readonly string[]): string[] {
  const lines = [`<a id="${mockAnchor(fault)}"></a>`, "", `#### ${code(fault.name)}${fault.seeded === true ? " · random" : ""}`, "", prose(fault.does), ""];
  if (fault.params.length > 0) {
    lines.push(`- **Parameters** (${code(faultUsage(fault))}): ${fault.params.map((p) => `${code(p.name)}, ${prose(p.about)} (default ${code(String(p.default))})`).join("; ")}`);
  }
  lines.push(`- **A correct host:** ${prose(fault.host.does)} (${sourceLink(fault.host.section, false)})`);
  if (fault.host.failure === true) lines.push("- **A failed call:** each answer it changes is named in the record's `answer` (`failures`); `check-launch` judges the host's reaction (host/provider-reactions).");
  if (fault.kitOnly !== undefined) lines.push(`- **Kit only:** ${prose(fault.kitOnly)}.`);
  const links = (ids: readonly string[]): string => ids.map((id) => `[${code(id)}](clauses.md#${clauseAnchor(id)})`).join(", ");
  const judged = fault.hostClauses ?? [];
  if (judged.length > 0) lines.push(`- **The host's reaction is judged by:** ${links(judged)} (${code("check-launch")} on the record)`);
  if (clauses.length > 0) lines.push(`- **Fails the kit's clause${clauses.length === 1 ? "" : "s"}:** ${links(clauses)}`);
  lines.push("");
  return lines;
}

/** The kit clauses each fault fails in the fault tables, by protocol and fault name. */
function clausesByFault(tables: readonly FaultTable[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const table of tables) {
    for (const c of table.cases) {
      if (c.fault === undefined || table.protocol === undefined) continue;
      const key = `${table.protocol}/${c.fault}`;
      out.set(key, [...new Set([...(out.get(key) ?? []), ...c.fails])].sort());
    }
  }
  return out;
}

/** docs/mocks.md. Pass the loaded fault tables to name the kit clauses each fault fails. */
export function renderMockDocs(tables: readonly FaultTable[] = []): string {
  const clauses = clausesByFault(tables);
  const lines = [...INTRO, "## Contents", ""];
  for (const protocol of ["agent-cli", "provider"] as const) {
    const faults = CATALOGUE.filter((f) => f.protocol === protocol);
    lines.push(`- [${TITLES[protocol]}](#mock-${protocol}): ${faults.length} faults`);
  }
  lines.push("");
  for (const protocol of ["agent-cli", "provider"] as const) {
    const faults = CATALOGUE.filter((f) => f.protocol === protocol);
    lines.push(`<a id="mock-${protocol}"></a>`, "", `## ${TITLES[protocol]}`, "", `\`awp-conformance mock ${protocol} --fault NAME\`, or \`awp-conformance-mock-${protocol} --fault NAME\`.`, "");
    let group = "";
    for (const fault of faults) {
      if (fault.group !== group) {
        group = fault.group;
        lines.push(`### ${protocol}: ${group}`, "");
      }
      lines.push(...renderFault(fault, clauses.get(`${protocol}/${fault.name}`) ?? []));
    }
  }
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}
