import type { Check } from "../../report/judge.js";
import { eventsOf, lastEvent, notApplicable, perProcess, type Problem } from "../helpers.js";
import type { HostProcess } from "../record.js";
import type { HostRun } from "../types.js";

const ID = "host/shutdown";

function sigtermFirstProblems(process: HostProcess): Problem[] | undefined {
  const first = eventsOf(process, "signal")[0];
  if (first !== undefined) return first.name === "SIGTERM" ? [] : [{ message: `the first signal was ${first.name}, not SIGTERM`, expected: "SIGTERM first", seen: first.name, events: [first] }];
  // Without a signal: an exit line means the CLI left on its own; none means it was killed outright.
  if (eventsOf(process, "exit").length > 0) return undefined;
  const last = lastEvent(process);
  return [{ message: "the process was killed without a SIGTERM first: its record ends with neither a signal nor an exit line", expected: "SIGTERM, then SIGKILL only after the grace", seen: `last line: ${last.event}`, events: [last] }];
}

function graceProblems(process: HostProcess, run: HostRun): Problem[] | undefined {
  const sigterm = eventsOf(process, "signal").find((s) => s.name === "SIGTERM");
  if (sigterm === undefined || sigterm.action !== "ignored") return undefined;
  const { shutdownGraceMs, slackMs } = run.bounds;
  const end = lastEvent(process);
  const after = Math.round(end.at - sigterm.at);
  if (end.event === "exit" && end.reason === "not-killed") {
    return [{ message: "the host never killed the process that ignored SIGTERM (the mock gave up and left by itself)", expected: `gone within ${shutdownGraceMs} ms + ${slackMs} ms of SIGTERM`, seen: `still running ${after} ms after SIGTERM`, events: [sigterm, end] }];
  }
  if (after <= shutdownGraceMs + slackMs) return [];
  const seen = end.event === "exit" ? `exited ${after} ms after SIGTERM (reason ${end.reason})` : `still running ${after} ms after SIGTERM, then killed`;
  return [{ message: `the process that ignored SIGTERM was still running past the grace of ${shutdownGraceMs} ms plus the slack of ${slackMs} ms`, expected: `gone within ${shutdownGraceMs + slackMs} ms of SIGTERM`, seen, events: [sigterm, end] }];
}

/** The host wrote {"type":"shutdown"} to this CLI (the Desktop does on Windows, before SIGTERM). */
const gotShutdownLine = (process: HostProcess): boolean => eventsOf(process, "stdin-line").some((line) => line.json?.type === "shutdown");

export const shutdownChecks: Check<HostRun>[] = [
  perProcess(`${ID}/sigterm-first`, sigtermFirstProblems, (run) =>
    notApplicable(
      run.processes.some(gotShutdownLine)
        ? 'every CLI of the record left by itself before any signal, one on the {"type":"shutdown"} line (the Windows path): add --fault ignore-shutdown (with ignore-sigterm) so the host has to signal it'
        : "the record shows no shutdown: close the conversation in the host while the mock runs (with --fault ignore-sigterm to judge the grace too)",
    ),
  ),
  perProcess(`${ID}/kill-after-grace`, graceProblems, () => notApplicable("no process of the record ignored SIGTERM: launch the mock with --fault ignore-sigterm (AWP_CONFORMANCE_MOCK_FAULTS=ignore-sigterm) and shut the conversation down")),
];
