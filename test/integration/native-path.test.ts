/**
 * The native spawner changes nothing a run shows: the same provider runs through `--spawner node`
 * and `--spawner native` give the same report, byte for byte once the timings (and the pids,
 * launch markers and socket inodes of leftovers, which differ between any two runs) are taken
 * out: the provider suite, a fixed-seed fuzz, and hostile candidates (one that hangs and ignores
 * SIGTERM, a 200 MiB line, daemons left in sessions of their own). And `--spawner auto`
 * without a compiler falls back to the Node launchers with one line; `native` is then a usage error.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findCompiler } from "../../src/runner/native/build.js";
import { NATIVE_SKIP } from "../runner/native/paths.js";
import { ROOT, runCli, useTempDirs } from "./cli.js";

const FAKE = join(ROOT, "dist/src/mocks/provider.js");
const LEAN = ["--config-file", join(ROOT, "test/fakes/provider-lean-config.json")];
const temp = useTempDirs("awp-native-");

/** Words of a report that differ between any two runs on the same path: times, what identifies a process, a flood's length. */
const VARYING: readonly [RegExp, string][] = [
  [/\b\d+(\.\d+)? ?ms\b/g, "N ms"],
  [/\b\d+(\.\d+)? ?s\b/g, "N s"],
  [/\bpid \d+/g, "pid N"],
  [/\b\d+-[0-9a-f]{16}\b/g, "MARKER"],
  [/(socket|pipe):\[\d+\]/g, "$1:[N]"],
  // How much a flooding candidate wrote before the kit's SIGTERM landed: a race on either path.
  [/\b\d+ bytes seen\b/g, "N bytes seen"],
];
const TIMING_KEYS = new Set(["startedAt", "endedAt", "t", "durationMs", "elapsedMs", "pid"]);

function normalized(value: unknown): unknown {
  if (typeof value === "string") return VARYING.reduce((text, [pattern, by]) => text.replace(pattern, by), value);
  if (Array.isArray(value)) return value.map(normalized);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, TIMING_KEYS.has(k) && typeof v !== "object" ? "T" : normalized(v)]));
  }
  return value;
}

/** Runs the kit in a folder of its own (`--out out`, so the paths in both reports read alike); the report's text, normalized. */
async function reportOf(args: string[], spawner: string, env: Record<string, string> = {}): Promise<{ code: number; stderr: string; report: string }> {
  const cwd = temp();
  const [command, ...rest] = args as [string, ...string[]];
  const result = await runCli([command, "--spawner", spawner, "--out", "out", "--reporter", "json", ...rest], { cwd, env });
  const raw = result.code === 2 ? "{}" : readFileSync(join(cwd, "out", "report.json"), "utf8");
  return { code: result.code, stderr: result.stderr, report: JSON.stringify(normalized(JSON.parse(raw)), null, 1) };
}

/**
 * The whole suite and the fuzz run against the bench's small compiled provider (a Node provider
 * makes them ten times slower): the native leg needs cc anyway, and its answers (it fails some
 * clauses) are judged the same way on both paths.
 */
function tinyProvider(): string {
  const dir = temp();
  const tiny = join(dir, "tiny-provider");
  execFileSync("cc", ["-O2", "-o", tiny, join(ROOT, "bench/fixtures/tiny-provider.c")]);
  return tiny;
}

const TINY = NATIVE_SKIP === undefined && findCompiler() !== undefined ? tinyProvider() : FAKE;

const RUNS: readonly { name: string; args: string[] }[] = [
  { name: "the provider suite", args: ["run", "--protocol", "provider", ...LEAN, "--invalid-config-file", join(ROOT, "test/fakes/provider-invalid-configs.json"), TINY] },
  { name: "a fuzz of seed 7", args: ["fuzz", "--protocol", "provider", "--fuzz-runs", "30", "--seed", "7", ...LEAN, TINY] },
  { name: "a provider that hangs and ignores SIGTERM", args: ["run", "--protocol", "provider", ...LEAN, "--clause", "provider/robustness/no-hang", "--timeout", "1000", FAKE, "--", "--fault", "hang", "--fault", "ignore-sigterm"] },
  // 200 MiB: the kit ends the writer at the cap on either path (an answer a little past 1 MiB may be written whole before the kill lands).
  { name: "a 200 MiB line", args: ["run", "--protocol", "provider", ...LEAN, "--clause", "provider/transport/size-limit", FAKE, "--", "--fault", `huge-response:bytes=${200 * 1024 * 1024}`] },
  { name: "daemons left in sessions of their own", args: ["run", "--protocol", "provider", ...LEAN, "--clause", "provider/transport/no-leftover-processes", FAKE, "--", "--fault", "leave-daemon-stderr"] },
];

describe.skipIf(NATIVE_SKIP !== undefined)(`the same report through both paths${NATIVE_SKIP !== undefined ? ` (skipped: ${NATIVE_SKIP})` : ""}`, () => {
  for (const run of RUNS) {
    it(`${run.name}: --spawner node and --spawner native report the same`, async () => {
      const node = await reportOf(run.args, "node");
      const native = await reportOf(run.args, "native");
      expect(native.code).toBe(node.code);
      expect(native.stderr).not.toMatch(/native spawner/);
      expect(native.report).toBe(node.report);
      expect(node.report.length).toBeGreaterThan(1000);
    }, 180_000);
  }
});

describe("without a C compiler", () => {
  /** A PATH with node alone (the fake provider's #! finds it there), and a cache no spawner was built in. */
  function bare(): Record<string, string> {
    const dir = mkdtempSync(join(temp(), "bin-"));
    symlinkSync(process.execPath, join(dir, "node"));
    const cache = join(dir, "cache");
    mkdirSync(cache);
    return { PATH: dir, XDG_CACHE_HOME: cache };
  }
  const args = ["run", "--protocol", "provider", ...LEAN, "--clause", "provider/describe", FAKE];

  it("--spawner auto falls back to the Node launchers and says so in one line, once on a machine", async () => {
    const env = bare();
    const auto = await reportOf(args, "auto", env);
    const node = await reportOf(args, "node", env);
    expect(auto.stderr.split("\n").filter((line) => line.includes("native spawner"))).toEqual([
      "awp-conformance: the native spawner cannot be used (no C compiler (cc) on PATH to build it); provider calls go through the Node launchers (--spawner node says so without this message)",
    ]);
    expect(node.stderr).not.toMatch(/native spawner/);
    expect(auto.code).toBe(0);
    expect(auto.report).toBe(node.report);
    // Said once on a machine: the next run, with still no compiler, says nothing.
    const again = await reportOf(args, "auto", env);
    expect(again.stderr).not.toMatch(/native spawner/);
    expect(again.report).toBe(node.report);
  }, 120_000);

  it("--spawner native is a usage error that says why", async () => {
    const native = await reportOf(args, "native", bare());
    expect(native.code).toBe(2);
    expect(native.stderr).toMatch(/--spawner native: the native spawner cannot be used: no C compiler \(cc\) on PATH to build it/);
  }, 120_000);
});
