/**
 * `awp-conformance mock agent-cli|provider [...]` and `awp-conformance mock --list
 * [--protocol P] [--json]`. src/cli/main.ts calls this before yargs or the kit is loaded, so a
 * host configured with `awp-conformance mock ...` starts as fast as the standalone bins.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MockProtocol } from "./catalogue/types.js";

const MOCK_PROTOCOLS: readonly MockProtocol[] = ["agent-cli", "provider"];

const USAGE = `Usage:
  awp-conformance mock agent-cli|provider [--fault NAME[:k=v,...]]... [--seed N] [--record FILE] [--] [host args...]
  awp-conformance mock --list [--protocol agent-cli|provider] [--json]
  awp-conformance mock --path agent-cli|provider

A candidate that behaves like the bundled reference and misbehaves as named, for testing a
host. Faults also come from AWP_CONFORMANCE_MOCK_FAULTS=a,b:k=v; the launch record from
AWP_CONFORMANCE_MOCK_RECORD=FILE. Standalone bins: awp-conformance-mock-agent-cli,
awp-conformance-mock-provider; --path prints the absolute path of one (a regular file, as the
agent-cli launch contract wants). Without AWP_REFERENCE_API_BASE_URL the agent-cli mock answers
turns with the kit's built-in deterministic model. The catalogue and the record format: docs/mocks.md.
`;

const isProtocol = (value: string | undefined): value is MockProtocol => (MOCK_PROTOCOLS as readonly (string | undefined)[]).includes(value);

function usageExit(message: string): never {
  process.stderr.write(`awp-conformance mock: ${message}\n`);
  process.exit(2);
}

async function list(argv: readonly string[]): Promise<void> {
  let protocol: MockProtocol | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const inline = /^--protocol=(.*)$/.exec(arg)?.[1];
    if (arg === "--list") continue;
    if (arg === "--json") json = true;
    else if (arg === "--protocol" || inline !== undefined) {
      const value = inline ?? argv[++i];
      if (!isProtocol(value)) usageExit(`--protocol must be agent-cli or provider, not ${JSON.stringify(value ?? "")}`);
      protocol = value;
    } else usageExit(`unknown option ${JSON.stringify(arg)} for --list (it takes --protocol P and --json)`);
  }
  const [{ CATALOGUE }, { renderListJson, renderListText }] = await Promise.all([import("./catalogue/index.js"), import("./list.js")]);
  // A closed pipe (`| head`) ends the listing, not the process with a stack trace.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));
  const faults = CATALOGUE.filter((f) => protocol === undefined || f.protocol === protocol);
  process.stdout.write(json ? renderListJson(faults) : renderListText(faults));
}

/** The standalone bin of a mock: an absolute path to a regular file (symbolic links resolved). */
export function mockBinPath(protocol: MockProtocol): string {
  return realpathSync(fileURLToPath(new URL(`./${protocol}.js`, import.meta.url)));
}

function printPath(argv: readonly string[]): void {
  const rest = argv.filter((arg) => arg !== "--path");
  const [protocol] = rest;
  if (rest.length !== 1 || !isProtocol(protocol)) usageExit("--path takes one of agent-cli or provider: awp-conformance mock --path agent-cli");
  process.stdout.write(`${mockBinPath(protocol)}\n`);
}

export async function mockCli(argv: readonly string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (isProtocol(first)) {
    const { runMock } = await import("./run.js");
    if (first === "agent-cli") {
      const [{ AGENT_CLI_CATALOGUE }, { runAgentCli }] = await Promise.all([import("./catalogue/agent-cli.js"), import("./agent-cli/main.js")]);
      return runMock({ protocol: first, catalogue: AGENT_CLI_CATALOGUE, run: runAgentCli }, rest);
    }
    const [{ PROVIDER_CATALOGUE }, { runProvider }] = await Promise.all([import("./catalogue/provider.js"), import("./provider/main.js")]);
    return runMock({ protocol: first, catalogue: PROVIDER_CATALOGUE, run: runProvider }, rest);
  }
  if (argv.includes("--list")) return list(argv);
  if (argv.includes("--path")) return printPath(argv);
  if (first === "--help" || first === "-h") {
    process.stdout.write(USAGE);
    return;
  }
  usageExit(first === undefined ? "give agent-cli or provider, or --list" : `unknown mock ${JSON.stringify(first)}: give agent-cli or provider, or --list (awp-conformance mock --help)`);
}
