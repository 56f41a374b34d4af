/**
 * Every host clause proven to fail: each case changes one thing in a passing launch record
 * (test/fixtures/launch-records/<protocol>.jsonl, which passes every clause with the base
 * expectations below) and names the exact clauses that must then fail. The host clauses have
 * no broken fake: what breaks them is a host, so a broken host's record stands in for it.
 * The docs (docs/clauses.md, "Shown to fail by") read this table.
 */
import type { HostExpectations } from "../../../src/core/host/types.js";

export type RecordLine = Record<string, unknown> & { event: string; pid?: number; at?: number };

export interface RecordCase {
  name: string;
  /** What the broken host did, in a few words (the docs print it). */
  about: string;
  protocol: "agent-cli" | "provider";
  /** The exact failing clause ids. */
  fails: readonly string[];
  /** The one change to the passing record (the lines are fresh copies). */
  mutate: (lines: RecordLine[]) => RecordLine[];
  /** Changes to the base expectations, when the case is about what the host was configured with. */
  expect?: Partial<HostExpectations>;
}

export const AGENT_CLI_RECORD = "test/fixtures/launch-records/agent-cli.jsonl";
export const PROVIDER_RECORD = "test/fixtures/launch-records/provider.jsonl";

/** What the passing agent-cli record's host was configured with. */
export const AGENT_CLI_EXPECT: HostExpectations = {
  model: "claude-sonnet-4",
  mode: "stream-json",
  args: ["--profile", "ci"],
  env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:8080", ANTHROPIC_API_KEY: "sk-test-0123456789" },
  resume: "sess-1",
  remoteOptIn: false,
};

/** The passing provider record's host: one enabled provider (its invoke killed at budget_ms, a failure it reports) and one disabled. */
export const PROVIDER_EXPECT: HostExpectations = {
  args: ["--policy", "strict"],
  providers: {
    strict: { args: ["--policy", "strict"], cwd: "/home/ci", env: { AWP_CONFORMANCE_MOCK_FAULTS: "slow-invoke:ms=3000" }, enabled: true },
    audit: { args: ["--policy", "audit"], enabled: false },
  },
  outcomes: { "invoke-1": "failure" },
  remoteOptIn: false,
};

/** The two processes of the agent-cli record: a fresh conversation, shut down while it ignored SIGTERM, then a resumed one with MCP. */
const FRESH = 4201;
const RESUMED = 4305;
/** The provider record's describe, validate_config and invoke (budget_ms 500) processes. */
const DESCRIBE = 5001;
const VALIDATE = 5002;
const INVOKE = 5003;

const COMPAT = ["--output-format", "stream-json", "--input-format", "stream-json", "--print", "--verbose"];

/** Applies `change` to the lines of `pid` of one event kind. */
function edit(pid: number, event: string, change: (line: RecordLine) => void): (lines: RecordLine[]) => RecordLine[] {
  return (lines) => {
    for (const line of lines) if (line.pid === pid && line.event === event) change(line);
    return lines;
  };
}

/** Sets a launch's arguments (mockArgs, and argv after the script path, alike). */
function setArgs(pid: number, args: (old: string[]) => string[]): (lines: RecordLine[]) => RecordLine[] {
  return edit(pid, "launch", (line) => {
    const next = args(line.mockArgs as string[]);
    line.mockArgs = next;
    line.argv = [(line.argv as string[])[0], ...next];
  });
}

function insertAfter(lines: RecordLine[], anchor: RecordLine, line: RecordLine): RecordLine[] {
  const at = lines.indexOf(anchor) + 1;
  return [...lines.slice(0, at), line, ...lines.slice(at)];
}

const env = (line: RecordLine): Record<string, string> => line.env as Record<string, string>;
const launchAt = (lines: RecordLine[], pid: number): number => lines.find((l) => l.pid === pid && l.event === "launch")?.at ?? 0;

const lch = (id: string): string => `host/launch/${id}`;

