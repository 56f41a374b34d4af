import type { Check } from "../../report/judge.js";
import { eventsOf, lastEvent, noLaunch, notApplicable, perProcess, quote, shown, skip, type Problem, type Unjudged } from "../helpers.js";
import type { HostProcess, RequestEvent } from "../record.js";
import type { HostRun } from "../types.js";
import { envEntryProblems } from "./launch.js";
import { budgetOf, configuredOf } from "./provider-calls.js";
import { OFF_LINUX, shellParent } from "./shell.js";

const ID = "host/provider";

const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((arg, i) => b[i] === arg);

function argvProblems(process: HostProcess, run: HostRun): Problem[] | undefined {
  const providers = run.expect.providers;
  if (providers !== undefined) {
    if (configuredOf(process, run) !== undefined) return [];
    return [{ message: "the arguments are those of no provider of the configuration (--expect-providers-json)", expected: Object.entries(providers).map(([name, p]) => `${name}: ${shown(p.args)}`).join("; "), seen: shown(process.launch.mockArgs) }];
  }
  const expected = run.expect.args;
  if (expected !== undefined) return same(process.launch.mockArgs, expected) ? [] : [{ message: "the arguments differ from the configured argv (--expect-args-json)", expected: shown(expected), seen: shown(process.launch.mockArgs) }];
  const first = run.processes[0];
  if (first === undefined || run.processes.length < 2) return undefined;
  const lists = new Set(run.processes.map((p) => JSON.stringify(p.launch.argv))).size;
  if (lists === 1) return [];
  // The method as an argument that not every call has: the request was to travel on stdin.
  const method = eventsOf(process, "request")[0]?.method;
  if (method != null && process.launch.mockArgs.includes(method) && !run.processes.every((p) => p.launch.mockArgs.includes(method))) {
    return [{ message: `the call got its method (${method}) as an argument, which the record's first call (pid ${first.pid}) did not`, expected: shown(first.launch.argv), seen: shown(process.launch.argv) }];
  }
  // Several argument lists: other providers of the host, or changed calls; without the configuration the kit cannot tell which.
  return undefined;
}

/** Why literal-argv judged nothing. */
function argvNone(run: HostRun): Unjudged {
  if (run.processes.length === 0) return noLaunch(run);
  if (run.processes.length === 1) return notApplicable("the record holds one call: give --expect-args-json '[...]' (the configured argv after the executable) or record several calls");
  const lists = new Set(run.processes.map((p) => JSON.stringify(p.launch.argv))).size;
  return skip(`the record's calls ran ${lists} different argument lists: several providers, or a changed call, the kit cannot tell without the configuration: give --expect-providers-json (each provider's arguments) or --expect-args-json (one provider)`);
}

function requestProblems(process: HostProcess): Problem[] | undefined {
  const requests = eventsOf(process, "request");
  if (requests.length === 0) return undefined;
  return requests.flatMap((request): Problem[] => {
    const problem = request.capped === true ? `more than the mock reads (${request.bytes} bytes when it stopped)` : request.documents !== 1 ? `${request.documents} JSON documents` : !request.json ? "something that is not a JSON object" : undefined;
    return problem === undefined ? [] : [{ message: `the process got ${problem} on stdin`, expected: "exactly one JSON request", events: [request] }];
  });
}

function stdinProblems(process: HostProcess): Problem[] | undefined {
  const ended = eventsOf(process, "stdin-end").length > 0 || eventsOf(process, "request").some((r) => r.capped !== true);
  if (ended) return [];
  // The mock stopped reading at its cap: whether the host would have closed stdin is unknown.
  if (eventsOf(process, "request").length > 0) return undefined;
  // Ended before it read a byte (killed at once, or a slow start on a loaded machine): no evidence either way.
  const data = eventsOf(process, "stdin-data")[0];
  if (data === undefined) return undefined;
  const last = lastEvent(process);
  return [{ message: `the host never closed stdin: the process had the first ${data.bytes} bytes of its input and was still waiting for the end of it when it ended, ${Math.round(last.at - data.at)} ms later`, expected: "stdin closed after the one request", seen: `last line: ${last.event}`, events: [data, last] }];
}

