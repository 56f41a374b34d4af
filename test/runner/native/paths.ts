/**
 * The two paths a candidate process can be run by, for tests that run on both: runProcess on
 * this process's event loop (the Node path: the launchers run it too), and the native spawner
 * (native/spawner.c through runner/native/client.ts), built here as the kit builds it. Where it
 * cannot be built (no cc), the native leg is skipped and says why.
 */
import { afterAll } from "vitest";
import { buildSpawner } from "../../../src/runner/native/build.js";
import { NativeSpawner } from "../../../src/runner/native/client.js";
import { runProcess, type ProcessResult, type RunProcessOptions } from "../../../src/runner/process.js";

export interface RunPath {
  name: "node" | "native";
  run: (options: RunProcessOptions) => Promise<ProcessResult>;
  /** Why this leg does not run here. */
  skip?: string;
}

const built = buildSpawner();

/** Why the native leg does not run here, or undefined. */
export const NATIVE_SKIP: string | undefined = built.ok ? undefined : `no native spawner here (${built.reason})`;

let spawner: NativeSpawner | undefined;

/** runProcess through the native spawner (started on first use, let go after the file's tests). */
export function nativeRun(options: RunProcessOptions): Promise<ProcessResult> {
  if (!built.ok) return Promise.reject(new Error(NATIVE_SKIP));
  spawner ??= NativeSpawner.start(built.path);
  return spawner.run(options);
}

afterAll(() => {
  spawner?.close();
  spawner = undefined;
});

export const RUN_PATHS: readonly RunPath[] = [
  { name: "node", run: runProcess },
  { name: "native", run: nativeRun, ...(NATIVE_SKIP !== undefined ? { skip: NATIVE_SKIP } : {}) },
];

/** A describe title that says when and why its leg is skipped. */
export const legTitle = (title: string, path: RunPath): string => `${title} (${path.name} path${path.skip !== undefined ? `; skipped: ${path.skip}` : ""})`;
