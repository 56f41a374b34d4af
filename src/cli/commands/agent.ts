import { writeFileSync } from "node:fs";
import { basename } from "node:path";
import type { Argv } from "yargs";
import type { AgentRun } from "../../core/agent-cli/checks/helpers.js";
import { SCENARIO_NAMES, type ScenarioName } from "../../core/agent-cli/scenarios.js";
import type { AgentMode, Transcript } from "../../core/agent-cli/types.js";
import { KitError } from "../../core/errors.js";
import { kitVersion } from "../../core/paths.js";
import type { ControlPlaneFixture } from "../../servers/index.js";
import { readBounds, readLaunch, withLaunchOptions, type BoundArgs } from "../agent-options.js";
import { readManaged, type ManagedArgs } from "../managed-options.js";
import { candidateOf, colorWanted, list } from "../args.js";
import { fixtureBanner } from "../fixture-banner.js";
import { outputArgs, reportFinisher, withReportOptions, type ReportArgs } from "../report-options.js";

/** The recorded files of one check: each within the transcript limits, all together within CHECK_LIMITS. */
async function readTranscripts(files: string[], fallbackMode: AgentMode): Promise<Transcript[]> {
  const [{ parseTranscript }, { CHECK_LIMITS, formatBytes, readInputFile }] = await Promise.all([import("../../core/agent-cli/golden.js"), import("../../core/inputs/index.js")]);
  let bytesSoFar = 0;
  let eventsSoFar = 0;
  const transcripts = files.map((file) => {
    const bytes = readInputFile(file, "transcript");
    bytesSoFar += bytes.length;
    if (bytesSoFar > CHECK_LIMITS.maxBytes) throw new KitError("usage", `${file}: the transcripts of one check hold more than ${formatBytes(CHECK_LIMITS.maxBytes)} together; check them in smaller groups`);
    const transcript = parseTranscript(bytes, basename(file), fallbackMode, file);
    eventsSoFar += transcript.events.length;
    if (eventsSoFar > CHECK_LIMITS.maxEvents) throw new KitError("usage", `${file}: the transcripts of one check hold more than ${CHECK_LIMITS.maxEvents} events together; check them in smaller groups`);
    return transcript;
  });
  return transcripts;
}

export function checkCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "check <transcripts..>",
    "judge recorded agent-cli transcripts (kit transcripts or plain stdout captures) with the same checks",
    (c) =>
      withReportOptions(c)
        .positional("transcripts", { type: "string", array: true, demandOption: true, describe: "recorded files: kit transcripts (.jsonl from record or a run) or plain stdout captures" })
        .option("mode", { type: "string", choices: ["awp-jsonl", "stream-json"], default: "stream-json", describe: "mode of plain stdout captures" })
        .option("clause", { type: "string", array: true, describe: "only clauses matching PATTERN (* within a segment, ** across)" })
        .option("skip", { type: "string", array: true, describe: "leave out clauses matching PATTERN" })
        .option("out", { type: "string", describe: "report folder (default: no files)" })
        .option("reporter", { type: "string", array: true, default: ["console"], describe: "console,json,junit,tap,markdown,html,badge (file reporters need --out)" }),
    async (a) => {
      // Checks, report building and the reporters load only for this command.
      const [{ judgeAgentRun }, { checkSelection, makeSelector }, { loadCatalogue }, { buildReport }, { exitCodeFor }, { checkReporters, emitReport }] = await Promise.all([
        import("../../core/agent-cli/judge.js"), import("../../core/clauses/patterns.js"), import("../../core/clauses/catalogue.js"), import("../../core/report/build.js"), import("../../core/report/judge.js"), import("../output.js"),
      ]);
      const files = list(a.transcripts);
      checkReporters(list(a.reporter));
      const finisher = reportFinisher(a as ReportArgs);
      const selection = { clause: list(a.clause), skip: list(a.skip) };
      checkSelection(selection, loadCatalogue("agent-cli").map((c) => c.id), "the agent-cli catalogue", ["awp-conformance list --protocol agent-cli"]);
      const transcripts = await readTranscripts(files, a.mode as AgentMode);
      const run: AgentRun = { mode: transcripts[0]?.mode ?? (a.mode as AgentMode), transcripts, turnTimeoutMs: 30_000, offline: true };
      const now = new Date();
      const { results, deselected, notes, halted } = judgeAgentRun(run, makeSelector(selection));
      const report = finisher.finish(buildReport({ protocol: "agent-cli", mode: run.mode, argv: files, startedAt: now, endedAt: now, options: { offline: true, transcripts: files.length }, selection, results, deselected, notes, ...(halted !== undefined ? { halted } : {}), secrets: [] }));
      const reporters = list(a.reporter);
      if (a.out === undefined && reporters.some((r) => r !== "console")) throw new KitError("usage", "file reporters need --out DIR");
      await emitReport(report, { reporters, outDir: a.out ?? ".", color: colorWanted(), ...outputArgs(a as ReportArgs) });
      setCode(exitCodeFor(report.summary));
    },
  );
}

