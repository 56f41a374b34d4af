import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report/types.js";
import { CLI, readReport, ROOT, useTempDirs } from "./cli.js";
import { isDead } from "../runner/dead.js";
import { REFERENCE_ENV } from "./agent-cli-fakes.js";
import { NATIVE_SKIP } from "../runner/native/paths.js";

/**
 * Candidates that leave a daemon in a new session after every launch (src/mocks/daemon.ts):
 * after the kit's run, no process of that run may be left, checked in /proc by the launch marker
 * (AWP_CONFORMANCE_LAUNCH=<kit pid>-…) and, for daemons that dropped their environment, by the
 * marker they carry in their argv. Whatever survives is killed here, so a failure leaves nothing.
 */

const DAEMON_TAG = "awp-leftover-daemon";
const FAULTS = ["leave-daemon-stdout", "leave-daemon-stderr", "leave-daemon-no-fds"] as const;
const FOUND_BY: Record<(typeof FAULTS)[number], string[]> = {
  "leave-daemon-stdout": ["pipe"],
  "leave-daemon-stderr": ["marker", "pipe"],
  "leave-daemon-no-fds": ["marker"],
};
const HAS_PROC = existsSync("/proc/self/environ");
const temp = useTempDirs("awp-leftovers-");
const strays: number[] = [];

afterAll(() => {
  for (const pid of strays) if (!isDead(pid)) process.kill(pid, "SIGKILL");
});

function read(file: string): string {
  try {
    return readFileSync(file, "latin1");
  } catch {
    return "";
  }
}

/** Running processes that came from the kit run with this pid: by the marker in their environment or in their argv. */
function survivorsOf(kitPid: number): number[] {
  const prefix = `${kitPid}-`;
  const ofRun = (value: string): boolean => value.split(":").some((link) => link.startsWith(prefix));
  return readdirSync("/proc").flatMap((name) => {
    if (!/^\d+$/.test(name) || isDead(Number(name))) return [];
    const environ = read(`/proc/${name}/environ`).split("\0");
    const argv = read(`/proc/${name}/cmdline`).split("\0");
    const marked = environ.some((entry) => entry.startsWith("AWP_CONFORMANCE_LAUNCH=") && ofRun(entry.slice("AWP_CONFORMANCE_LAUNCH=".length)));
    const tagged = argv.includes(DAEMON_TAG) && argv.some(ofRun);
    return marked || tagged ? [Number(name)] : [];
  });
}

async function runKit(args: string[]): Promise<{ code: number; pid: number; report: RunReport }> {
  const out = temp();
  const subprocess = execa(process.execPath, [CLI, "run", "--out", out, "--reporter", "json", ...args], { cwd: ROOT, reject: false, timeout: 120_000, env: { NO_COLOR: "1" } });
  const pid = subprocess.pid as number;
  const result = await subprocess;
  return { code: result.exitCode ?? -1, pid, report: readReport(out) };
}

const provider = (spawner: string) => (fault: string): string[] => [
    "--protocol", "provider", "--spawner", spawner, "--config-file", join(ROOT, "test/fakes/provider-lean-config.json"),
    "--clause", "provider/transport/no-leftover-processes", join(ROOT, "dist/src/mocks/provider.js"), "--", "--fault", fault,
  ];

/** The provider's calls through each path (runner/native/): the Node launchers, and the native spawner where it can be built. */
const runs: Record<string, (fault: string) => string[]> = {
  "provider (node path)": provider("node"),
  "provider (native path)": provider("native"),
  "agent-cli": (fault) => [
    "--protocol", "agent-cli", "--mode", "awp-jsonl", "--scenario", "basic", "--quiet-window", "300",
    ...Object.entries(REFERENCE_ENV).flatMap(([k, v]) => ["--env", `${k}=${v}`]), join(ROOT, "dist/src/mocks/agent-cli.js"), "--", "--fault", fault,
  ],
};

describe.skipIf(!HAS_PROC).concurrent("no process is left after a run against a candidate that leaves daemons (needs /proc)", () => {
  for (const leg of Object.keys(runs)) {
    const protocol = leg.startsWith("provider") ? "provider" : "agent-cli";
    for (const fault of FAULTS) {
      const skip = leg.includes("native") && NATIVE_SKIP !== undefined ? ` (skipped: ${NATIVE_SKIP})` : "";
      it.skipIf(skip !== "")(`${leg} ${fault}: every daemon is reported, ended, and none survives the run${skip}`, async () => {
        const { code, pid, report } = await runKit((runs[leg] as (f: string) => string[])(fault));
        const survivors = survivorsOf(pid);
        strays.push(...survivors);
        expect(survivors).toEqual([]);
        // SHOULD: a warning, not a failed run.
        expect(code).toBe(0);
        const clause = report.clauses.find((c) => c.id === `${protocol}/${protocol === "provider" ? "transport" : "termination"}/no-leftover-processes`);
        expect(clause?.status).toBe("fail");
        expect(clause?.findings.length).toBeGreaterThan(0);
        for (const f of clause?.findings ?? []) {
          expect(f.message).toMatch(/pid \d+, found by/);
          expect(f.seen).toMatch(new RegExp(`^pid \\d+: \\S+ -e .* ${DAEMON_TAG} ${pid}-[0-9a-f]{16} \\(the kit ended it with SIGTERM\\)$`));
          for (const how of FOUND_BY[fault]) expect(f.message).toContain(how === "marker" ? "the launch marker AWP_CONFORMANCE_LAUNCH" : "pipe (socket:[");
          if (!FOUND_BY[fault].includes("marker")) expect(f.message).not.toContain("launch marker");
        }
      }, 150_000);
    }
  }
});
