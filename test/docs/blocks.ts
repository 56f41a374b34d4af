/**
 * The fenced code blocks of the project's Markdown (README.md, docs/*.md), for the doc test
 * (examples.test.ts). A block's info string is its language, then words of our own:
 *
 *   ```sh runnable              run by the doc test, with bash, from a scratch copy of the
 *                               repository root (see examples.test.ts); every command must succeed
 *   ```yaml file=NAME           the test writes the block to NAME in that scratch folder before
 *                               it runs the file's later runnable blocks (the doc says "save as NAME")
 *
 * Every shell block, runnable or not, is linted: bash must parse it, no `\` may be followed by
 * anything but the end of its line (a `\   # comment` escapes a space, so bash runs the next line
 * as a command of its own), and the kit is called as `npx awp-conformance` (after `npm ci` the bare
 * name is not on PATH).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Block {
  /** The Markdown file, relative to the repository root. */
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  lang: string;
  runnable: boolean;
  /** The file name a `file=NAME` block is saved as. */
  saveAs: string | undefined;
  body: string;
}

const SHELLS = new Set(["sh", "bash", "shell"]);
export const isShell = (block: Block): boolean => SHELLS.has(block.lang);

/** The fenced blocks of one Markdown text, in order. */
export function blocksOf(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[i] as string);
    if (open === null) continue;
    const fence = open[1] as string;
    const [lang = "", ...words] = (open[2] as string).trim().split(/\s+/);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !(lines[j] as string).trimStart().startsWith(fence); j += 1) body.push(lines[j] as string);
    const saveAs = words.find((w) => w.startsWith("file="))?.slice("file=".length);
    blocks.push({ file, line: i + 1, lang, runnable: words.includes("runnable"), saveAs, body: body.length === 0 ? "" : `${body.join("\n")}\n` });
    i = j;
  }
  return blocks;
}

/** README.md and every docs/*.md of the repository at `root`, with their blocks. */
export function projectBlocks(root: string): Block[] {
  const files = ["README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
  return files.flatMap((file) => blocksOf(file, readFileSync(join(root, file), "utf8")));
}

/** What is wrong with a shell block's lines (empty: nothing), each "line N: ...". */
export function shellMistakes(block: Block): string[] {
  const mistakes: string[] = [];
  block.body.split("\n").forEach((text, index) => {
    const at = `${block.file}:${block.line + 1 + index}`;
    if (/\\[ \t]+#/.test(text)) mistakes.push(`${at}: a comment after a \`\\\` continuation: the \`\\\` escapes a space, and bash runs the next line as a command of its own`);
    else if (/\\[ \t]+$/.test(text)) mistakes.push(`${at}: blanks after a \`\\\`: it escapes a blank, not the end of the line`);
    if (/^\s*awp-conformance\s/.test(text)) mistakes.push(`${at}: write \`npx awp-conformance\`: after npm ci the bare command is not on PATH`);
  });
  return mistakes;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (but `-` and `_`), blanks as `-`. */
export function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors a Markdown text offers: its headings (outside code blocks) and `<a id="...">`. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of text.split("\n")) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (open !== undefined && (fence === undefined || line.trimStart().startsWith(fence))) {
      fence = fence === undefined ? open : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = headingAnchor(heading);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const match of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(match[1] as string);
  }
  return anchors;
}

/** The relative links of a Markdown text outside code blocks: [text](target), with the line. */
export function linksOf(text: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((line, index) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (open !== undefined && (fence === undefined || line.trimStart().startsWith(fence))) {
      fence = fence === undefined ? open : undefined;
      return;
    }
    if (fence !== undefined) return;
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] as string;
      if (!/^[a-z]+:/i.test(target)) links.push({ target, line: index + 1 });
    }
  });
  return links;
}
