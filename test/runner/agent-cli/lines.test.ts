import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_LINE_BYTES, LineSplitter } from "../../../src/runner/agent-cli/lines.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined): string | undefined => (data === undefined ? undefined : Buffer.from(data).toString("latin1"));
const MiB = 1024 * 1024;

interface Model {
  lines: string[];
  rest?: string;
  oversize?: { head: string; lineBytes: number };
}

/** What the whole stream should give, computed in one pass. */
function reference(data: Uint8Array, max: number, headBytes: number): Model {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const lf = data.indexOf(10, start);
    const end = lf === -1 ? data.length : lf;
    if (end - start > max) {
      const head = text(data.subarray(start, start + Math.min(headBytes, max + 1))) ?? "";
      return { lines, oversize: { head, lineBytes: end - start } };
    }
    if (lf === -1) return end > start ? { lines, rest: text(data.subarray(start)) ?? "" } : { lines };
    lines.push(text(data.subarray(start, end)) ?? "");
    start = lf + 1;
  }
}

/** Feed data cut at the given points; collect what the splitter reports. */
function feed(data: Uint8Array, cuts: number[], max: number, headBytes: number): Model & { bytes?: number } {
  const splitter = new LineSplitter({ maxLineBytes: max, headBytes });
  const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  const model: Model & { bytes?: number } = { lines: [] };
  let previous = 0;
  for (const point of [...points, data.length]) {
    const { lines, oversize } = splitter.push(data.subarray(previous, point));
    previous = point;
    expect(model.oversize === undefined || (lines.length === 0 && oversize === undefined)).toBe(true);
    model.lines.push(...lines.map((line) => text(line) ?? ""));
    if (oversize) {
      model.oversize = { head: text(oversize.head) ?? "", lineBytes: 0 };
      model.bytes = oversize.bytes;
    }
    expect(splitter.pendingBytes).toBeLessThanOrEqual(max);
  }
  const rest = text(splitter.end());
  if (rest !== undefined) model.rest = rest;
  return model;
}

describe("LineSplitter", () => {
  it("splits on LF only and keeps CR in the line", () => {
    const splitter = new LineSplitter({ maxLineBytes: 100 });
    expect(splitter.push(bytes("a\r\nb")).lines.map(text)).toEqual(["a\r"]);
    expect(splitter.pendingBytes).toBe(1);
    expect(splitter.push(bytes("c\rd\n\n")).lines.map(text)).toEqual(["bc\rd", ""]);
    expect(splitter.push(bytes("tail")).lines).toEqual([]);
    expect(text(splitter.end())).toBe("tail");
    expect(splitter.end()).toBeUndefined();
  });

  it("accepts a line of exactly maxLineBytes and reports a longer one once, then drops input", () => {
    const splitter = new LineSplitter({ maxLineBytes: DEFAULT_MAX_LINE_BYTES });
    const exact = new Uint8Array(DEFAULT_MAX_LINE_BYTES + 1).fill(0x78);
    exact[DEFAULT_MAX_LINE_BYTES] = 0x0a;
    expect(splitter.push(exact).lines[0]?.byteLength).toBe(DEFAULT_MAX_LINE_BYTES);
    const block = new Uint8Array(MiB).fill(0x79);
    for (let i = 0; i < 4; i++) expect(splitter.push(block)).toEqual({ lines: [] });
    expect(splitter.pendingBytes).toBe(4 * MiB);
    const { lines, oversize } = splitter.push(block);
    expect(lines).toEqual([]);
    expect(oversize?.head.byteLength).toBe(4096);
    expect(oversize?.bytes).toBe(5 * MiB);
    expect(splitter.pendingBytes).toBe(0);
    expect(splitter.push(bytes("late\nline\n"))).toEqual({ lines: [] });
    expect(splitter.droppedBytes).toBe(10);
    expect(splitter.end()).toBeUndefined();
  });

  it("returns the lines before an oversize line of the same chunk", () => {
    const splitter = new LineSplitter({ maxLineBytes: 8 });
    const { lines, oversize } = splitter.push(bytes("ok\n0123456789\nnext\n"));
    expect(lines.map(text)).toEqual(["ok"]);
    expect(oversize).toEqual({ head: bytes("012345678"), bytes: 10 });
  });

  it("is linear: a 4 MiB line in 64-byte chunks is joined once", () => {
    const splitter = new LineSplitter({ maxLineBytes: DEFAULT_MAX_LINE_BYTES });
    const chunk = new Uint8Array(64).fill(0x61);
    const began = performance.now();
    for (let i = 0; i < DEFAULT_MAX_LINE_BYTES / 64; i++) splitter.push(chunk);
    const { lines } = splitter.push(bytes("\n"));
    expect(lines[0]?.byteLength).toBe(DEFAULT_MAX_LINE_BYTES);
    expect(performance.now() - began).toBeLessThan(3000);
  });

  it("rejects invalid limits", () => {
    expect(() => new LineSplitter({ maxLineBytes: -1 })).toThrow(RangeError);
    expect(() => new LineSplitter({ maxLineBytes: 10, headBytes: 1.5 })).toThrow(RangeError);
  });

  const byte = fc.oneof(fc.constant(10), fc.constant(13), fc.integer({ min: 0, max: 255 }));
  test.prop(
    [fc.array(byte, { maxLength: 300 }), fc.array(fc.nat(400), { maxLength: 30 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 50 })],
    { numRuns: 500 },
  )("any split of a byte stream into chunks yields the same lines", (values, cuts, max, headBytes) => {
    const data = Uint8Array.from(values);
    const expected = reference(data, max, headBytes);
    const got = feed(data, cuts, max, headBytes);
    expect(got.lines).toEqual(expected.lines);
    expect(got.rest).toEqual(expected.rest);
    expect(got.oversize?.head).toEqual(expected.oversize?.head);
    if (expected.oversize) {
      expect(got.bytes).toBeGreaterThan(max);
      expect(got.bytes).toBeLessThanOrEqual(expected.oversize.lineBytes);
    }
  });
});
