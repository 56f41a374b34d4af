/**
 * The kit's fixture directives (`[[awp-fixture key=value ...]]`) in the text of a user line or
 * of a model request: how the kit tags its turns and scripts its model's answers.
 */
import type { ModelCall } from "./types.js";

const DIRECTIVE = /\[\[awp-fixture((?:\s+[a-z]+=[^\s\]]*)*)\s*\]\]/g;

/** The key=value pairs of every `[[awp-fixture ...]]` directive in a text, in order (values decoded). */
export function directivesIn(text: string): Record<string, string>[] {
  return [...text.matchAll(DIRECTIVE)].map((match) => {
    const pairs: Record<string, string> = {};
    for (const pair of (match[1] ?? "").trim().split(/\s+/).filter((p) => p.includes("="))) {
      const eq = pair.indexOf("=");
      try {
        pairs[pair.slice(0, eq)] = decodeURIComponent(pair.slice(eq + 1));
      } catch {
        // A value that does not decode is not the kit's.
      }
    }
    return pairs;
  });
}

/**
 * The turn tags a model request carried: the one the fixture answered (its directive), and
 * any other in the request's last user message (a CLI that merged queued lines into one
 * request carries them all).
 */
export function carriedTags(call: ModelCall): string[] {
  const tags = directivesIn(call.userText).flatMap((d) => (d.turn !== undefined ? [d.turn] : []));
  const own = call.directive?.turn;
  return [...new Set(own !== undefined ? [...tags, own] : tags)];
}
