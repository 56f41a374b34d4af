/**
 * Escaping for the HTML reporter. Everything that comes from a report goes through one of
 * these before it reaches the page: candidate output is hostile until shown otherwise.
 */

/**
 * Characters shown as visible `\uXXXX` escapes instead of themselves: C0 controls except tab
 * and line feed, DEL, C1 controls, line/paragraph separators, bidi embeddings, overrides,
 * isolates and marks, the byte order mark, and lone surrogates (which have no UTF-8 form).
 */
const INVISIBLE =
  "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ufeff]" +
  "|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]";

const TEXT_PATTERN = new RegExp(`[&<>"']|${INVISIBLE}`, "g");

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `\u001b` for ESC: the visible form of an invisible or dangerous character. */
export function visibleEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Escapes text for an HTML text node. Invisible characters become a marked `\uXXXX` token
 * (`<span class="esc">`), so a candidate that prints the six characters `\u001b` still
 * looks different from one that prints ESC.
 */
export function escapeText(text: string): string {
  return String(text).replace(TEXT_PATTERN, (c) => ENTITIES[c] ?? `<span class="esc">${visibleEscape(c)}</span>`);
}

/** Escapes text for a quoted attribute value or the page title (no markup allowed there). */
export function escapeAttr(text: string): string {
  return String(text).replace(TEXT_PATTERN, (c) => ENTITIES[c] ?? visibleEscape(c));
}

/** Escapes text that spans lines in a wire log: each line feed gets a faint ↵ mark before it. */
export function escapeLines(text: string): string {
  return escapeText(text)
    .replace(/\n/g, '<span class="nl" aria-hidden="true">↵</span>\n')
    .replace(/\n$/, "");
}

/** A number from the report, printed defensively (a malformed report could hold anything). */
export function escapeNumber(value: unknown): string {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : escapeText(String(value));
}

/** Quotes one argv element the way a POSIX shell would read it back. */
export function shellQuote(arg: string): string {
  if (arg !== "" && /^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * A link target for the clause docs: relative paths, http(s) and file URLs only; anything
 * else (javascript:, data:) gives no link at all.
 */
export function safeHref(url: string): string | undefined {
  // Browsers drop control characters and spaces around and inside a scheme ("java\tscript:").
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020\u007f]/g, ""));
  if (scheme !== null && !["http", "https", "file"].includes((scheme[1] ?? "").toLowerCase())) return undefined;
  return escapeAttr(url);
}
