/**
 * Text that any consumer can carry and show safely: characters XML 1.0 cannot hold at all
 * (C0 controls but tab, LF and CR; lone surrogates; U+FFFE and U+FFFF), and the ones a
 * terminal or a line-based format would act on (DEL, C1 controls, the ESC of ANSI
 * sequences, U+2028/U+2029), become a visible `\uXXXX`, so candidate output can neither
 * break a document nor restyle a screen.
 */
const UNSHOWABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function visible(text: string): string {
  return text.replace(UNSHOWABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const TEXT_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;" };
const ATTR_ENTITIES: Record<string, string> = { ...TEXT_ENTITIES, '"': "&quot;", "'": "&apos;", "\n": "&#10;", "\t": "&#9;" };

/** Element content: markup characters escaped (`>` too, so `]]>` cannot appear), CR kept as a reference. */
export function xmlText(text: string): string {
  return visible(text).replace(/[&<>\r]/g, (c) => TEXT_ENTITIES[c] ?? c);
}

/** An attribute value (double- or single-quoted): tab, LF and CR as references, so parsers do not normalise them to spaces. */
export function xmlAttr(text: string): string {
  return visible(text).replace(/[&<>"'\r\n\t]/g, (c) => ATTR_ENTITIES[c] ?? c);
}

/** `name="value"` pairs, escaped, for an element's start tag (undefined values are left out). */
export function xmlAttrs(attrs: Record<string, string | number | undefined>): string {
  return Object.entries(attrs)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${xmlAttr(String(value))}"`)
    .join("");
}
