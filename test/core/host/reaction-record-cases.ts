/**
 * Every agent-cli reaction clause proven to fail: each case changes one thing in the passing
 * record of a host that reacts well (test/fixtures/launch-records/agent-cli-reactions.jsonl:
 * a CLI past the 4 MiB guard, one writing log lines, one ending a turn mid-way and then resumed,
 * one failing at start-up) and names the exact clauses that must then fail. The docs
 * (docs/clauses.md, "Shown to fail by") read this table.
 */
import type { RecordLine } from "./launch-record-cases.js";

export const REACTIONS_RECORD = "test/fixtures/launch-records/agent-cli-reactions.jsonl";

export interface ReactionCase {
  name: string;
  about: string;
  /** The passing record's name (<folder>/<protocol>.jsonl in the docs); judged as an agent-cli host. */
  protocol: "agent-cli-reactions";
  fails: readonly string[];
  mutate: (lines: RecordLine[]) => RecordLine[];
}

/** The record's processes: huge-line, log-on-stdout, exit-mid-turn and the process resuming it, exit-at-start. */
export const HUGE = 6100;
export const LOGS = 6200;
export const MID = 6300;
export const RESUMED = 6301;
export const START = 6500;

const r = (id: string): string => `host/agent-cli-reactions/${id}`;
const of = (lines: RecordLine[], pid: number, event: string): RecordLine[] => lines.filter((l) => l.pid === pid && l.event === event);
const first = (lines: RecordLine[], pid: number, event: string): RecordLine => of(lines, pid, event)[0]!;
const base = (line: RecordLine): { v: unknown; protocol: unknown; pid: number | undefined } => ({ v: line.v, protocol: line.protocol, pid: line.pid });

/** The lines with `extra` put in time order among them (the mock appends in the order things happen). */
function adding(lines: RecordLine[], ...extra: RecordLine[]): RecordLine[] {
  return [...lines, ...extra].sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
}

/** A process's launch and events as another pid, `shift` ms later. */
function copyOf(lines: RecordLine[], pid: number, as: number, shift: number): RecordLine[] {
  return lines.filter((l) => l.pid === pid).map((l) => ({ ...structuredClone(l), pid: as, at: (l.at ?? 0) + shift }));
}

export const REACTION_RECORD_CASES: readonly ReactionCase[] = [
  {
    name: "oversize-late-sigterm",
    about: "SIGTERM 3 s after a run past 4 MiB began",
    protocol: "agent-cli-reactions",
    fails: [r("oversize-stops-cli")],
    mutate: (lines) => {
      const fault = first(lines, HUGE, "fault");
      for (const l of lines) if (l.pid === HUGE && (l.event === "signal" || l.event === "exit")) l.at = (fault.at ?? 0) + 3000 + (l.event === "exit" ? 1 : 0);
      return lines;
    },
  },
  {
    name: "oversize-turn-after-run",
    about: "another turn written after the whole unbroken run was read",
    protocol: "agent-cli-reactions",
    fails: [r("oversize-stops-cli")],
    mutate: (lines) => {
      const fault = first(lines, HUGE, "fault");
      const next = structuredClone(first(lines, HUGE, "stdin-line"));
      Object.assign(next, { at: (fault.at ?? 0) + 60, index: 2, text: String(next.text).replace("Explain this failure", "One more"), sha256: "1".repeat(64) });
      return adding(lines, { ...base(fault), at: (fault.at ?? 0) + 50, event: "fault-flushed", name: "huge-line", input: 0 }, next);
    },
  },
  {
    name: "restart-on-log-line",
    about: "the CLI stopped after a log line on stdout, the next turn sent to a new process",
    protocol: "agent-cli-reactions",
    fails: [r("bad-output-session-goes-on")],
    mutate: (lines) => {
      const second = of(lines, LOGS, "stdin-line")[1]!;
      const kept = lines.filter((l) => !(l.pid === LOGS && (l.at ?? 0) >= (second.at ?? 0)));
      const restarted = copyOf(lines, LOGS, 6201, 500).filter((l) => (l.at ?? 0) >= (second.at ?? 0) + 500 || l.event === "launch");
      const launch = restarted.find((l) => l.event === "launch")!;
      launch.at = (second.at ?? 0) + 300;
      launch.mockArgs = [...(launch.mockArgs as string[]), "--resume", "sess-log"];
      launch.argv = [...(launch.argv as string[]), "--resume", "sess-log"];
      for (const l of restarted) if (l.event === "stdin-line" || l.event === "result" || l.event === "fault") (l as Record<string, unknown>)[l.event === "stdin-line" ? "index" : "input"] = 0;
      return adding(kept, { ...base(second), at: (second.at ?? 0) - 50, event: "signal", name: "SIGTERM", action: "exit" }, { ...base(second), at: (second.at ?? 0) - 49, event: "exit", code: 143, reason: "signal" }, ...restarted);
    },
  },
  {
    name: "second-process-for-conversation",
    about: "the resuming process started while the first one of the conversation still ran",
    protocol: "agent-cli-reactions",
    fails: [r("one-process-per-conversation")],
    mutate: (lines) => {
      first(lines, RESUMED, "launch").at = (first(lines, MID, "exit").at ?? 0) - 100;
      return adding(lines);
    },
  },
  {
    name: "replay-after-exit",
    about: "the turn that ended mid-way written again to the resuming process",
    protocol: "agent-cli-reactions",
    fails: [r("no-replay-after-failure")],
    mutate: (lines) => {
      const failed = of(lines, MID, "stdin-line")[1]!;
      Object.assign(first(lines, RESUMED, "stdin-line"), { text: failed.text, sha256: failed.sha256, bytes: failed.bytes });
      return lines;
    },
  },
  {
    name: "quit-leaves-cli-running",
    about: "the host exited without signalling a live CLI",
    protocol: "agent-cli-reactions",
    fails: [r("shutdown-stops-every-cli")],
    mutate: (lines) =>
      lines.flatMap((l): RecordLine[] => {
        if (l.pid !== LOGS || (l.event !== "signal" && l.event !== "exit")) return [l];
        if (l.event === "exit") return [{ ...l, code: 0, reason: "stdin-ended" }];
        return [
          { ...base(l), at: l.at, event: "stdin-end", partial: 0 },
          { ...base(l), at: l.at, event: "host-gone", parent: 6000 },
        ];
      }),
  },
  {
    name: "start-retried-in-a-loop",
    about: "a CLI that failed at start-up started again 3 times in a row",
    protocol: "agent-cli-reactions",
    fails: [r("no-start-retry-loop")],
    mutate: (lines) => adding(lines, ...[1, 2, 3].flatMap((n) => copyOf(lines, START, START + n, 200 * n))),
  },
];
