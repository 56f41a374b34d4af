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

export const PROVIDER_EXPECT: HostExpectations = { args: ["--policy", "strict"], remoteOptIn: false };

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

export const PROVIDER_RECORD_CASES: readonly RecordCase[] = [
  { name: "provider-via-shell", about: "the host ran the provider through bash -c", protocol: "provider", fails: [prv("no-shell")], mutate: edit(VALIDATE, "launch", (l) => (l.parent = { pid: 4160, comm: "bash", exe: "bash" })) },
  { name: "method-as-argument", about: "the method added as an argument", protocol: "provider", fails: [prv("literal-argv")], mutate: setArgs(INVOKE, (a) => [...a, "invoke"]) },
  { name: "two-requests", about: "two requests written to one process", protocol: "provider", fails: [prv("one-request-per-process")], mutate: edit(VALIDATE, "request", (l) => (l.documents = 2)) },
  {
    name: "stdin-left-open",
    about: "stdin never closed, the process killed while it waited",
    protocol: "provider",
    fails: [prv("stdin-closed")],
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
];
