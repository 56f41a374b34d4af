import { describe, expect, it } from "vitest";
import { readResponse } from "../../../src/core/provider/response.js";

const read = (text: string | Uint8Array) => readResponse(typeof text === "string" ? new TextEncoder().encode(text) : text);

describe("readResponse", () => {
  it("reads one object with surrounding whitespace", () => {
    const r = read(' \n{"status":"ok"}\n\n');
    expect(r.object).toEqual({ status: "ok" });
    expect(r.leadingText ?? r.trailingText ?? r.trailingDocument ?? r.failure).toBeUndefined();
    expect(r.issues).toEqual([]);
  });

  it("tells empty output and broken JSON apart", () => {
    expect(read("").failure?.kind).toBe("empty");
    expect(read('{"status":').failure?.kind).toBe("syntax");
    expect(read('{"status":').document).toBeUndefined();
  });

  it("keeps a non-object document without calling it an object", () => {
    const r = read("[1,2]");
    expect(r.document).toEqual([1, 2]);
    expect(r.object).toBeUndefined();
  });

  it("finds the response after log lines and records them as leading text", () => {
    const r = read('starting up\nstill going\n{"status":"ok"}\n');
    expect(r.object).toEqual({ status: "ok" });
    expect(r.leadingText?.text).toBe("starting up\nstill going\n");
    expect(r.start).toBe(24);
  });

  it("separates a trailing document from trailing text", () => {
    expect(read('{"a":1}\n{"b":2}\n').trailingDocument?.offset).toBe(8);
    expect(read('{"a":1}\n{"b":2}\n').trailingText).toBeUndefined();
    expect(read('{"a":1}\ndone\n').trailingText?.text).toBe("done\n");
  });

  it("reports reader issues at their byte offsets in stdout", () => {
    const r = read('log\n{"a":1,"a":2}');
    expect(r.issues.map((i) => [i.kind, i.offset])).toEqual([["duplicate-key", 11]]);
    const bom = read('\uFEFF{"a":1}');
    expect(bom.object).toEqual({ a: 1 });
    expect(bom.issues.map((i) => i.kind)).toEqual(["bom"]);
    const bad = read(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect(bad.issues.map((i) => i.kind)).toEqual(["invalid-utf8"]);
  });
});
