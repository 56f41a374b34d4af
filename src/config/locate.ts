/**
 * Where a value of a YAML (or JSON) document sits: line and column of the node a key path
 * names, or of the key itself, from the `yaml` package's node ranges and a LineCounter.
 */
import { isMap, isScalar, type Document, type LineCounter, type Node } from "yaml";

export interface Place {
  line: number;
  col: number;
}

/** The node at `path` (object keys and array indexes), or the deepest one found on the way. */
function nodeAt(doc: Document, path: readonly (string | number)[]): Node | undefined {
  let node = doc.contents ?? undefined;
  for (let i = 1; i <= path.length; i++) {
    const next = doc.getIn(path.slice(0, i), true) as Node | undefined;
    if (next === undefined || next === null || typeof next !== "object") break;
    node = next;
  }
  return node;
}

/** Line and column of the value at `path`; with `key`, of that key of the mapping at `path`. */
export function placeOf(doc: Document, lines: LineCounter, path: readonly (string | number)[], key?: string): Place | undefined {
  const node = nodeAt(doc, path);
  if (node === undefined) return undefined;
  let offset = node.range?.[0];
  if (key !== undefined && isMap(node)) {
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
    if (pair !== undefined && isScalar(pair.key)) offset = pair.key.range?.[0] ?? offset;
  }
  return offset === undefined ? undefined : lines.linePos(offset);
}

/** A key path as people read it: candidates[0].bounds.timeout. */
export function keyPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const segment of path) out += typeof segment === "number" ? `[${segment}]` : `${out === "" ? "" : "."}${/^[A-Za-z_$][\w$-]*$/.test(segment) ? segment : JSON.stringify(segment)}`;
  return out === "" ? "(top level)" : out;
}
