/**
 * The native spawner's binary (native/*.c): compiled when first needed with the machine's
 * C compiler (`cc` from PATH), no install script, into a cache outside the project:
 * $XDG_CACHE_HOME (or ~/.cache)/awp-conformance/<kit version>-<platform>-<arch>-<hash of the
 * source>/spawner. Written under a temporary name and renamed, so a kit running beside this one
 * never runs half a binary; a binary already there is used as it is (no compiler needed then).
 * Where it cannot be built, the reason is noted beside where it would be (`unavailable`, with the
 * compiler it was tried with): later runs with the same compiler (or still none) neither try again
 * nor need to say it again, and a compiler that appears or changes is tried.
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { accessSync, constants, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { kitVersion, packageRoot } from "../../core/paths.js";
import { resolveExecutable } from "../resolve-exec.js";

/** noted: this very reason was found before on this machine (and said then): the kit need not say it again. */
export type Built = { ok: true; path: string } | { ok: false; reason: string; noted?: boolean };

/** How long the compiler may take (it takes well under a second). */
const BUILD_TIMEOUT_MS = 60_000;
const COMPILER = "cc";
const CFLAGS = ["-std=c99", "-O2"];

/** The spawner's C sources and header, shipped with the kit (native/). */
export function spawnerSources(): string[] {
  const dir = join(packageRoot(), "native");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".c") || name.endsWith(".h"))
    .sort()
    .map((name) => join(dir, name));
}

/** The sources' bytes, in order (the cache is named by their hash). */
export const sourceBytes = (files: readonly string[] = spawnerSources()): Buffer => Buffer.concat(files.flatMap((file) => [Buffer.from(`${file.slice(file.lastIndexOf("/") + 1)}\0`), readFileSync(file)]));

/** The cache directory binaries go to (XDG_CACHE_HOME, else ~/.cache). */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && xdg.startsWith("/") ? xdg : join(homedir(), ".cache"), "awp-conformance");
}

/** The cached binary's path for this source and kit. */
export function binaryPath(source: Buffer, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash("sha256").update(source).update(CFLAGS.join(" ")).digest("hex").slice(0, 16);
  return join(cacheRoot(env), `${kitVersion()}-${process.platform}-${process.arch}-${hash}`, "spawner");
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Which compiler a note was made with: its path and change time, or "none". */
function compilerStamp(cc: string | undefined): string {
  if (cc === undefined) return "none";
  try {
    return `${cc}@${statSync(cc).mtimeMs}`;
  } catch {
    return cc;
  }
}

function readNote(file: string): { reason: string; compiler: string } | undefined {
  try {
    const note = JSON.parse(readFileSync(file, "utf8")) as unknown;
    if (typeof note !== "object" || note === null) return undefined;
    const { reason, compiler } = note as Record<string, unknown>;
    return typeof reason === "string" && typeof compiler === "string" ? { reason, compiler } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Once a build is in place, the builds of this kit version from other sources go (a kit updated
 * in place, or a checkout being worked on, would otherwise leave one per source); other
 * versions' stay, for the kits still installed beside this one.
 */
function pruneOtherBuilds(target: string): void {
  const dir = dirname(target);
  const mine = basename(dir);
  const prefix = mine.slice(0, mine.lastIndexOf("-") + 1);
  try {
    for (const name of readdirSync(dirname(dir))) {
      if (name !== mine && name.startsWith(prefix) && /^[0-9a-f]{16}$/.test(name.slice(prefix.length))) rmSync(join(dirname(dir), name), { recursive: true, force: true });
    }
  } catch {
    // Left as it is: only space.
  }
}

/** `cc` as PATH finds it (as the kit finds what it launches: resolve-exec.ts), or undefined; none without a PATH. */
export function findCompiler(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PATH === undefined) return undefined;
  const found = resolveExecutable(COMPILER, { PATH: env.PATH }, process.cwd());
  return found.ok ? found.path : undefined;
}

/** The spawner binary, built now if it is not in the cache; never throws. */
export function buildSpawner(env: NodeJS.ProcessEnv = process.env): Built {
  // Nothing to say where it is not meant to run: auto takes the Node launchers without a word.
  if (process.platform !== "linux") return { ok: false, reason: `the native spawner runs on Linux only (this is ${process.platform})`, noted: true };
  let files: string[];
  let source: Buffer;
  try {
    files = spawnerSources();
    source = sourceBytes(files);
  } catch (error) {
    return { ok: false, reason: `its source is missing (${(error as Error).message})` };
  }
  const target = binaryPath(source, env);
  if (executable(target)) return { ok: true, path: target };
  const cc = findCompiler(env);
  const note = join(target, "..", "unavailable");
  const compiler = compilerStamp(cc);
  const before = readNote(note);
  if (before !== undefined && before.compiler === compiler) return { ok: false, reason: before.reason, noted: true };
  try {
    mkdirSync(join(target, ".."), { recursive: true, mode: 0o700 });
  } catch (error) {
    return { ok: false, reason: `cannot make its cache directory: ${(error as Error).message}` };
  }
  const unavailable = (reason: string): Built => {
    try {
      writeFileSync(note, JSON.stringify({ reason, compiler }));
    } catch {
      // Not noted: the next run tries (and says) again.
    }
    return { ok: false, reason };
  };
  if (cc === undefined) return unavailable("no C compiler (cc) on PATH to build it");
  const temporary = `${target}.${process.pid}-${randomBytes(4).toString("hex")}`;
  const built = spawnSync(cc, [...CFLAGS, "-o", temporary, ...files.filter((file) => file.endsWith(".c"))], { env, timeout: BUILD_TIMEOUT_MS, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 * 1024 });
  if (built.status !== 0 || !executable(temporary)) {
    rmSync(temporary, { force: true });
    const said = built.error?.message ?? built.stderr?.toString("utf8").trim().split("\n").slice(0, 3).join(" / ") ?? "";
    return unavailable(`${cc} failed (${built.signal ?? `exit ${String(built.status)}`})${said === "" ? "" : `: ${said}`}`);
  }
  try {
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    return { ok: false, reason: `cannot put it in its cache: ${(error as Error).message}` };
  }
  pruneOtherBuilds(target);
  return { ok: true, path: target };
}
