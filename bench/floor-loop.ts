/**
 * The floor of the spawn benchmark, run as its own small process: a plain Node loop that
 * spawns the candidate once per request file of a folder (in name order), `jobs` at a time,
 * writes the bytes to its stdin and reads its output to the end. Prints {calls, seconds, cpuMs,
 * selfMs}: this process's own CPU time in the loop and in all (its children not counted).
 * Usage: node floor-loop.js JOBS DIR ARGV...
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [jobsArg, dir, file, ...args] = process.argv.slice(2);
if (jobsArg === undefined || dir === undefined || file === undefined) throw new Error("usage: floor-loop.js JOBS DIR ARGV...");
const inputs = readdirSync(dir).sort().map((name) => readFileSync(join(dir, name)));

function call(input: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(file as string, args, { stdio: "pipe" });
    child.stdout.resume();
    child.stderr.resume();
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
    child.on("close", () => resolve());
  });
}

let next = 0;
const started = performance.now();
const cpu = process.cpuUsage();
const worker = async (): Promise<void> => {
  while (next < inputs.length) await call(inputs[next++] as Buffer);
};
await Promise.all(Array.from({ length: Number(jobsArg) }, worker));
const used = process.cpuUsage(cpu);
const all = process.cpuUsage();
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ calls: inputs.length, seconds, cpuMs: (used.user + used.system) / 1000, selfMs: (all.user + all.system) / 1000 })}\n`);
