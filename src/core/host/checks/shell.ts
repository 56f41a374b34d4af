import type { Problem } from "../helpers.js";
import type { HostProcess } from "../record.js";

/** Shells and command interpreters by the name the kernel gives them (comm is cut at 15 characters). */
const SHELLS = new Set([
  "sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "pdksh", "oksh", "ash", "hush", "yash", "posh", "fish",
  "csh", "tcsh", "busybox", "toybox", "nu", "elvish", "xonsh", "rc", "es",
  "cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh", "pwsh.exe",
]);

/** Why no-shell clauses skip on a record that does not name parents. */
export const OFF_LINUX = "no launch of the record names its parent process (recorded off Linux): record on Linux to judge it";

const isShell = (name: string | null): boolean => name !== null && SHELLS.has(name.trim().toLowerCase().replace(/^-/, ""));

/**
 * The problem when the process's parent is a shell; undefined when the record does not name
 * the parent (off Linux). A login shell's comm starts with "-" ("-bash").
 */
export function shellParent(process: HostProcess): Problem[] | undefined {
  const { comm, exe, pid } = process.launch.parent;
  if (comm === null && exe === null) return undefined;
  if (!isShell(comm) && !isShell(exe)) return [];
  return [{ message: `the parent process (pid ${pid}) is a shell: ${[...new Set([comm, exe].filter((n) => n !== null))].join(", ")}`, expected: "the host itself as the parent", seen: `comm ${JSON.stringify(comm)}, exe ${JSON.stringify(exe)}` }];
}
