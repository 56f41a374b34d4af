/** Shared setup of the agent-cli fuzzer tests (not a test file itself). */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isRecord } from "../../../src/core/agent-cli/analysis.js";
import type { LaunchConfig } from "../../../src/core/agent-cli/launch.js";
import type { Transcript } from "../../../src/core/agent-cli/types.js";
import type { AgentFuzzContext } from "../../../src/fuzz/agent-cli/index.js";
import type { AgentStep } from "../../../src/fuzz/types.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const REFERENCE = `${ROOT}examples/reference-agent-cli/agent-cli.mjs`;
export const FAKE = `${ROOT}dist/src/mocks/agent-cli.js`;

/** The environment the reference (and so the fake) needs, as src/cli/bundled.ts gives it. */
const REFERENCE_ENV: Record<string, string> = {
  AWP_REFERENCE_API_BASE_URL: "{{fixture.openai}}",
  AWP_REFERENCE_API_KEY: "{{fixture.token}}",
  AWP_REFERENCE_TIMEOUT_MS: "2000",
};

/** A missing terminal costs this much per failing session: small so shrinking stays quick, yet well above a turn of the fake on a loaded 2-core box (1 s was not: a slow turn there shrank to a timeout instead of the fault). */
export const TURN_TIMEOUT_MS = 3000;

/** The reference CLI (fault undefined) or the fake with one fault, run by this node. */
export function fuzzContext(fault?: string, maxCommands = 4): AgentFuzzContext {
  const script = fault === undefined ? [REFERENCE] : [FAKE, "--fault", fault];
  const config: LaunchConfig = { executable: process.execPath, prefixArgs: script, mode: "awp-jsonl", model: "awp-fixture-model", env: { ...REFERENCE_ENV } };
  return { config, turnTimeoutMs: TURN_TIMEOUT_MS, maxCommands };
}

export const utf8 = (text: string): number => Buffer.byteLength(text, "utf8");

/** The content blocks of the first user line the kit sent, and their text blocks joined (as the fakes read it). */
export function firstSent(transcript: Transcript): { blocks: unknown[]; text: string } {
  const sent = transcript.events.find((e) => e.kind === "send");
  const message: unknown = sent?.kind === "send" ? JSON.parse(sent.line) : undefined;
  const content = isRecord(message) && isRecord(message.message) ? message.message.content : undefined;
  const blocks = Array.isArray(content) ? (content as unknown[]) : [];
  const text = blocks.filter((b): b is { type: string; text: string } => isRecord(b) && b.type === "text" && typeof b.text === "string").map((b) => b.text).join("\n");
  return { blocks, text };
}

export function turnSteps(steps: readonly AgentStep[]): Extract<AgentStep, { op: "turn" }>[] {
  return steps.filter((s): s is Extract<AgentStep, { op: "turn" }> => s.op === "turn");
}

/** Children of this process that still run (Linux /proc; empty elsewhere): every session must be reaped. */
export function livingChildren(): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    try {
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
      return Number(fields[1]) === process.pid && fields[0] !== "Z" && fields[0] !== "X" ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}
