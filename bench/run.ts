import { applyKitV8Policy } from "../src/cli/v8-policy.js";
import { benchJsonReader, type BenchResult } from "./json-reader.js";
import { benchNeverAnswers } from "./never-answers.js";
import { benchFuzzCampaign } from "./fuzz-campaign.js";
import { benchCFloorOnly, benchProviderFuzz } from "./provider-fuzz.js";
import { benchStartup } from "./startup.js";
import { benchAgentCliTime } from "./agent-cli-time.js";
import { benchAgentCliMemory } from "./agent-cli-memory.js";

/** Every benchmark suite; add new ones here. */
const SUITES: { name: string; run: () => Promise<BenchResult[]>; onlyNamed?: boolean }[] = [
  { name: "json-reader", run: benchJsonReader },
  { name: "provider-fuzz", run: benchProviderFuzz },
  // Part of provider-fuzz, alone: the whole-process fuzz beside the C floor.
  { name: "c-floor", run: benchCFloorOnly, onlyNamed: true },
  { name: "never-answers", run: benchNeverAnswers },
  { name: "fuzz-campaign", run: benchFuzzCampaign },
  { name: "startup", run: benchStartup },
  { name: "agent-cli-time", run: benchAgentCliTime },
  { name: "agent-cli-memory", run: benchAgentCliMemory },
];

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  return rows.map((row) => row.map((cell, col) => (col === 2 ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!))).join("  ")).join("\n");
}

async function main(): Promise<void> {
  // The V8 settings the CLI sets (src/cli/v8-policy.ts), so in-process measurements match a user's run.
  applyKitV8Policy();
  const rows: string[][] = [["suite", "benchmark", "value", "unit", "target"]];
  // `npm run bench -- NAME...` runs only the named suites.
  const only = process.argv.slice(2);
  for (const suite of SUITES.filter((s) => (only.length === 0 && s.onlyNamed !== true) || only.includes(s.name))) {
    for (const result of await suite.run()) {
      rows.push([suite.name, result.name, result.value.toFixed(2), result.unit, result.target ?? ""]);
    }
  }
  console.log(table(rows));
}

await main();
