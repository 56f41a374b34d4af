import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { findPiecesInOrder } from "../../../src/core/agent-cli/checks/text-match.js";

describe("the model's text reaches the user intact", () => {
  it("accepts the pieces alone, and with the CLI's own text around and between them", () => {
    expect(findPiecesInOrder("Hello world.", ["Hello world."])).toBeUndefined();
    expect(findPiecesInOrder("[note: the PDF could not be read]\nHello world.", ["Hello world."])).toBeUndefined();
    expect(findPiecesInOrder("First. (ran read_file) Second.", ["First.", "Second."])).toBeUndefined();
  });

  it("names truncation with the first difference", () => {
    const problem = findPiecesInOrder("note: Hello wor", ["Hello world."]);
    expect(problem?.piece).toBe(0);
    expect(problem?.message).toContain("first 9 of 12 characters");
    expect(problem?.message).toContain("the text ends");
  });

  it("names an alteration with what was seen instead", () => {
    const problem = findPiecesInOrder("Hello World.", ["Hello world."]);
    expect(problem?.message).toContain('"World."');
    expect(problem?.message).toContain('"world."');
  });

  it("fails a missing start, reordering and duplication", () => {
    expect(findPiecesInOrder("something else", ["Hello world."])?.message).toContain("never appears");
    expect(findPiecesInOrder("Second. First.", ["First.", "Second."])?.message).toContain("reordered");
    expect(findPiecesInOrder("Hello world.Hello world.", ["Hello world."])?.message).toContain("duplicated");
    expect(findPiecesInOrder("Same. Same.", ["Same.", "Same."])).toBeUndefined();
  });

  it("lets a CLI discard a whole reply (a retry, an internal request), but not every reply, nor part of one", () => {
    expect(findPiecesInOrder("The answer to show.", ["An internal request's reply.", "The answer to show."])).toBeUndefined();
    expect(findPiecesInOrder("Same reply.", ["Same reply.", "Same reply."])).toBeUndefined();
    expect(findPiecesInOrder("Nothing of the model.", ["An internal request's reply.", "The answer to show."])?.message).toContain("never appears");
    expect(findPiecesInOrder("First reply. The answer to sh", ["First reply.", "The answer to show."])?.message).toContain("first 16 of 19 characters");
  });

  test.prop([fc.array(fc.string({ minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 4 }), fc.array(fc.string({ maxLength: 20 }), { minLength: 5, maxLength: 5 })])(
    "accepts any pieces with any CLI text around them, unless that text repeats a piece",
    (pieces, notes) => {
      const text = pieces.map((p, i) => `${notes[i] ?? ""}${p}`).join("") + (notes[4] ?? "");
      const problem = findPiecesInOrder(text, pieces);
      const repeats = pieces.some((p) => text.split(p).length - 1 > pieces.filter((q) => q === p).length);
      expect(problem === undefined).toBe(!repeats);
    },
  );

  test.prop([fc.string({ minLength: 2, maxLength: 60 }).filter((s) => new Set(s).size > 1), fc.nat()])("fails any piece with one character removed, and finds it whole after a near copy", (piece, at) => {
    const i = at % piece.length;
    const cut = piece.slice(0, i) + piece.slice(i + 1);
    expect(findPiecesInOrder(cut, [piece])).toBeDefined();
    expect(findPiecesInOrder(`${cut}${piece}`, [piece])).toBeUndefined();
  });
});
