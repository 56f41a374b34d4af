import { describe, expect, it } from "vitest";
import { CappedBuffer } from "../../src/runner/capture.js";

describe("CappedBuffer", () => {
  it("keeps everything under the cap", () => {
    const buffer = new CappedBuffer(10);
    expect(buffer.push(Buffer.from("abc"))).toBe(3);
    expect(buffer.push(Buffer.from("def"))).toBe(3);
    expect(buffer.toBuffer().toString()).toBe("abcdef");
    expect(buffer).toMatchObject({ capped: false, totalBytes: 6, keptBytes: 6 });
  });

  it("is not capped at exactly cap bytes", () => {
    const buffer = new CappedBuffer(4);
    buffer.push(Buffer.from("abcd"));
    expect(buffer.capped).toBe(false);
    buffer.push(new Uint8Array(0));
    expect(buffer.capped).toBe(false);
  });

  it("keeps the first cap bytes and counts the rest", () => {
    const buffer = new CappedBuffer(5);
    expect(buffer.push(Buffer.from("abc"))).toBe(3);
    expect(buffer.push(Buffer.from("defg"))).toBe(2);
    expect(buffer.push(Buffer.from("hij"))).toBe(0);
    expect(buffer.toBuffer().toString()).toBe("abcde");
    expect(buffer).toMatchObject({ capped: true, totalBytes: 10, keptBytes: 5 });
  });

  it("handles a zero cap and Uint8Array views with offsets", () => {
    const zero = new CappedBuffer(0);
    zero.push(Buffer.from("x"));
    expect(zero.toBuffer().length).toBe(0);
    expect(zero.capped).toBe(true);

    const backing = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]);
    const view = new CappedBuffer(3);
    view.push(backing.subarray(2, 7));
    expect([...view.toBuffer()]).toEqual([2, 3, 4]);
  });

  it("can be read repeatedly and keeps accepting data", () => {
    const buffer = new CappedBuffer(6);
    buffer.push(Buffer.from("ab"));
    expect(buffer.toBuffer().toString()).toBe("ab");
    buffer.push(Buffer.from("cd"));
    expect(buffer.toBuffer().toString()).toBe("abcd");
    expect(buffer.toBuffer()).toBe(buffer.toBuffer());
  });

  it("rejects invalid caps", () => {
    expect(() => new CappedBuffer(-1)).toThrow(RangeError);
    expect(() => new CappedBuffer(1.5)).toThrow(RangeError);
  });
});
