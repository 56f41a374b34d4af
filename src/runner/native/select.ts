/**
 * Which path provider calls take: the native spawner (native/spawner.c, through client.ts) or
 * the Node launchers (runner/launcher/). `--spawner auto` (the CLI's default) takes the native
 * spawner where it can be had (a cached binary, or `cc` to build one) and says on stderr why not
 * where it cannot, once on a machine (build.ts notes it); `native` makes that a usage error instead; `node` never builds it.
 * Nothing is chosen until the CLI chooses: the kit used as a library calls in process, as before.
 */
import { KitError } from "../../core/errors.js";
import { onInterrupt } from "../../core/interrupt.js";
import type { ProviderCall } from "../provider/call.js";
import { buildSpawner, type Built } from "./build.js";
import { NativeSpawner } from "./client.js";

import type { SpawnerMode } from "./modes.js";

export { DEFAULT_SPAWNER_MODE, SPAWNER_MODES, type SpawnerMode } from "./modes.js";

let mode: SpawnerMode | undefined;
/** What was chosen and had: the spawner (or, for --spawner native without one, the usage error) with the call every provider call takes. */
let state: { spawner: NativeSpawner; call: ProviderCall } | { failure: KitError; call: ProviderCall } | "node" | undefined;
/** How the binary is had (tests stand in for it). */
let build: () => Built = buildSpawner;

/** The CLI's choice (--spawner); the spawner starts with the first call, or with startSpawner. */
export function chooseSpawner(chosen: SpawnerMode, builder: () => Built = buildSpawner): void {
  if (chosen === mode && builder === build) return;
  closeSpawner();
  mode = chosen;
  build = builder;
  state = undefined;
}

/** The path calls take now: "native", "node", or "failed" (--spawner native without a spawner). */
export function startSpawner(): "native" | "node" | "failed" {
  const now = resolve();
  return now === undefined || now === "node" ? "node" : "spawner" in now ? "native" : "failed";
}

function resolve(): typeof state {
  if (mode === undefined) return undefined;
  if (state !== undefined) return state;
  if (mode === "node") return (state = "node");
  const built = build();
  if (built.ok) {
    try {
      const spawner = NativeSpawner.start(built.path);
      const call: ProviderCall = (argv, request, options) => {
        try {
          return spawner.call(argv, request, options);
        } catch (error) {
          return Promise.reject(error as Error);
        }
      };
      return (state = { spawner, call });
    } catch (error) {
      return fallBack(`it did not start (${(error as Error).message})`);
    }
  }
  return fallBack(built.reason, built.noted === true);
}

/** auto: the Node launchers, said once on this machine (noted: said before, for this reason); native: a usage error. */
function fallBack(reason: string, noted = false): typeof state {
  if (mode === "native") {
    const failure = new KitError("usage", `--spawner native: the native spawner cannot be used: ${reason}; run with --spawner node (or auto)`);
    return (state = { failure, call: () => Promise.reject(failure) });
  }
  if (!noted) process.stderr.write(`awp-conformance: the native spawner cannot be used (${reason}); provider calls go through the Node launchers (--spawner node says so without this message)\n`);
  return (state = "node");
}

/** The native call when the native path is chosen and up (made once, not per call); undefined for the Node path. */
export function nativeCall(): ProviderCall | undefined {
  const now = resolve();
  return now === undefined || now === "node" ? undefined : now.call;
}

/** Whether provider calls go to the native spawner (or fail for want of it): the Node launchers are then not to be started. */
export function nativeChosen(): boolean {
  return nativeCall() !== undefined;
}

/** Lets the spawner go (it ends what it started); a later call starts a new one. */
export function closeSpawner(): void {
  if (state !== undefined && typeof state === "object" && "spawner" in state) {
    state.spawner.close();
    state = undefined;
  }
}

// Interrupted (core/interrupt.ts), no call starts any more: the spawner goes now, and with it the candidates of the calls still out.
onInterrupt(closeSpawner);
