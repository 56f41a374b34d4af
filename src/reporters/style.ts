/** Minimal ANSI styling; a no-op unless colour was asked for. */
export interface Style {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const wrap = (open: number, close: number) => (text: string): string => `\u001b[${open}m${text}\u001b[${close}m`;

export function makeStyle(color: boolean): Style {
  if (!color) {
    const same = (text: string): string => text;
    return { red: same, green: same, yellow: same, dim: same, bold: same };
  }
  return { red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}

/** Candidate text made safe for a terminal (one definition for the whole kit). */
export { printable } from "../core/printable.js";
