/**
 * Candidate text made safe for a terminal and for one-line messages: control characters
 * (ANSI escapes included), C1 controls, line and paragraph separators and bidirectional
 * overrides become visible \uXXXX escapes, so a candidate (or a hostile file) cannot move
 * the cursor, recolour the output or disguise what it says.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g;
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g;

const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Keeps tabs and line breaks (multi-line excerpts); escapes everything else that is unsafe. */
export function printable(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** For text that must stay on one line: tabs and line breaks are escaped too. */
export function printableLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, escape);
}

/** "1.2 s": a duration in milliseconds as the kit prints it in findings, notes and progress lines. */
export function secondsText(ms: number): string {
  return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
}
