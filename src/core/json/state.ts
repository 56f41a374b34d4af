import type { JsonIssueKind, JsonObject, JsonValue } from "./types.js";

/** An issue before line/column are known. */
export interface IssueDraft {
  kind: JsonIssueKind;
  message: string;
  offset: number;
  key?: string;
  path?: string;
}

/** Thrown internally to stop at a fatal syntax error. */
export class SyntaxStop {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

export interface ParserSettings {
  maxDepth: number;
  maxIssues: number;
  lossless: boolean;
  /** Read non-integer tokens as serde_json does (best effort) instead of correctly rounded. */
  serdeFloats: boolean;
}

/** Escapes one JSON Pointer reference token (RFC 6901). */
export function pointerToken(token: string): string {
  if (token.indexOf("~") === -1 && token.indexOf("/") === -1) return token;
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Mutable parser state: input, cursor, issues and the explicit container stack. */
export class Parser {
  readonly bytes: Uint8Array;
  readonly len: number;
  readonly maxDepth: number;
  readonly maxIssues: number;
  readonly lossless: boolean;
  readonly serdeFloats: boolean;
  /** Cursor handed back by the token readers. */
  pos = 0;
  readonly issues: IssueDraft[] = [];
  depthReported = false;
  /** Open containers, outermost first. */
  readonly frames: (JsonValue[] | JsonObject)[] = [];
  /** For object frames, the key of the member being read; "" for arrays. */
  readonly keys: string[] = [];
  readonly isArray: boolean[] = [];

  constructor(bytes: Uint8Array, settings: ParserSettings) {
    this.bytes = bytes;
    this.len = bytes.length;
    this.maxDepth = settings.maxDepth;
    this.maxIssues = settings.maxIssues;
    this.lossless = settings.lossless;
    this.serdeFloats = settings.serdeFloats;
  }

  /** Whether a new non-fatal issue would still be recorded. */
  collecting(): boolean {
    return this.issues.length < this.maxIssues;
  }

  report(kind: JsonIssueKind, offset: number, message: string, path?: string, key?: string): void {
    if (!this.collecting()) return;
    const issue: IssueDraft = { kind, message, offset };
    if (key !== undefined) issue.key = key;
    if (path !== undefined) issue.path = path;
    this.issues.push(issue);
  }

  /** Reports with the JSON Pointer of the value currently being read (computed only when recorded). */
  reportHere(kind: JsonIssueKind, offset: number, message: string): void {
    if (this.collecting()) this.report(kind, offset, message, this.valuePath());
  }

  fail(offset: number, message: string): never {
    throw new SyntaxStop(offset, message);
  }

  /** JSON Pointer of the value being read at the current stack position. */
  valuePath(): string {
    let path = "";
    const frames = this.frames;
    for (let d = 0; d < frames.length; d++) {
      const token = this.isArray[d] ? String((frames[d] as JsonValue[]).length) : pointerToken(this.keys[d]!);
      path += "/" + token;
    }
    return path;
  }

  /** Sets the path on issues recorded since index `from` (string issues learn their path late). */
  patchPaths(from: number, path: string): void {
    for (let k = from; k < this.issues.length; k++) this.issues[k]!.path = path;
  }

  pushFrame(container: JsonValue[] | JsonObject, isArray: boolean): void {
    this.frames.push(container);
    this.isArray.push(isArray);
    this.keys.push("");
  }

  popFrame(): void {
    this.frames.pop();
    this.isArray.pop();
    this.keys.pop();
  }
}
