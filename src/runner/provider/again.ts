import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { wireJson } from "../../core/json/index.js";
import { TIGHT_BUDGET_MS } from "../../core/provider/checks/budget.js";
import { bind, describeRequest, validateConfigRequest } from "../../core/provider/requests.js";
import type { JsonObject, ProviderExchange, ProviderTranscript } from "../../core/provider/types.js";
import { acceptedOk, ProviderSender, type SenderOptions, type Sent } from "./sender.js";

const encoder = new TextEncoder();

/**
 * Sends the accepted describe and the first accepted invocation again under a new request_id,
 * with JSON whitespace around the object: a newline after describe (as `printf '%s\n'` sends
 * it), spaces before and a space and newline after the invocation.
 */
export async function sendWhitespace(sender: ProviderSender, describe: ProviderExchange, invoke: ProviderExchange | undefined, budgetMs: number, jobs = 1): Promise<void> {
  const variants: [ProviderExchange | undefined, string, string, string, string][] = [
    [describe, "describe-ws", "", "\n", "describe followed by a newline"],
    [invoke, "invoke-ws", "  ", " \n", "the first accepted invocation with spaces before it and a space and newline after it"],
  ];
  const items: Sent[] = [];
  for (const [plain, id, before, after, label] of variants) {
    if (plain === undefined || !acceptedOk(plain) || plain.requestValue === undefined) continue;
    const invocation = plain.method === "invoke";
    const dialect = plain.digestDialect ?? sender.dialect;
    const value = invocation ? bind({ ...plain.requestValue, request_id: id }, dialect) : { ...plain.requestValue, request_id: id };
    items.push({
      purpose: "whitespace",
      scenario: label,
      method: plain.method,
      requestId: id,
      bytes: encoder.encode(`${before}${wireJson(value)}${after}`),
      value,
      plainSeq: plain.seq,
      ...(invocation ? { budgetMs, digestDialect: dialect } : {}),
    });
  }
  await sender.batch(items, jobs);
}

/**
 * Sends `plain` (an accepted invocation) again with budget_ms 1, a budget no process can meet,
 * under the run's usual deadline (--timeout), so a late answer is seen rather than killed
 * (provider/transport/tight-budget). The exchange carries no budgetMs: within-budget judges the
 * kit's own budget, which a Provider can meet.
 */
export async function sendTightBudget(sender: ProviderSender, plain: ProviderExchange | undefined): Promise<void> {
  if (plain === undefined || !acceptedOk(plain) || plain.requestValue === undefined) return;
  const label = `the first accepted invocation again with budget_ms ${TIGHT_BUDGET_MS}, a budget no process can meet`;
  await sender.send("tight-budget", label, { ...plain.requestValue, request_id: "invoke-tight-budget", budget_ms: TIGHT_BUDGET_MS }, {}, plain.digestDialect ?? sender.dialect);
}

/** Arguments after the executable that name existing files, made absolute so the fresh directory does not change what they name. */
function absoluteArgs(argv: readonly string[]): string[] {
  return argv.map((arg, index) => (index > 0 && !arg.startsWith("-") && !isAbsolute(arg) && existsSync(arg) ? resolve(arg) : arg));
}

/** Everything under `dir`, as `prefix/relative path`, at most `max` entries. */
function listed(dir: string, prefix: string, max = 100): string[] {
  try {
    return readdirSync(dir, { recursive: true }).slice(0, max).map((entry) => `${prefix}/${String(entry)}`).sort();
  } catch {
    return [`${prefix} (could not be listed)`];
  }
}

/**
 * Runs describe and validate_config (with the valid configuration) again, each in its own fresh
 * empty working directory with a fresh empty HOME (and the XDG base directories inside it), then
 * records what each left there and removes the directories.
 */
export async function sendFreshDir(options: SenderOptions, transcript: ProviderTranscript, describe: ProviderExchange, validate: ProviderExchange | undefined, config: JsonObject): Promise<void> {
  const calls: [ProviderExchange | undefined, JsonObject, string][] = [
    [describe, describeRequest("describe-fresh"), "describe again, in a fresh empty working directory and HOME"],
    [validate, validateConfigRequest("validate-fresh", config), "validate_config again, in a fresh empty working directory and HOME"],
  ];
  for (const [plain, request, label] of calls) {
    if (plain === undefined) continue;
    const root = mkdtempSync(join(tmpdir(), "awp-conformance-fresh-"));
    try {
      const cwd = join(root, "cwd");
      const home = join(root, "home");
      mkdirSync(cwd);
      mkdirSync(home);
      const base = options.env ?? Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
      const env = { ...base, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_CACHE_HOME: join(home, ".cache"), XDG_DATA_HOME: join(home, ".local/share"), XDG_STATE_HOME: join(home, ".local/state") };
      const sender = new ProviderSender({ ...options, argv: absoluteArgs(options.argv), cwd, env }, transcript);
      const exchange = await sender.send("fresh-dir", label, request, { plainSeq: plain.seq });
      exchange.leftFiles = [...listed(cwd, "cwd"), ...listed(home, "home")];
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}
