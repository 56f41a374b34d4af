/**
 * What a fuzzed agent-cli session is made of: the arbitraries of its steps, and how a
 * step is shown in fast-check's report. Built so that shrinking is cheap: optional parts
 * (a long tail, extra blocks) shrink to "absent" first, and sizes (a text's bytes, a turn's
 * block count) are single integers, so they shrink by a binary search, not an item-by-item walk.
 */
import fc from "fast-check";
import type { AgentStep } from "../types.js";
import { TINY_PDF, TINY_PNG } from "../../runner/agent-cli/attachments.js";
import { blockPlanArb, buildBlocks } from "./blocks.js";
import { longTailArb, rarely, shortTextArb, utf8 } from "./text.js";

export type TurnStep = Extract<AgentStep, { op: "turn" }>;
export type MalformedStep = Extract<AgentStep, { op: "malformed" }>;
export type PauseStep = Extract<AgentStep, { op: "pause" }>;
export type EndingStep = Extract<AgentStep, { op: "close-stdin" | "shutdown" | "sigterm" }>;

export { TINY_PDF, TINY_PNG };

/** A malformed line past the Desktop's 4 MiB line guard (not JSON). */
export const HUGE_LINE_BYTES = 4 * 1024 * 1024 + 64;

/** A user turn: a short tricky prefix, sometimes a long tail, sometimes (one in four) blocks beside the text. */
export function turnStepArb(): fc.Arbitrary<TurnStep> {
  return fc.record({ prefix: shortTextArb(), tail: longTailArb(), blocks: rarely(null, blockPlanArb(shortTextArb()), 4) }).map(({ prefix, tail, blocks }): TurnStep => ({
    op: "turn",
    text: tail === null ? prefix : `${prefix}${tail}`,
    ...(blocks !== null ? { blocks: buildBlocks(blocks) } : {}),
  }));
}

export function malformedStepArb(): fc.Arbitrary<MalformedStep> {
  const ordinary = fc.constantFrom(
    "this is not json",
    "{\"type\":\"user\",",
    "[1,2,3]",
    "[{\"type\":\"user\"}]",
    "\"just a string\"",
    "null",
    "{\"kind\":\"user\",\"text\":\"no type field\"}",
    "{\"message\":{\"role\":\"user\",\"content\":\"no type\"}}",
    "{\"type\":\"user\"}",
    "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":42}}",
  );
  // null stands for the huge line, built only when drawn.
  const line = fc.oneof({ arbitrary: ordinary, weight: 30 }, { arbitrary: fc.constant(null), weight: 1 });
  return line.map((l): MalformedStep => ({ op: "malformed", line: l ?? `{${"x".repeat(HUGE_LINE_BYTES)}` }));
}

export function pauseStepArb(): fc.Arbitrary<PauseStep> {
  return fc.integer({ min: 0, max: 200 }).map((ms): PauseStep => ({ op: "pause", ms }));
}

export function endingStepArb(): fc.Arbitrary<EndingStep> {
  return fc.constantFrom<EndingStep>({ op: "close-stdin" }, { op: "shutdown" }, { op: "sigterm" });
}

/** Any one step of a session (the ending ones included; fuzzAgentCli keeps those last). */
export function stepArb(): fc.Arbitrary<AgentStep> {
  return fc.oneof(
    { arbitrary: turnStepArb(), weight: 4 },
    { arbitrary: malformedStepArb(), weight: 1 },
    { arbitrary: pauseStepArb(), weight: 1 },
    { arbitrary: endingStepArb(), weight: 1 },
  );
}

export function isEnding(step: AgentStep): step is EndingStep {
  return step.op === "close-stdin" || step.op === "shutdown" || step.op === "sigterm";
}

/** JSON string syntax, with the invisible and direction-changing characters escaped too. */
function quote(text: string): string {
  return JSON.stringify(text).replace(/[\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A short, readable rendering of a text: a long run of one character at its end is counted, not printed. */
export function previewText(text: string, max = 60): string {
  const char = [...text.slice(-2)].pop();
  if (char !== undefined) {
    let start = text.length;
    while (start >= char.length && text.startsWith(char, start - char.length)) start -= char.length;
    const count = (text.length - start) / char.length;
    if (count >= 32) return `${previewText(text.slice(0, start), max)}+${quote(char)}×${count} (${utf8(text)} bytes)`;
  }
  if (text.length <= max) return quote(text);
  return `${quote(text.slice(0, max))}… (${utf8(text)} bytes)`;
}

/** How a step appears in fast-check's report and in the kit's output. */
export function describeStep(step: AgentStep): string {
  switch (step.op) {
    case "turn": {
      const blocks = step.blocks === undefined ? "" : ` + [${step.blocks.map((b) => String(b.type)).join(", ")}]`;
      return `turn(${previewText(step.text)}${blocks})`;
    }
    case "malformed":
      return `malformed(${previewText(step.line, 40)})`;
    case "pause":
      return `pause(${step.ms} ms)`;
    default:
      return step.op;
  }
}
