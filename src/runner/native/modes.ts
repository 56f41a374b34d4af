/** The paths provider calls can take (--spawner), in a module of its own: the CLI's entry reads it before the kit loads. */
export const SPAWNER_MODES = ["auto", "native", "node"] as const;
export type SpawnerMode = (typeof SPAWNER_MODES)[number];
/**
 * auto: the native spawner where it can be had (a cached binary, or cc to build one), else the
 * Node launchers with one line on stderr. Its calls are observably the same (the same outcomes,
 * transcripts and reports) and cost the kit a fraction of the CPU, so it is the default.
 */
export const DEFAULT_SPAWNER_MODE: SpawnerMode = "auto";

export const isSpawnerMode = (value: unknown): value is SpawnerMode => (SPAWNER_MODES as readonly unknown[]).includes(value);

/** What --spawner says: this option's description. */
export const SPAWNER_DESCRIBE = "provider: how provider calls are spawned: native (a small C spawner, built once with cc into ~/.cache/awp-conformance), node (the Node launchers), auto (native where it can be built, else node with one line on stderr; the default)";
