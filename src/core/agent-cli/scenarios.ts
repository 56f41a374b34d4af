/**
 * The scenarios the kit drives, by name, and the clauses each one can judge. The runner
 * implements them; checks find transcripts by these names (golden files carry them too).
 */
export const SCENARIOS = {
  basic: { judges: ["agent-cli/output", "agent-cli/session", "agent-cli/turns", "agent-cli/fidelity", "agent-cli/secrets", "agent-cli/termination/stdin-eof"], about: "two turns, then the end of stdin" },
  queued: { judges: ["agent-cli/turns/terminal-in-order", "agent-cli/turns/one-terminal-per-turn"], about: "two turns written back to back" },
  content: { judges: ["agent-cli/input/text-block", "agent-cli/input/image-block", "agent-cli/input/document-block", "agent-cli/input/unsupported-block"], about: "text, image, document and unknown blocks" },
  malformed: { judges: ["agent-cli/input/survives-malformed-line"], about: "lines that are not user messages, then a valid turn" },
  tools: { judges: ["agent-cli/turns/tool-use"], about: "the model calls a tool" },
  mcp: { judges: ["agent-cli/input/mcp-config"], about: "launched with --mcp-config" },
  resume: { judges: ["agent-cli/resume"], about: "a turn, exit, relaunch with --resume, a turn" },
  failures: { judges: ["agent-cli/failures"], about: "model HTTP 500 and a stalled stream, each followed by a good turn" },
  shutdown: { judges: ["agent-cli/termination/shutdown-line"], about: 'a turn, then {"type":"shutdown"}' },
  "sigterm-idle": { judges: ["agent-cli/termination/sigterm-idle"], about: "a turn, then SIGTERM" },
  "sigterm-mid-turn": { judges: ["agent-cli/termination/sigterm-mid-turn"], about: "SIGTERM while the reply streams" },
} as const;

export type ScenarioName = keyof typeof SCENARIOS;
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

/** Block type the kit sends as an "unsupported" content block. */
export const PROBE_BLOCK_TYPE = "awp_conformance_probe";
