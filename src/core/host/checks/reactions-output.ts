/**
 * How an agent-cli host reacts to what the CLI writes on stdout, judged from the mock's record:
 * an unbroken run past 4 MiB (the mock's huge-line fault) and output the host must skip
 * (log-on-stdout, untyped-event, unknown-event, split-lines).
 */
import type { Check } from "../../report/judge.js";
import { conversationsOf, userLines } from "../conversations.js";
import { eventsOf, lastEvent, notApplicable, OVERSIZE_STOP_MS, perProcess, skip, type Problem } from "../helpers.js";
import type { FaultEvent, HostProcess } from "../record.js";
import type { HostRun } from "../types.js";

const ID = "host/agent-cli-reactions";
const MIB = 1024 * 1024;
/** The contract's output guard: an unbroken stdout buffer over 4 MiB terminates the runtime. */
export const OUTPUT_GUARD_BYTES = 4 * MIB;
/** Once a run this long is in the pipe whole, the host has read past 4 MiB of it (pipes and socket buffers hold at most 1 MiB by default). */
const FLUSH_PROVES_GUARD = OUTPUT_GUARD_BYTES + MIB;
/** The mock's faults that write stdout a host must skip or join, and go on. */
export const BAD_OUTPUT_FAULTS: readonly string[] = ["log-on-stdout", "untyped-event", "unknown-event", "split-lines"];

const ms = (value: number): number => Math.round(value);

/** The huge-line run of a process that passed the guard, when the record shows one. */
const oversizeRun = (process: HostProcess): FaultEvent | undefined => eventsOf(process, "fault").find((f) => f.name === "huge-line" && (f.bytes ?? 0) > OUTPUT_GUARD_BYTES);

function oversizeProblems(process: HostProcess, run: HostRun): Problem[] | undefined {
  const fault = oversizeRun(process);
  if (fault === undefined) return undefined;
  const bound = run.bounds.oversizeStopMs ?? OVERSIZE_STOP_MS;
  const later = process.events.slice(process.events.indexOf(fault) + 1);
  const stop = later.find((e) => e.event === "signal" || e.event === "exit");
  const problems: Problem[] = [];
  if (stop === undefined) {
    const last = lastEvent(process);
    // Killed without a signal: only a process seen alive past the bound is known to be late.
    if (last.at - fault.at <= bound) return undefined;
    problems.push({ message: `no signal came, and the CLI was still running ${ms(last.at - fault.at)} ms after the unbroken run of ${fault.bytes} bytes began`, expected: `SIGTERM within ${bound} ms`, events: [fault, last] });
  } else if (stop.at - fault.at > bound) {
    const what = stop.event === "signal" ? `the first signal (${stop.name}) came` : "the CLI ended by itself";
    problems.push({ message: `${what} ${ms(stop.at - fault.at)} ms after the unbroken run of ${fault.bytes} bytes began`, expected: `SIGTERM within ${bound} ms (--oversize-stop)`, events: [fault, stop] });
  }
  const flushed = (fault.bytes ?? 0) >= FLUSH_PROVES_GUARD ? later.find((e) => e.event === "fault-flushed" && e.name === "huge-line") : undefined;
  const cut = Math.min(flushed?.at ?? Infinity, stop?.event === "signal" ? stop.at : Infinity);
  const more = userLines(process).filter((line) => line.at > cut);
  if (more.length > 0) {
    const after = flushed !== undefined && flushed.at <= cut ? "after it had read the whole unbroken run" : "after it signalled the CLI";
    problems.push({ message: `the host wrote ${more.length} more turn${more.length === 1 ? "" : "s"} to the CLI ${after}`, expected: "no further turn to a runtime past the 4 MiB guard", events: [fault, ...(flushed === undefined ? [] : [flushed]), ...more] });
  }
  return problems;
}

function oversizeNone(run: HostRun): ReturnType<typeof skip> {
  if (run.processes.some((p) => oversizeRun(p) !== undefined)) {
    return skip("every CLI that wrote a run past 4 MiB was killed without a signal within the bound, so the record does not show when it went (host/shutdown/sigterm-first judges the kill)");
  }
  const given = run.processes.some((p) => p.launch.faults.some((f) => f.startsWith("huge-line")));
  return notApplicable(
    given
      ? "the mock had --fault huge-line but never wrote its run past 4 MiB: let the host's conversation reach the fault's turn (huge-line:turn=1 is the first) with bytes above 4194304"
      : "no CLI of the record wrote an unbroken stdout run past 4 MiB: give the mock --fault huge-line:turn=1 (AWP_CONFORMANCE_MOCK_FAULTS) and let the host send two turns",
  );
}

/** The first firing of an output fault the host must skip. */
const badOutput = (process: HostProcess): FaultEvent | undefined => eventsOf(process, "fault").find((f) => BAD_OUTPUT_FAULTS.includes(f.name));

function goesOnProblems(process: HostProcess, run: HostRun): Problem[] | undefined {
  const fault = badOutput(process);
  if (fault === undefined) return undefined;
  if (userLines(process).some((line) => line.at > fault.at)) return [];
  const conversation = conversationsOf(run.processes).find((c) => c.includes(process)) ?? [process];
  for (const other of conversation) {
    const moved = other !== process && other.launch.at > fault.at ? userLines(other)[0] : undefined;
    if (moved !== undefined) {
      return [{ message: `after the mock's ${fault.name} output the host left this CLI and wrote the conversation's next turn to a new process (pid ${other.pid})`, expected: "the next turn in the same process: such output is skipped (or joined), not a failure", events: [fault, other.launch, moved] }];
    }
  }
  return undefined;
}

function goesOnNone(run: HostRun): ReturnType<typeof skip> {
  if (run.processes.some((p) => badOutput(p) !== undefined)) {
    return skip("the record cannot tell: after the mock's odd output no further turn of that conversation was written anywhere; let the host send another message after the first answer");
  }
  return notApplicable(`no CLI of the record wrote output the host must skip: give the mock one of the faults ${BAD_OUTPUT_FAULTS.join(", ")} (AWP_CONFORMANCE_MOCK_FAULTS) and let the host send two turns`);
}

export const reactionOutputChecks: Check<HostRun>[] = [
  perProcess(`${ID}/oversize-stops-cli`, oversizeProblems, oversizeNone),
  perProcess(`${ID}/bad-output-session-goes-on`, goesOnProblems, goesOnNone),
];
