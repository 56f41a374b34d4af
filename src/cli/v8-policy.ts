/**
 * The V8 settings the kit's own process runs with (the CLI sets them at start; the bench sets
 * them too, so its in-process measurements match a user's run).
 *
 * - `--heap-growing-percent=100`: the old generation may grow to twice what it held after a
 *   full collection before the next. V8's own factor grows it up to four times, and a fuzz
 *   campaign's megabyte cases are short-lived (peak RSS of a 2,000-case campaign 165 MB with
 *   V8's factor). With the tuned fuzz process's young generation and malloc setting (tuned.ts)
 *   the peak is about the same at 20 and 100 (131-141 and 129-140 MB), and 20 made a full collection
 *   every 100 calls of a fuzz run (its heap holds 12 MB): at 100 the kit spent 1.43 instead of
 *   1.47 ms of CPU per call, 428 against 418 calls/s (median of five interleaved pairs against
 *   the tiny compiled provider; `npm run bench -- provider-fuzz` prints the peak).
 * - `--interrupt-budget=540000` (8 times V8's default): a function is optimized later. Most of
 *   the kit's code runs warm, not hot (generators, judges, report builders, each a few times per
 *   call), and with V8's default the optimizing compiler's threads kept compiling it all run
 *   long: on this 2-core machine, the first 400 cases of a fresh `fuzz --jobs 2` against the tiny
 *   compiled provider took 2.1-2.3 ms of the kit's CPU per call with the default and 1.6-1.7 with
 *   this budget (about 350 against 380 calls/s); later runs in the same process are the same
 *   either way. Loops over big inputs (a megabyte response to read) still reach the optimizing
 *   compiler at once: reading a 1.5 MB response of 50,000 objects takes the same time.
 */
import { setFlagsFromString } from "node:v8";

export const KIT_V8_FLAGS: readonly string[] = ["--heap-growing-percent=100", "--interrupt-budget=540000"];

export function applyKitV8Policy(): void {
  for (const flag of KIT_V8_FLAGS) setFlagsFromString(flag);
}