function budgeted(process: HostProcess): { request: RequestEvent; budget: number } | undefined {
  for (const request of eventsOf(process, "request")) {
    const budget = budgetOf(request);
    if (budget !== undefined) return { request, budget };
  }
  return undefined;
}

function deadlineProblems(process: HostProcess, run: HostRun): Problem[] | undefined {
  const call = budgeted(process);
  if (call === undefined) return undefined;
  const bound = call.budget + run.bounds.slackMs;
  const last = lastEvent(process);
  const after = Math.round(last.at - process.launch.at);
  // The end is known from an exit line, or from the last heartbeat (alive) of a process a fault held or that ignored a signal.
  const known = last.event === "exit" || last.event === "alive";
  if (after <= bound) return known ? [] : undefined;
  const seen = last.event === "exit" ? `exited ${after} ms after its start (reason ${last.reason})` : `still running ${after} ms after its start`;
  return [{ message: `the invocation ran past its budget_ms of ${call.budget} ms plus the slack of ${run.bounds.slackMs} ms`, expected: `gone within ${bound} ms of its start`, seen, events: [call.request, last] }];
}

function deadlineNone(run: HostRun): Unjudged {
  if (run.processes.some((p) => budgeted(p) !== undefined)) {
    return skip("the record does not show when the calls with a budget ended (killed with SIGKILL before the mock wrote a heartbeat): give the mock --fault slow-invoke:ms=N with N well above budget_ms, so it reports every 100 ms while it runs on");
  }
  return notApplicable("the record holds no invoke with budget_ms: let the host invoke the mock (--fault slow-invoke:ms=N, N above the budget, shows whether it enforces the deadline)");
}

/** The configured working directory of a process: its provider's, else --expect-cwd. */
const cwdOf = (process: HostProcess, run: HostRun): string | undefined => configuredOf(process, run)?.[1].cwd ?? run.expect.cwd;
/** The configured environment entries of a process: its provider's, else --expect-env-json. */
const envOf = (process: HostProcess, run: HostRun): Record<string, string> | undefined => configuredOf(process, run)?.[1].env ?? run.expect.env;

function cwdProblems(process: HostProcess, run: HostRun): Problem[] | undefined {
  const expected = cwdOf(process, run);
  if (expected === undefined) return undefined;
  return process.launch.cwd === expected ? [] : [{ message: "the process runs in another working directory than configured", expected: quote(expected), seen: quote(process.launch.cwd) }];
}

function envProblems(process: HostProcess, run: HostRun): Problem[] | undefined {
  const expected = envOf(process, run);
  return expected === undefined ? undefined : envEntryProblems(process.launch, Object.entries(expected));
}

const NOT_CONFIGURED = (what: string, flag: string, key: string): ((run: HostRun) => Unjudged) => (run) =>
  run.processes.length === 0 ? noLaunch(run) : notApplicable(`the contract names no provider ${what}: give the host's configured ${what} with ${flag} (or "${key}" per provider in --expect-providers-json) to judge it`);

export const hostProviderChecks: Check<HostRun>[] = [
  perProcess(`${ID}/no-shell`, shellParent, (run) => (run.processes.length === 0 ? noLaunch(run) : skip(OFF_LINUX))),
  perProcess(`${ID}/literal-argv`, argvProblems, argvNone),
  perProcess(`${ID}/one-request-per-process`, requestProblems, (run) => (run.processes.length === 0 ? noLaunch(run) : skip("no process of the record reached the end of its stdin (see host/provider/stdin-closed)"))),
  perProcess(`${ID}/stdin-closed`, stdinProblems, (run) => (run.processes.length === 0 ? noLaunch(run) : skip("every provider process of the record ended before it read a byte of its stdin (killed at once?): let the host's calls run long enough to read the request"))),
  perProcess(`${ID}/deadline-enforced`, deadlineProblems, deadlineNone),
  perProcess(`${ID}/configured-cwd`, cwdProblems, NOT_CONFIGURED("working directory", "--expect-cwd DIR", "cwd")),
  perProcess(`${ID}/configured-env`, envProblems, NOT_CONFIGURED("environment", "--expect-env-json", "env")),
];