export function recordCommand(y: Argv): Argv {
  return y.command(
    "record [candidate] [args..]",
    "run one agent-cli scenario live and save it as a golden transcript",
    (c) =>
      withLaunchOptions(
        c
          .positional("candidate", { type: "string", describe: "path to the agent CLI executable (a bare name is looked up on PATH)" })
          .positional("args", { type: "string", array: true, describe: "arguments for the CLI (put -- before ones that start with a dash)" })
          .option("protocol", { type: "string", choices: ["agent-cli", "provider"], describe: "which contract: record saves agent-cli scenarios only (agent-cli, the default; run --protocol provider saves the requests behind a provider's failures)" }),
      )
        .option("out", { type: "string", demandOption: true, describe: "transcript file to write (.jsonl)" })
        .option("description", { type: "string", describe: "a line saying what the transcript shows, kept in its header" }),
    async (a) => {
      const [{ transcriptToJsonl }, { makeRedactor }, { recordAgentCliRun }, { runKeys }] = await Promise.all([
        import("../../core/agent-cli/golden.js"), import("../../core/report/redact.js"), import("../../runner/agent-cli/driver.js"), import("../../runner/agent-cli/suite.js"),
      ]);
      const { candidate, rest } = candidateOf(a);
      const { config, facts } = readLaunch({ ...(candidate !== undefined ? { candidate } : {}), rest, ...a } as Parameters<typeof readLaunch>[0]);
      const names = list(a.scenario as unknown);
      const name = (names[0] ?? "basic") as ScenarioName;
      if (names.length > 1 || !SCENARIO_NAMES.includes(name)) throw new KitError("usage", `record takes one --scenario of: ${SCENARIO_NAMES.join(", ")}`);
      const run = await recordAgentCliRun({ config, facts, scenarios: [name], ...readBounds(a as BoundArgs), ...readManaged(a as ManagedArgs) });
      const transcript = run.transcripts[0];
      if (transcript === undefined) throw new KitError("kit_bug", "no transcript recorded");
      const redact = makeRedactor(runKeys(run));
      writeFileSync(a.out, redact(transcriptToJsonl(transcript, { recordedAt: new Date().toISOString(), tool: `awp-conformance ${kitVersion()}`, ...(a.description !== undefined ? { description: a.description } : {}) })));
      process.stdout.write(`recorded ${name} (${transcript.events.length} events) to ${a.out}\n`);
    },
  );
}

export function fixtureCommand(y: Argv): Argv {
  return y.command(
    "fixture",
    "run the deterministic fixtures alone on 127.0.0.1: the model (OpenAI chat completions and Anthropic Messages) and the managed-task control plane",
    (c) =>
      c
        .option("port", { type: "number", default: 0, describe: "port of the model fixture on 127.0.0.1 (default: any free port)" })
        .option("token", { type: "string", describe: "API key the model fixture requires (default: none)" })
        .option("controlplane-port", { type: "number", default: 0, describe: "port of the control-plane fixture (default: any free port)" })
        .option("controlplane-token", { type: "string", describe: "key the control plane requires as Bearer (default: a fresh awp-cp-… key)" }),
    async (a) => {
      const { startControlPlaneFixture, startModelFixture } = await import("../../servers/index.js");
      const fixture = await startModelFixture({ port: a.port, ...(a.token !== undefined ? { token: a.token } : {}) });
      let controlPlane: ControlPlaneFixture;
      try {
        controlPlane = await startControlPlaneFixture({ port: a.controlplanePort, ...(a.controlplaneToken !== undefined ? { token: a.controlplaneToken } : {}) });
      } catch (error) {
        await fixture.close();
        throw error instanceof RangeError ? new KitError("usage", error.message) : error;
      }
      process.stdout.write(fixtureBanner({ openaiBase: fixture.openaiBase, anthropicBase: fixture.anthropicBase, controlPlane: controlPlane.origin, controlPlaneToken: controlPlane.token }));
      fixture.onCall((call) => process.stdout.write(`#${call.seq} ${call.api} ${call.path} -> ${call.status} ${call.outcome}\n`));
      controlPlane.onRequest((r) => process.stdout.write(`cp #${r.seq} ${r.method} ${r.path.slice(0, 120)} -> ${r.status} ${r.outcome}${r.plan !== undefined ? ` (plan ${r.plan.kind})` : ""}${r.taskStatus !== undefined ? ` ${r.taskStatus}` : ""}\n`));
      await new Promise<void>((resolve) => {
        for (const signal of ["SIGINT", "SIGTERM"] as const) {
          // Ahead of the kit's own handler, which exits at once: both servers stop listening and drop their sockets first.
          process.prependOnceListener(signal, () => {
            void fixture.close();
            void controlPlane.close();
            resolve();
          });
        }
      });
      await Promise.all([fixture.close(), controlPlane.close()]);
    },
  );
}
