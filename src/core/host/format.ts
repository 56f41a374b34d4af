/**
 * Facts of the launch record format shared by its writer (src/mocks/record.ts) and its reader
 * (check-launch): kept in a module of its own so the mock loads nothing else of the kit.
 */

/** The mock writes an `alive` line this often while a fault holds it or after a signal it ignored. */
export const RECORD_HEARTBEAT_MS = 100;
