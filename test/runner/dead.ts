import { readdirSync, readFileSync } from "node:fs";

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

/** Every process still running with `tag` among the arguments of its command line (test fixtures' daemons carry one). */
export function taggedProcesses(tag: string): number[] {
  return readdirSync("/proc").flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      return readFileSync(`/proc/${name}/cmdline`, "latin1").split("\0").includes(tag) && !isDead(Number(name)) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}
