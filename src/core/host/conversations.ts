/**
 * What a record says about conversations and turns, read from the agent-cli mock's events: which
 * processes belong to one conversation (one resumes a session id another was given, or they were
 * given the same one), how long each ran, which stdin lines were user turns and how each ended.
 */
import { eventsOf, lastEvent } from "./helpers.js";
import type { HostProcess, StdinLineEvent } from "./record.js";

/** The value after --resume in what the CLI was given, if any. */
export function resumedId(process: HostProcess): string | undefined {
  const args = process.launch.mockArgs;
  const at = args.indexOf("--resume");
  return at === -1 ? undefined : args[at + 1];
}

/** Every session id a process stands for: the one it resumed and the ones it gave the host. */
export function sessionIds(process: HostProcess): string[] {
  const resumed = resumedId(process);
  return [...(resumed === undefined ? [] : [resumed]), ...eventsOf(process, "session").map((s) => s.id)];
}

/** The processes grouped into conversations (each group in launch order; groups in the order of their first launch). */
export function conversationsOf(processes: readonly HostProcess[]): HostProcess[][] {
  const parent = processes.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const owner = new Map<string, number>();
  processes.forEach((process, i) => {
    for (const id of sessionIds(process)) {
      const other = owner.get(id);
      if (other === undefined) owner.set(id, i);
      else parent[find(i)] = find(other);
    }
  });
  const groups = new Map<number, HostProcess[]>();
  processes.forEach((process, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), process]);
  });
  return [...groups.values()];
}

/** The last moment the record shows the process alive: its exit line, or its last event when it was killed. */
export const endOf = (process: HostProcess): number => lastEvent(process).at;

/** The user turns the host wrote (stdin lines of type user). */
export const userLines = (process: HostProcess): StdinLineEvent[] => eventsOf(process, "stdin-line").filter((line) => line.json?.type === "user");

/**
 * A user turn that failed: it got an error result, or the process ended before any result for
 * it. Only a record that shows the CLI's answers (it gave a session id or a result: a mock that
 * notes them) can tell; otherwise none is called failed.
 */
export function failedTurns(process: HostProcess): StdinLineEvent[] {
  if (eventsOf(process, "session").length === 0 && eventsOf(process, "result").length === 0) return [];
  const results = new Map(eventsOf(process, "result").map((r) => [r.input, r]));
  return userLines(process).filter((line) => results.get(line.index)?.error !== false);
}

/** Whether the record shows the mock's fault `name` given to this process (its launch line's faults). */
export const givenFault = (process: HostProcess, name: string): boolean => process.launch.faults.some((spec) => spec === name || spec.startsWith(`${name}:`));
