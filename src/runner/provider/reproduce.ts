import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunReport } from "../../core/report/types.js";
import type { ProviderTranscript } from "../../core/provider/types.js";

/** Quotes one argument for display in a POSIX shell command line. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * Saves the exact request bytes behind every failure under dir/requests/ and gives each
 * finding a one-line command that feeds them to the candidate again. Requests that carry
 * a secret are not written (reports never hold secrets); their findings get no command.
 */
export function attachReproductions(report: RunReport, transcript: ProviderTranscript, dir: string): void {
  const byId = new Map(transcript.exchanges.map((e) => [e.requestId, e]));
  const secrets = transcript.context.secrets;
  const saved = new Map<string, string>();
  for (const clause of report.clauses) {
    for (const finding of clause.findings) {
      const exchange = finding.requestId !== undefined ? byId.get(finding.requestId) : undefined;
      if (exchange === undefined) continue;
      let path = saved.get(exchange.requestId);
      if (path === undefined) {
        const text = Buffer.from(exchange.request).toString("latin1");
        if (secrets.some((secret) => text.includes(Buffer.from(secret, "utf8").toString("latin1")))) continue;
        path = join(dir, "requests", `${String(exchange.seq).padStart(3, "0")}-${exchange.requestId.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`);
        mkdirSync(join(dir, "requests"), { recursive: true });
        writeFileSync(path, exchange.request);
        saved.set(exchange.requestId, path);
      }
      finding.reproduce = `${transcript.argv.map(shellQuote).join(" ")} < ${shellQuote(path)}`;
    }
  }
}
