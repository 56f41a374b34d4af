/** Size-diverse agent-cli sessions: text and block-count buckets, odd but valid media types, long sessions, and shrinking to the threshold. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sessionArb } from "../../../src/fuzz/agent-cli/commands.js";
import { AGENT_SIZES, AgentCoverage } from "../../../src/fuzz/agent-cli/coverage.js";
import { MAX_BLOCK_BYTES, MAX_BLOCKS, TINY_GIF, type Block } from "../../../src/fuzz/agent-cli/blocks.js";
import { isEnding, turnStepArb, type TurnStep } from "../../../src/fuzz/agent-cli/steps.js";
import { MAX_TEXT_BYTES } from "../../../src/fuzz/agent-cli/text.js";
import { BYTE_SCALE, bucketOf, countScale } from "../../../src/fuzz/coverage.js";
import type { AgentStep } from "../../../src/fuzz/types.js";
import { utf8 } from "./helpers.js";

const turns = fc.sample(turnStepArb(), { seed: 8, numRuns: 600 });
const blocksOf = (t: TurnStep): Block[] => (t.blocks ?? []) as Block[];
/** RFC 6838 type/subtype, restricted names (what the reference CLI accepts too). */
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;

/** The steps a sampled session would run: up to and with its first ending step. */
function stepsOf(commands: Iterable<unknown>): AgentStep[] {
  const steps: AgentStep[] = [];
  for (const wrapper of commands) {
    const step = ((wrapper as { cmd?: { step: AgentStep } }).cmd ?? (wrapper as { step: AgentStep })).step;
    steps.push(step);
    if (isEnding(step)) break;
  }
  return steps;
}

describe("agent-cli turn sizes", () => {
  it("texts fill every byte bucket from empty to 1 MiB, with the sizes around 64 KiB", () => {
    const sizes = turns.map((t) => utf8(t.text));
    expect(new Set(sizes.map((n) => bucketOf(BYTE_SCALE, n)))).toEqual(new Set(BYTE_SCALE.map((_, i) => i)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_TEXT_BYTES + 256);
    expect(sizes.some((n) => n > 65536 - 64 && n < 65536 + 256)).toBe(true);
  });

  it("blocks beside the text come in every count bucket up to thousands, within the line budget", () => {
    const counts = turns.map((t) => blocksOf(t).length);
    expect(new Set(counts.map((n) => bucketOf(countScale(6), n)))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(Math.max(...counts)).toBeLessThanOrEqual(MAX_BLOCKS);
    for (const t of turns) {
      const bytes = blocksOf(t).reduce((n, b) => n + utf8(JSON.stringify(b)) + 1, 0);
      expect(bytes <= MAX_BLOCK_BYTES || blocksOf(t).length === 1).toBe(true);
    }
  });

  it("mix text, image, document and unknown blocks, with odd but valid media types and real image bytes", () => {
    const blocks = turns.flatMap(blocksOf);
    expect(new Set(blocks.map((b) => b.type))).toEqual(new Set(["text", "image", "document", "awp_conformance_probe"]));
    const media = new Set<string>();
    for (const block of blocks.filter((b) => b.type === "image" || b.type === "document")) {
      const source = block.source as { type: string; media_type: string; data: string };
      expect(source.type).toBe("base64");
      expect(source.media_type).toMatch(MEDIA_TYPE);
      expect(Buffer.from(source.data, "base64").toString("base64")).toBe(source.data);
      media.add(source.media_type);
      const bytes = Buffer.from(source.data, "base64");
      if (block.type === "image") expect(/png$/i.test(source.media_type) ? bytes.subarray(1, 4).toString() : bytes.subarray(0, 6).toString()).toMatch(/^(PNG|GIF89a)$/);
    }
    for (const odd of ["IMAGE/PNG", "image/x-png", "image/gif", "APPLICATION/PDF", "text/csv", "application/octet-stream"]) expect(media, odd).toContain(odd);
    expect([...media].some((m) => m.length === "application/".length + 127)).toBe(true);
    const gif = Buffer.from(TINY_GIF, "base64");
    expect([gif.subarray(0, 6).toString(), gif.readUInt16LE(6), gif.readUInt16LE(8), gif.at(-1)]).toEqual(["GIF89a", 1, 1, 0x3b]);
  });
});

describe("agent-cli sessions", () => {
  it("include long sessions of tens of turns, which only end when the kit ends them", () => {
    const sessions = fc.sample(sessionArb(40), { seed: 3, numRuns: 300 }).map(stepsOf);
    const turnCounts = sessions.map((s) => s.filter((step) => step.op === "turn").length);
    expect(Math.max(...turnCounts)).toBeGreaterThanOrEqual(15);
    expect(turnCounts.filter((n) => n >= 10).length).toBeGreaterThan(5);
    expect(sessions.every((s) => !s.slice(0, -1).some(isEnding))).toBe(true);
    expect(sessions.some((s) => s.length > 8 && s.some(isEnding))).toBe(false);
  });

  it("are counted per kind and size bucket, the buckets adding up", () => {
    const sessions = fc.sample(sessionArb(12), { seed: 4, numRuns: 60 }).map(stepsOf);
    const coverage = new AgentCoverage();
    for (const s of sessions) coverage.addSession(s);
    const { kinds, sizes } = coverage.summary();
    const steps = sessions.flat();
    const turnsRun = steps.filter((s) => s.op === "turn") as TurnStep[];
    expect(kinds.find((k) => k.name === "turn")?.count).toBe(turnsRun.length);
    expect(kinds.find((k) => k.name === "malformed line")?.count).toBe(steps.filter((s) => s.op === "malformed").length);
    expect(kinds.some((k) => /^image block \(/.test(k.name) && k.count > 0)).toBe(true);
    const total = (name: string): number => sizes.find((s) => s.name === name)?.buckets.reduce((n, b) => n + b.count, 0) ?? -1;
    expect(total(AGENT_SIZES.turns)).toBe(60);
    for (const name of [AGENT_SIZES.blocks, AGENT_SIZES.text, AGENT_SIZES.line]) expect(total(name)).toBe(turnsRun.length);
  });
});

describe("shrinking a size failure", () => {
  it("a turn of more than 12 content blocks shrinks to exactly 13: its text and 12 plain text blocks", () => {
    let candidates = 0;
    // The content array (the text block and the rest) holding more than 12 blocks is the failure.
    const result = fc.check(fc.property(turnStepArb(), (t) => (candidates++, 1 + blocksOf(t).length <= 12)), { seed: 6 });
    const shrunk = result.counterexample![0];
    expect(blocksOf(shrunk)).toHaveLength(12);
    expect(new Set(blocksOf(shrunk).map((b) => JSON.stringify(b)))).toEqual(new Set(['{"type":"text","text":"x"}']));
    expect(shrunk.text).toBe("");
    expect(candidates).toBeLessThan(80);
  });

  it("a text over 100 KiB shrinks to exactly 100 KiB + 1 byte of plain letters", () => {
    const result = fc.check(fc.property(turnStepArb(), (t) => utf8(t.text) <= 100 * 1024), { seed: 6 });
    const shrunk = result.counterexample![0];
    expect(utf8(shrunk.text)).toBe(100 * 1024 + 1);
    expect(shrunk.text).toMatch(/^a+$/);
    expect(shrunk.blocks).toBeUndefined();
  });
});
