/**
 * What the agent-cli mock tells its launch record beyond stdin lines and signals, so a host's
 * reactions can be judged (loaded only when recording is on): when a fault fired (`fault`),
 * each session id the host was given (`session`), the terminal event each input line got
 * (`result`), the moment a fault's long write was handed to the pipe whole (`fault-flushed`),
 * and, when stdin ends because the host itself is exiting, `host-gone`.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseObject, type Obj } from "../process.js";
import type { MockRecorder } from "../record.js";
import type { FaultNotes, Owed } from "./state.js";

/** Longer lines are not read back for session ids or terminal events (an unbroken run of a fault). */
const SCAN_CHARS = 64 * 1024;
/** The kernel's flag of a task that is exiting (/proc/PID/stat, field 9). */
const PF_EXITING = 0x4;

export interface Observer extends FaultNotes {
  /** A stdout write as the host gets it; `answered`: it holds the reference's result for `owed`. */
  output(text: string, owed: Owed | undefined, answered: boolean): void;
  /** The callbacks waiting for the write being made now (see FaultNotes.whenFlushed). */
  takeFlushed(): (() => void)[];
  /** stdin reached its end: notes `host-gone` when the host is exiting or has exited. */
  stdinEnded(): void;
}

type Terminal = { error: boolean } | undefined;

/** Whether the process `pid`, our parent at launch, is gone or exiting (false when /proc cannot tell). */
export function parentGone(launchParent: number, currentParent: number, statOf: (pid: number) => string | null): boolean {
  if (currentParent !== launchParent) return true;
  const stat = statOf(launchParent);
  if (stat === null) return true;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const state = fields[0] ?? "";
  const flags = Number(fields[6] ?? 0);
  return state === "Z" || state === "X" || (Number.isSafeInteger(flags) && (flags & PF_EXITING) !== 0);
}

function procStat(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
}

/** The first terminal event (a result, or a raw message_stop) among the lines of a write. */
function terminalOf(objects: readonly Obj[]): Terminal {
  for (const o of objects) {
    if (o.type === "result") return { error: o.is_error === true };
    if (o.type === "message_stop") return { error: false };
  }
  return undefined;
}

export function createObserver(recorder: MockRecorder): Observer {
  const launchParent = process.ppid;
  const fired = new Set<string>();
  const sessions = new Set<string>();
  let flushed: (() => void)[] = [];
  return {
    fired: (name, owed, fields = {}) => {
      const key = `${name}:${owed?.line ?? "-"}`;
      if (fired.has(key)) return;
      fired.add(key);
      recorder.note("fault", { name, input: owed?.line ?? null, ...fields });
    },
    whenFlushed: (name, owed) => void flushed.push(() => recorder.note("fault-flushed", { name, input: owed?.line ?? null })),
    takeFlushed: () => {
      const taken = flushed;
      flushed = [];
      return taken;
    },
    output: (text, owed, answered) => {
      const objects = text
        .split("\n")
        .filter((one) => one.length <= SCAN_CHARS && one.includes("{"))
        .flatMap((one): Obj[] => {
          const o = parseObject(one);
          return o === undefined ? [] : [o];
        });
      for (const o of objects) {
        if (typeof o.session_id !== "string" || sessions.has(o.session_id)) continue;
        sessions.add(o.session_id);
        recorder.note("session", { id: o.session_id });
      }
      const terminal = answered ? terminalOf(objects) : undefined;
      if (terminal !== undefined && owed?.line !== null && owed !== undefined) recorder.note("result", { input: owed.line, error: terminal.error });
    },
    stdinEnded: () => {
      if (!existsSync("/proc/self/stat")) return;
      if (parentGone(launchParent, process.ppid, procStat)) recorder.note("host-gone", { parent: launchParent });
    },
  };
}
