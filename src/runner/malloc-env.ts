/**
 * glibc's fixed mmap threshold for the launcher processes (launcher/client.ts), and the user's
 * own value put back inside every process the kit starts for itself (those and the tuned fuzz
 * process, cli/tuned.ts) before anything it starts inherits its environment.
 *
 * By default glibc raises its mmap threshold to the largest block freed, so after the first
 * megabyte request the buffers of big requests come from the heap and stay there; fixed at
 * 128 KiB they are mapped and unmapped. A launcher forks faster that way, since fork copies the
 * page tables of every page the launcher holds (a launcher serving fuzz requests held 23-28 MB
 * of anonymous memory by default and 16-18 with the threshold; two launchers serving 563 fuzz
 * requests to a tiny compiled provider spent 0.04 ms less CPU per call, and the candidates,
 * which unmap it all again at exec, 0.05 less).
 *
 * The kit's own fuzz process, which makes the cases, keeps glibc's default: with the threshold
 * fixed, every big case's buffer was fresh memory the kernel had to map and zero and, after
 * its collection, unmap: 0.4-0.6 ms of its CPU per call more (fuzz --jobs 2 against the tiny
 * provider, interleaved runs), for 18 MB less at the peak of a 2,000-case campaign (108 against
 * 126 MB).
 */

const MALLOC_ENV = "MALLOC_MMAP_THRESHOLD_";
const MALLOC_THRESHOLD = "131072";
/** Set beside the threshold: the user's own value of MALLOC_ENV (JSON, null: unset). */
const SAVED_ENV = "AWP_CONFORMANCE_TUNED";

/** `env` marked as a process the kit starts for itself, glibc's malloc left as the user has it: restoreMallocEnv knows it. */
export function markedKitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, [SAVED_ENV]: JSON.stringify(env[MALLOC_ENV] ?? null) };
}

/** `env` with the threshold set, and the user's value of it saved for restoreMallocEnv. */
export function withMallocThreshold(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...markedKitEnv(env), [MALLOC_ENV]: MALLOC_THRESHOLD };
}

/**
 * In a process started with markedKitEnv or withMallocThreshold: puts the user's environment back (MALLOC_ENV
 * as it was, the saved value gone). False when this process was not started so.
 */
export function restoreMallocEnv(): boolean {
  const saved = process.env[SAVED_ENV];
  if (saved === undefined) return false;
  delete process.env[SAVED_ENV];
  try {
    const original: unknown = JSON.parse(saved);
    if (typeof original === "string") process.env[MALLOC_ENV] = original;
    else delete process.env[MALLOC_ENV];
  } catch {
    // Not a value the kit wrote: MALLOC_ENV is left as it is.
  }
  return true;
}
