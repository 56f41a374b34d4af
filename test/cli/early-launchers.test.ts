import { describe, expect, it } from "vitest";
import { earlyLauncherCount } from "../../src/cli/early-launchers.js";
import { DEFAULT_POLICY_TEST_JOBS, DEFAULT_PROVIDER_JOBS } from "../../src/runner/provider/jobs.js";

const argv = (...args: string[]): string[] => ["/usr/bin/node", "/kit/dist/src/cli/main.js", ...args];

describe("earlyLauncherCount: the launchers a command line will use, read before the kit loads", () => {
  it("a provider run or fuzz uses --jobs launchers, by default the kit's default", () => {
    expect(earlyLauncherCount(argv("run", "--protocol", "provider", "./p"))).toBe(DEFAULT_PROVIDER_JOBS);
    expect(earlyLauncherCount(argv("run", "./p", "--protocol=provider", "--jobs", "1"))).toBe(1);
    expect(earlyLauncherCount(argv("fuzz", "--jobs=3", "--protocol", "provider", "./p"))).toBe(3);
    expect(earlyLauncherCount(argv("policy-test", "./p", "--cases", "c.json"))).toBe(DEFAULT_POLICY_TEST_JOBS);
  });

  it("an --jobs yargs will refuse falls back to the default; yargs reports it", () => {
    expect(earlyLauncherCount(argv("run", "--protocol", "provider", "--jobs", "0", "./p"))).toBe(DEFAULT_PROVIDER_JOBS);
    expect(earlyLauncherCount(argv("run", "--protocol", "provider", "--jobs", "two", "./p"))).toBe(DEFAULT_PROVIDER_JOBS);
    expect(earlyLauncherCount(argv("run", "--protocol", "provider", "--jobs"))).toBe(DEFAULT_PROVIDER_JOBS);
  });

  it("none for agent-cli runs, other commands, help, or options after -- (the candidate's)", () => {
    expect(earlyLauncherCount(argv("run", "--protocol", "agent-cli", "./c"))).toBe(0);
    expect(earlyLauncherCount(argv("run", "./c"))).toBe(0);
    expect(earlyLauncherCount(argv("run", "./c", "--", "--protocol", "provider", "--jobs", "4"))).toBe(0);
    expect(earlyLauncherCount(argv("run", "--protocol", "provider", "./p", "--", "--jobs", "4"))).toBe(DEFAULT_PROVIDER_JOBS);
    expect(earlyLauncherCount(argv("run", "--protocol", "provider", "--help"))).toBe(0);
    expect(earlyLauncherCount(argv("policy-test", "-h"))).toBe(0);
    expect(earlyLauncherCount(argv("list"))).toBe(0);
    expect(earlyLauncherCount(argv("replay", "--protocol", "provider", "r.json"))).toBe(0);
    expect(earlyLauncherCount(argv())).toBe(0);
  });
});
