import { readFileSync } from "node:fs";

/** Dead = no such process, or a zombie waiting for init to reap it (it no longer runs). */
export function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0];
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}
