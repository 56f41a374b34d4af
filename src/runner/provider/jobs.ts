/**
 * Default concurrency of provider calls, in a module of its own: the CLI's entry reads it before
 * the kit loads (cli/early-launchers.ts).
 */

/** Calls in flight together (where none depends on another's answer), unless --jobs says otherwise: `run`'s suite and `fuzz`. */
export const DEFAULT_PROVIDER_JOBS = 2;

/** `policy-test` cases run at once, unless --jobs says otherwise. */
export const DEFAULT_POLICY_TEST_JOBS = 4;
