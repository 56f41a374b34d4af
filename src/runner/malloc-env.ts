/**
 * glibc's fixed mmap threshold for a process the kit starts for itself (the tuned fuzz process,
 * cli/tuned.ts, and every launcher process, launcher/client.ts), and the user's own value put
 * back inside it before anything it starts inherits its environment.
 *
 * By default glibc raises its mmap threshold to the largest block freed, so after the first
 * megabyte request the buffers of big requests come from the heap and stay there; fixed at
 * 128 KiB they are mapped and unmapped. The kit's process stays smaller that way; a launcher
 * also forks faster, since fork copies the page tables of every page the launcher holds (a
 * launcher serving fuzz requests held 23-28 MB of anonymous memory by default and 16-18 with the
 * threshold; two launchers serving 563 fuzz requests to a tiny compiled provider spent 0.04 ms
 * less CPU per call, and the candidates, which unmap it all again at exec, 0.05 less).
 */

const MALLOC_ENV = "MALLOC_MMAP_THRESHOLD_";
const MALLOC_THRESHOLD = "131072";
/** Set beside the threshold: the user's own value of MALLOC_ENV (JSON, null: unset). */
const SAVED_ENV = "AWP_CONFORMANCE_TUNED";

/** `env` with the threshold set, and the user's value of it saved for restoreMallocEnv. */
export function withMallocThreshold(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, [MALLOC_ENV]: MALLOC_THRESHOLD, [SAVED_ENV]: JSON.stringify(env[MALLOC_ENV] ?? null) };
}

/**
 * In a process started with withMallocThreshold: puts the user's environment back (MALLOC_ENV
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
