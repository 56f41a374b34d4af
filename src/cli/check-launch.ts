import type { AgentMode } from "../core/agent-cli/types.js";
import { loadCatalogue } from "../core/clauses/catalogue.js";
import { checkSelection, makeSelector } from "../core/clauses/patterns.js";
import { KitError } from "../core/errors.js";
import { DEFAULT_SHUTDOWN_GRACE_MS, DEFAULT_SLACK_MS, OVERSIZE_STOP_MS, RETRY_WINDOW_MS, START_RETRIES } from "../core/host/helpers.js";
import { hostRun, judgeHostRun, recordProtocol } from "../core/host/judge.js";
import { parseLaunchRecord, type HostProtocol } from "../core/host/record.js";
import type { HostBounds, HostExpectations } from "../core/host/types.js";
import { readInputFile } from "../core/inputs/read.js";
import { SECRET_ENV_NAME } from "../core/agent-cli/launch.js";
import { buildReport } from "../core/report/build.js";
import { exitCodeFor } from "../core/report/judge.js";
import { parseJsonOption, stringArray, stringRecord } from "./agent-options.js";
import { colorWanted, list } from "./args.js";
import { outcomesOption, providersOption } from "./host-options.js";
import { checkReporters, emitReport } from "./output.js";
import { outputArgs, reportFinisher, type ReportArgs } from "./report-options.js";

export interface CheckLaunchArgs extends ReportArgs {
  record: string;
  protocol?: string;
  expectModel?: string;
  expectMode?: string;
  expectArgsJson?: string;
  expectEnvJson?: string;
  expectResume?: string;
  expectProvidersJson?: string;
  expectCwd?: string;
  hostOutcomes?: string;
  remoteOptIn?: boolean;
  shutdownGrace?: number;
  slack?: number;
  oversizeStop?: number;
  startRetries?: number;
  retryWindow?: number;
  clause?: unknown;
  skip?: unknown;
  out?: string;
  reporter?: unknown;
}

function msOption(flag: string, value: number | undefined, fallback: number, unit = "milliseconds"): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new KitError("usage", `${flag}: give a whole number of ${unit}, 0 or more`);
  return value;
}

/** `awp-conformance check-launch FILE`: judges the record, prints and writes the report, returns the exit code. */
export async function checkLaunch(a: CheckLaunchArgs): Promise<number> {
  const reporters = list(a.reporter);
  checkReporters(reporters);
  if (a.out === undefined && reporters.some((r) => r !== "console")) throw new KitError("usage", "file reporters need --out DIR");
  const finisher = reportFinisher(a);
  const selection = { clause: list(a.clause), skip: list(a.skip) };
  checkSelection(selection, loadCatalogue("host").map((c) => c.id), "the host catalogue", ["awp-conformance list --protocol host"]);
  const env = a.expectEnvJson === undefined ? undefined : stringRecord(parseJsonOption(a.expectEnvJson, "--expect-env-json"), "--expect-env-json");
  const args = a.expectArgsJson === undefined ? undefined : stringArray(parseJsonOption(a.expectArgsJson, "--expect-args-json"), "--expect-args-json");
  const expect: HostExpectations = {
    remoteOptIn: a.remoteOptIn === true,
    ...(a.expectModel !== undefined ? { model: a.expectModel } : {}),
    ...(a.expectMode !== undefined ? { mode: a.expectMode as AgentMode } : {}),
    ...(args !== undefined ? { args } : {}),
    ...(env !== undefined ? { env } : {}),
    ...(a.expectResume !== undefined ? { resume: a.expectResume } : {}),
    ...(a.expectProvidersJson !== undefined ? { providers: providersOption(a.expectProvidersJson) } : {}),
    ...(a.expectCwd !== undefined ? { cwd: a.expectCwd } : {}),
    ...(a.hostOutcomes !== undefined ? { outcomes: outcomesOption(a.hostOutcomes) } : {}),
  };
  const bounds: HostBounds = {
    shutdownGraceMs: msOption("--shutdown-grace", a.shutdownGrace, DEFAULT_SHUTDOWN_GRACE_MS),
    slackMs: msOption("--slack", a.slack, DEFAULT_SLACK_MS),
    oversizeStopMs: msOption("--oversize-stop", a.oversizeStop, OVERSIZE_STOP_MS),
    startRetries: msOption("--start-retries", a.startRetries, START_RETRIES, "starts"),
    retryWindowMs: msOption("--retry-window", a.retryWindow, RETRY_WINDOW_MS),
  };
  const startedAt = new Date();
  const record = parseLaunchRecord(readInputFile(a.record, "record"));
  const protocol = recordProtocol(record, a.protocol as HostProtocol | undefined);
  const run = hostRun(record, protocol, expect, bounds);
  const { results, deselected, notes, halted } = judgeHostRun(run, makeSelector(selection));
  const options = { record: a.record, ...bounds, remoteOptIn: expect.remoteOptIn, expected: Object.keys(expect).filter((k) => k !== "remoteOptIn"), processes: run.processes.length };
  // Configured values of secret-looking names never reach the report, whatever the record held.
  const secrets = Object.entries(env ?? {}).flatMap(([name, value]) => (SECRET_ENV_NAME.test(name) && value.length >= 4 ? [value] : []));
  const report = finisher.finish(buildReport({ protocol: "host", mode: protocol, argv: [a.record], startedAt, endedAt: new Date(), options, selection, results, deselected, notes, ...(halted !== undefined ? { halted } : {}), secrets }));
  await emitReport(report, { reporters, outDir: a.out ?? ".", color: colorWanted(), ...outputArgs(a) });
  return exitCodeFor(report.summary);
}
