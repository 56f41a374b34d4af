/**
 * The provider suite measured in a process of its own, as a user's `run` runs it (the kit's V8
 * settings, provider calls through the launchers), as the floor runs in a process of its own and
 * as fuzz-process.ts measures `fuzz`. Measured in the bench's own process instead, the suite ran
 * after the bench's fuzz and floor runs had left its launchers idle for seconds and its heap
 * holding the bench's cases: 96 calls/s there, 111-129 in a process of its own right after, on
 * the same machine the same hour.
 *
 * Runs the suite twice in a row and prints both rates as JSON: the first run of a fresh process
 * (cold: its launchers started before the kit's modules loaded, as the CLI starts them; the kit's
 * code compiles as it goes; the process's own start-up and imports are not counted) and the
 * second (warm). With `serial`, then sends the second run's requests one at a
 * time through the launcher with nothing done between calls (the launcher's own rate).
 * Usage: node suite-process.js '{"argv":[...],"jobs":2,"config":{...},"serial":true}'
 */
import { applyKitV8Policy } from "../src/cli/v8-policy.js";
import { closeLauncher, currentLauncher, startLaunchers } from "../src/runner/launcher/client.js";
import type { JsonObject } from "../src/core/provider/types.js";

interface Job {
  argv: string[];
  jobs: number;
  config: { value: JsonObject; document: string };
  serial: boolean;
}

export interface SuiteRates {
  cold: number;
  warm: number;
  /** Calls per second of the requests one at a time through the launcher (with `serial`). */
  serial?: number;
}

async function main(job: Job): Promise<SuiteRates> {
  applyKitV8Policy();
  // As the CLI's entry does (cli/early-launchers.ts): the launchers boot while the kit loads.
  startLaunchers(job.jobs);
  const { runProviderSuite } = await import("../src/runner/provider/suite.js");
  try {
    const rates: number[] = [];
    let requests: Uint8Array[] = [];
    for (let n = 0; n < 2; n++) {
      const started = performance.now();
      const { transcript } = await runProviderSuite({ argv: job.argv, config: job.config, jobs: job.jobs });
      rates.push(transcript.exchanges.length / ((performance.now() - started) / 1000));
      requests = transcript.exchanges.map((e) => e.request);
    }
    const [cold = 0, warm = 0] = rates;
    if (!job.serial) return { cold, warm };
    const launcher = currentLauncher();
    if (launcher === undefined) throw new Error("the launchers are not built (npm run build)");
    const started = performance.now();
    for (const request of requests) await launcher.call(job.argv, request, { timeoutMs: 6000 });
    return { cold, warm, serial: requests.length / ((performance.now() - started) / 1000) };
  } finally {
    closeLauncher();
  }
}

process.stdout.write(`${JSON.stringify(await main(JSON.parse(process.argv[2] ?? "{}") as Job))}\n`);