export const AGENT_CLI_RECORD_CASES: readonly RecordCase[] = [
  { name: "via-shell", about: "the host started the CLI through sh -c", protocol: "agent-cli", fails: [lch("no-shell")], mutate: edit(FRESH, "launch", (l) => (l.parent = { pid: 4150, comm: "sh", exe: "dash" })) },
  { name: "relative-executable", about: "the host ran a relative path", protocol: "agent-cli", fails: [lch("absolute-executable")], mutate: edit(FRESH, "launch", (l) => ((l.argv as string[])[0] = "./node_modules/.bin/awp-conformance-mock-agent-cli")) },
  { name: "argument-after-model", about: "an argument after --model M", protocol: "agent-cli", fails: [lch("argv-order")], mutate: setArgs(FRESH, (a) => [...a, "--debug"]) },
  { name: "resume-before-model", about: "--resume placed before --model", protocol: "agent-cli", fails: [lch("argv-order")], mutate: setArgs(RESUMED, (a) => [...a.slice(0, 8), "--resume", "sess-1", "--model", "claude-sonnet-4", ...a.slice(12)]) },
  { name: "compat-flags-reordered", about: "--print before --output-format", protocol: "agent-cli", fails: [lch("compat-flags")], mutate: setArgs(FRESH, (a) => [a[0]!, a[1]!, "--print", ...COMPAT.slice(0, 4), "--verbose", ...a.slice(8)]) },
  { name: "compat-flags-in-awp-jsonl", about: "awp-jsonl configured, compatibility flags sent anyway", protocol: "agent-cli", fails: [lch("compat-flags")], expect: { mode: "awp-jsonl" }, mutate: (lines) => lines },
  { name: "prefix-changed", about: "a prefix argument other than configured", protocol: "agent-cli", fails: [lch("prefix-args")], mutate: setArgs(FRESH, (a) => ["--profile", "dev", ...a.slice(2)]) },
  { name: "model-changed", about: "another model than configured", protocol: "agent-cli", fails: [lch("model-unchanged")], mutate: setArgs(FRESH, (a) => [...a.slice(0, -1), "claude-opus-4"]) },
  { name: "resume-changed", about: "--resume with another id than stored", protocol: "agent-cli", fails: [lch("resume-form")], mutate: setArgs(RESUMED, (a) => a.map((arg) => (arg === "sess-1" ? "sess-2" : arg))) },
  { name: "mcp-config-not-json", about: "--mcp-config naming a file that is not JSON", protocol: "agent-cli", fails: [lch("mcp-config-pair")], mutate: edit(RESUMED, "launch", (l) => ((l.mcpConfig as { json: boolean }).json = false)) },
  { name: "env-leaked", about: "the host's SHELL passed on to the CLI", protocol: "agent-cli", fails: [lch("env-allowlist")], mutate: edit(FRESH, "launch", (l) => (env(l).SHELL = "/bin/bash")) },
  { name: "env-value-changed", about: "a configured entry with another value", protocol: "agent-cli", fails: [lch("env-configured")], mutate: edit(FRESH, "launch", (l) => (env(l).ANTHROPIC_BASE_URL = "http://127.0.0.1:9999")) },
  {
    name: "remote-url-without-opt-in",
    about: "a configured https URL off this machine, no opt-in",
    protocol: "agent-cli",
    fails: [lch("remote-url-opt-in")],
    expect: { env: { ...AGENT_CLI_EXPECT.env, ANTHROPIC_BASE_URL: "https://api.example.com" } },
    mutate: (lines) => edit(RESUMED, "launch", (l) => (env(l).ANTHROPIC_BASE_URL = "https://api.example.com"))(edit(FRESH, "launch", (l) => (env(l).ANTHROPIC_BASE_URL = "https://api.example.com"))(lines)),
  },
  { name: "stdin-is-a-tty", about: "stdin left on the terminal", protocol: "agent-cli", fails: [lch("stdio-pipes")], mutate: edit(FRESH, "launch", (l) => (l.stdin = { isTTY: true, kind: "tty" })) },
  {
    name: "blank-stdin-line",
    about: "a blank line between two turns",
    protocol: "agent-cli",
    fails: ["host/input/json-lines"],
    mutate: (lines) => {
      const first = lines.find((l) => l.pid === FRESH && l.event === "stdin-line")!;
      return insertAfter(lines, first, { ...first, index: 9, bytes: 0, text: "", json: null, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" });
    },
  },
  {
    name: "assistant-turn",
    about: "a turn with role assistant",
    protocol: "agent-cli",
    fails: ["host/input/user-shape"],
    mutate: edit(RESUMED, "stdin-line", (l) => (l.text = JSON.stringify({ type: "user", message: { role: "assistant", content: [{ type: "text", text: "hi" }] } }))),
  },
  { name: "sighup-first", about: "SIGHUP instead of SIGTERM", protocol: "agent-cli", fails: ["host/shutdown/sigterm-first"], mutate: edit(RESUMED, "signal", (l) => (l.name = "SIGHUP")) },
  {
    name: "killed-late",
    about: "SIGKILL 5 s after SIGTERM",
    protocol: "agent-cli",
    fails: ["host/shutdown/kill-after-grace"],
    mutate: (lines) => {
      const alive = lines.filter((l) => l.pid === FRESH && l.event === "alive");
      const last = alive[alive.length - 1]!;
      const sigterm = lines.find((l) => l.pid === FRESH && l.event === "signal")!;
      return insertAfter(lines, last, { ...last, at: (sigterm.at ?? 0) + 5000 });
    },
  },
];

const prv = (id: string): string => `host/provider/${id}`;
const rct = (id: string): string => `host/provider-reactions/${id}`;

/** Lines of one pid, shifted by `ms`. */
const shift = (pid: number, ms: number) => (lines: RecordLine[]): RecordLine[] => lines.map((l) => (l.pid === pid ? { ...l, at: (l.at ?? 0) + ms } : l));

/** A further provider process, appended: a launch like `like`'s, then `events` (request, answer, exit...) at their offsets from `at`. */
function addProcess(pid: number, like: number, at: number, events: readonly RecordLine[], launch: Partial<RecordLine> = {}) {
  return (lines: RecordLine[]): RecordLine[] => {
    const base = lines.find((l) => l.pid === like && l.event === "launch")!;
    const added: RecordLine[] = [{ ...base, ...launch, pid, at }, ...events.map((e) => ({ v: 1, protocol: "provider", pid, ...e, at: at + (e.at ?? 0) }))];
    return [...lines, ...added];
  };
}

const EVENT = { name: "tool.before", callId: "call-1", sha256: "9".repeat(64) };
const request = (method: string, id: string, extra: Record<string, unknown> = {}): RecordLine => ({ event: "request", at: 20, bytes: 180, documents: 1, method, id, deadline: null, json: true, operation: null, toolEvent: null, ...extra });
const invokeRequest = (id: string, extra: Record<string, unknown> = {}): RecordLine => request("invoke", id, { deadline: { budget_ms: 500 }, operation: "check", toolEvent: EVENT, ...extra });
const answered: RecordLine[] = [{ event: "answer", at: 30, status: "ok", effects: [], exitCode: null, failures: [] }, { event: "exit", at: 40, code: 0, reason: "done" }];

export const PROVIDER_RECORD_CASES: readonly RecordCase[] = [
  { name: "provider-via-shell", about: "the host ran the provider through bash -c", protocol: "provider", fails: [prv("no-shell")], mutate: edit(VALIDATE, "launch", (l) => (l.parent = { pid: 4160, comm: "bash", exe: "bash" })) },
  { name: "method-as-argument", about: "the method added as an argument", protocol: "provider", fails: [prv("literal-argv")], mutate: setArgs(INVOKE, (a) => [...a, "invoke"]) },
  { name: "two-requests", about: "two requests written to one process", protocol: "provider", fails: [prv("one-request-per-process")], mutate: edit(VALIDATE, "request", (l) => (l.documents = 2)) },
  {
    name: "stdin-left-open",
    about: "stdin never closed, the process killed while it waited",
    protocol: "provider",
    // The describe never answered, and the host invoked anyway: preparation is not complete either.
    fails: [prv("stdin-closed"), rct("prepared-before-invoke")],
    mutate: (lines) => lines.flatMap((l) => (l.pid !== DESCRIBE || l.event === "launch" ? [l] : l.event === "stdin-end" ? [{ v: l.v, protocol: l.protocol, pid: l.pid, at: l.at, event: "stdin-data", bytes: 85 }] : [])),
  },
  {
    name: "deadline-ignored",
    about: "the invoke left running past budget_ms",
    protocol: "provider",
    fails: [prv("deadline-enforced")],
    mutate: (lines) => {
      const start = launchAt(lines, INVOKE);
      return lines
        .filter((l) => !(l.pid === INVOKE && l.event === "signal"))
        .map((l) => (l.pid === INVOKE && l.event === "exit" ? { ...l, at: start + 2000, code: 0, reason: "done" } : l));
    },
  },
  // ---- reactions (suites/host/provider-reactions.yaml)
  { name: "invoke-before-prepare", about: "invoked the provider before describing and validating it", protocol: "provider", fails: [rct("prepared-before-invoke")], mutate: shift(INVOKE, -1000) },
  {
    name: "invoke-after-rejected-config",
    about: "invoked a provider whose validate_config failed",
    protocol: "provider",
    fails: [rct("prepared-before-invoke")],
    mutate: edit(VALIDATE, "answer", (l) => Object.assign(l, { status: "error", failures: ["reject-all-configs"] })),
  },
  { name: "described-twice", about: "described the provider again before the invoke", protocol: "provider", fails: [rct("prepared-once-in-order")], mutate: addProcess(5004, DESCRIBE, 1764633600400, [request("describe", "describe-2"), ...answered]) },
  { name: "validated-before-describe", about: "validate_config before describe", protocol: "provider", fails: [rct("prepared-once-in-order")], mutate: shift(VALIDATE, -500) },
  {
    name: "disabled-started",
    about: "described a provider the configuration disables",
    protocol: "provider",
    fails: [rct("disabled-not-started")],
    mutate: addProcess(5004, DESCRIBE, 1764633600400, [request("describe", "describe-audit"), ...answered], { mockArgs: ["--policy", "audit"], argv: ["/opt/host-ci/node_modules/awp-conformance/dist/src/mocks/provider.js", "--policy", "audit"] }),
  },
  {
    name: "spawned-after-deadline",
    about: "the event's next step started 2 s after its deadline, with a fresh budget",
    protocol: "provider",
    fails: [rct("spawn-before-deadline")],
    mutate: addProcess(5006, INVOKE, 1764633603200, [invokeRequest("invoke-2", { operation: "record" }), ...answered]),
  },
  { name: "no-budget-left", about: "an invoke sent with budget_ms 0", protocol: "provider", fails: [rct("spawn-before-deadline")], mutate: addProcess(5006, INVOKE, 1764633601000, [invokeRequest("invoke-2", { operation: "record", deadline: { budget_ms: 0 } }), ...answered]) },
  {
    name: "two-processes-one-claim",
    about: "one step of an event run by two processes at once",
    protocol: "provider",
    fails: [rct("one-process-per-claim")],
    mutate: (lines) => {
      const other = { toolEvent: { ...EVENT, callId: "call-2", sha256: "8".repeat(64) } };
      return addProcess(5007, INVOKE, 1764633601310, [invokeRequest("invoke-2", other), ...answered])(addProcess(5006, INVOKE, 1764633601300, [invokeRequest("invoke-2", other), ...answered])(lines));
    },
  },
  { name: "retried-after-failure", about: "the failed invoke run again for the same event", protocol: "provider", fails: [rct("no-retry-after-failure")], mutate: addProcess(5006, INVOKE, 1764633601200, [invokeRequest("invoke-1-retry"), ...answered]) },
  { name: "failure-as-block", about: "the host's own account: the failed invoke taken as a decision", protocol: "provider", fails: [rct("failure-not-block")], expect: { outcomes: { "invoke-1": "decision" } }, mutate: (lines) => lines },
  { name: "cwd-changed", about: "the invoke run in another directory", protocol: "provider", fails: [prv("configured-cwd")], mutate: edit(INVOKE, "launch", (l) => (l.cwd = "/tmp")) },
  { name: "env-changed", about: "a configured environment entry with another value", protocol: "provider", fails: [prv("configured-env")], mutate: edit(INVOKE, "launch", (l) => (env(l).AWP_CONFORMANCE_MOCK_FAULTS = "hang")) },
];
