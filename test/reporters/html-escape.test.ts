import { describe, expect, it } from "vitest";
import { escapeAttr, escapeLines, escapeText, safeHref, shellQuote } from "../../src/reporters/html-escape.js";

describe("html escaping", () => {
  it("escapes markup characters and shows invisible ones as \\uXXXX", () => {
    expect(escapeText(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(escapeText("a\tb\nc")).toBe("a\tb\nc");
    for (const c of ["\u0000", "\r", "\u001b", "\u007f", "\u0085", "\u009b", "\u2028", "\u2029", "\u202e", "\u2066", "\u2069", "\u200f", "\ufeff", "\ud800", "\udc00"]) {
      expect(escapeText(`x${c}y`)).toBe(`x<span class="esc">\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}</span>y`);
      expect(escapeAttr(`x${c}y`)).toBe(`x\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}y`);
    }
    expect(escapeText("é ✓ 😀")).toBe("é ✓ 😀");
    expect(escapeLines("a\nb\n")).toBe('a<span class="nl" aria-hidden="true">↵</span>\nb<span class="nl" aria-hidden="true">↵</span>');
  });

  it("quotes argv like a shell and allows only safe link schemes", () => {
    expect(shellQuote("/bin/x")).toBe("/bin/x");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("")).toBe("''");
    expect(safeHref("docs/clauses.md#a")).toBe("docs/clauses.md#a");
    expect(safeHref("https://example.org/a?b=1&c=2")).toBe("https://example.org/a?b=1&amp;c=2");
    expect(safeHref("file:///kit/docs/clauses.md#a")).toBe("file:///kit/docs/clauses.md#a");
    for (const bad of ["javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:alert(1)", "data:text/html,x", "vbscript:x"]) expect(safeHref(bad)).toBeUndefined();
  });
});
