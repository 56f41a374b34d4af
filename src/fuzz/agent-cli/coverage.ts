/** What the agent-cli fuzzer measures on every session it runs: step and block kinds, and sizes. */
import { BYTE_SCALE, countScale, CoverageTally, type DimensionSpec } from "../coverage.js";
import type { AgentStep, CoverageSummary } from "../types.js";
import { utf8 } from "./text.js";

export const AGENT_SIZES = {
  turns: "turns per session",
  blocks: "content blocks per turn besides the text",
  text: "turn text (UTF-8 bytes)",
  line: "user line (bytes, blocks included)",
} as const;

const DIMENSIONS: readonly DimensionSpec[] = [
  { name: AGENT_SIZES.turns, of: "sessions", scale: countScale(5) },
  { name: AGENT_SIZES.blocks, of: "turns", scale: countScale(6) },
  { name: AGENT_SIZES.text, of: "turns", scale: BYTE_SCALE },
  { name: AGENT_SIZES.line, of: "turns", scale: BYTE_SCALE },
];

const STEP_KINDS: Record<AgentStep["op"], string> = {
  turn: "turn",
  malformed: "malformed line",
  pause: "pause",
  "close-stdin": "end of stdin",
  shutdown: "shutdown line",
  sigterm: "SIGTERM",
};

/** "image block (image/gif)", "text block", "awp_conformance_probe block". */
function blockKind(block: Record<string, unknown>): string {
  const source = block.source as { media_type?: unknown } | undefined;
  const media = typeof source?.media_type === "string" ? ` (${source.media_type.length > 40 ? `${source.media_type.slice(0, 37)}…` : source.media_type})` : "";
  return `${String(block.type)} block${media}`;
}

/** Counts sessions as they end: the steps that ran, by kind, the blocks they carried, and their sizes. */
export class AgentCoverage {
  private readonly tally = new CoverageTally(DIMENSIONS, Object.values(STEP_KINDS));

  addSession(steps: readonly AgentStep[]): void {
    let turns = 0;
    for (const step of steps) {
      this.tally.kind(STEP_KINDS[step.op]);
      if (step.op !== "turn") continue;
      turns++;
      const blocks = step.blocks ?? [];
      for (const block of blocks) this.tally.kind(blockKind(block));
      this.tally.size(AGENT_SIZES.blocks, blocks.length);
      this.tally.size(AGENT_SIZES.text, utf8(step.text));
      this.tally.size(AGENT_SIZES.line, utf8(JSON.stringify([{ type: "text", text: step.text }, ...blocks])));
    }
    this.tally.size(AGENT_SIZES.turns, turns);
  }

  summary(): CoverageSummary {
    return this.tally.summary();
  }
}
