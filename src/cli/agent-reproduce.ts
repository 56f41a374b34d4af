import { SECRET_ENV_NAME } from "../core/agent-cli/launch.js";
import type { RunReport } from "../core/report/types.js";
import { shellQuote } from "../runner/provider/reproduce.js";
import { boundFlags, type BoundArgs, type LaunchArgs } from "./agent-options.js";
import { managedFlags, type ManagedArgs } from "./managed-options.js";

/**
 * Gives each agent-cli finding a command that reruns just its scenario with the same launch
 * configuration. Env values under secret-looking names are shown as $NAME, never spelled out.
 */
export function attachAgentReproductions(report: RunReport, args: LaunchArgs & BoundArgs & ManagedArgs): void {
  const mode = report.mode ?? "awp-jsonl";
  const env = (Array.isArray(args.env) ? args.env.map(String) : args.env !== undefined ? [String(args.env)] : []).map((pair) => {
    const name = pair.slice(0, pair.indexOf("="));
    return SECRET_ENV_NAME.test(name) && !pair.includes("{{") ? `${name}=$${name}` : pair;
  });
  const base = [
    "awp-conformance", "run", "--protocol", "agent-cli", "--mode", mode,
    ...(args.model !== undefined ? ["--model", args.model] : []),
    ...env.flatMap((pair) => ["--env", pair]),
    ...(args.argsJson !== undefined ? ["--args-json", args.argsJson] : []),
    ...(args.fromEnv === true ? ["--from-env"] : []),
    ...boundFlags(args),
    ...managedFlags(args),
  ];
  const tail = args.fromEnv === true || args.candidate === undefined ? [] : [args.candidate, ...(args.rest.length > 0 ? ["--", ...args.rest] : [])];
  for (const clause of report.clauses) {
    for (const finding of clause.findings) {
      const scenario = /^([a-z-]+) \(/.exec(finding.scenario ?? "")?.[1];
      if (scenario === undefined) continue;
      finding.reproduce = [...base, "--scenario", scenario, ...tail].map((part) => (part.startsWith("$") || /=\$[A-Z_]+$/.test(part) ? `"${part}"` : shellQuote(part))).join(" ");
    }
  }
}
