/** Launch records for the host tests: read a fixture, judge lines. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DEFAULT_SHUTDOWN_GRACE_MS, DEFAULT_SLACK_MS } from "../../../src/core/host/helpers.js";
import { hostRun, judgeHostRun } from "../../../src/core/host/judge.js";
import { parseLaunchRecord, type HostProtocol } from "../../../src/core/host/record.js";
import type { HostBounds, HostExpectations } from "../../../src/core/host/types.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import type { RecordLine } from "./launch-record-cases.js";

const ROOT = resolve(import.meta.dirname, "../../..");
export const DEFAULT_BOUNDS: HostBounds = { shutdownGraceMs: DEFAULT_SHUTDOWN_GRACE_MS, slackMs: DEFAULT_SLACK_MS };

/** The lines of a record fixture, as fresh objects. */
export function readRecord(path: string): RecordLine[] {
  return readFileSync(join(ROOT, path), "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as RecordLine);
}

export const toJsonl = (lines: readonly unknown[]): Buffer => Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join(""));

export interface Judged {
  results: ClauseResult[];
  notes: string[];
  halted?: string;
  status: (id: string) => ClauseResult["status"] | undefined;
  failing: string[];
}

export function judgeLines(lines: readonly unknown[] | Buffer, protocol: HostProtocol, expect: HostExpectations, bounds: HostBounds = DEFAULT_BOUNDS): Judged {
  const record = parseLaunchRecord(Buffer.isBuffer(lines) ? lines : toJsonl(lines));
  const judged = judgeHostRun(hostRun(record, protocol, expect, bounds));
  return {
    ...judged,
    status: (id) => judged.results.find((r) => r.id === id)?.status,
    failing: judged.results.filter((r) => r.status === "fail").map((r) => r.id).sort(),
  };
}
