#!/usr/bin/env node
// Re-records golden/agent-cli/*.jsonl from the reference agent CLI with the built kit, and
// writes them with neutral paths, so the files read the same on every machine:
//
//   npm run build && node scripts/record-golden.mjs [scenario ...]     (default: every file)
//
// The kit's checks never depend on these paths (the launch clauses need a live run and are
// skipped offline); only the text changes: the repository becomes /home/user/awp-conformance
// and each scenario's temporary folder /home/user/awp-agent-<scenario>.
import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "src", "cli", "main.js");
const reference = join(root, "examples", "reference-agent-cli", "agent-cli.mjs");
const NEUTRAL_ROOT = "/home/user/awp-conformance";
const ENV = ["AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "AWP_REFERENCE_API_KEY={{fixture.token}}", "AWP_REFERENCE_TIMEOUT_MS=2000"];

/** file name → [scenario, mode] */
const GOLDEN = {
  basic: ["basic", "awp-jsonl"],
  content: ["content", "awp-jsonl"],
  "failures-error": ["failures-error", "awp-jsonl"],
  "failures-stall": ["failures-stall", "awp-jsonl"],
  malformed: ["malformed", "awp-jsonl"],
  "queued-stream-json": ["queued", "stream-json"],
  resume: ["resume", "awp-jsonl"],
  tools: ["tools", "awp-jsonl"],
};

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The transcript text with the machine's paths replaced by neutral ones. */
function neutral(text, scenario) {
  const temps = [...new Set([tmpdir(), realpathSync(tmpdir())])].map(escapeRegExp).join("|");
  const temp = new RegExp(`(?:${temps})/awp-agent-${escapeRegExp(scenario)}-[A-Za-z0-9]{6}`, "g");
  return text.split(root).join(NEUTRAL_ROOT).replace(temp, `/home/user/awp-agent-${scenario}`);
}

const names = process.argv.slice(2);
const unknown = names.filter((n) => !(n in GOLDEN));
if (unknown.length > 0) {
  console.error(`record-golden: unknown golden file ${unknown[0]} (known: ${Object.keys(GOLDEN).join(", ")})`);
  process.exit(2);
}
for (const name of names.length > 0 ? names : Object.keys(GOLDEN)) {
  const [scenario, mode] = GOLDEN[name];
  const out = join(root, "golden", "agent-cli", `${name}.jsonl`);
  const description = `reference-agent-cli${mode === "stream-json" ? " in stream-json mode" : ""}, scenario ${scenario}`;
  const args = [cli, "record", "--scenario", scenario, "--mode", mode, ...ENV.flatMap((e) => ["--env", e]), "--out", out, "--description", description, reference];
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) {
    console.error(`record-golden: ${name}: exit ${result.status}\n${result.stderr}`);
    process.exit(1);
  }
  writeFileSync(out, neutral(readFileSync(out, "utf8"), scenario));
  process.stdout.write(`record-golden: ${name}.jsonl (${scenario}, ${mode})\n`);
}
