#!/usr/bin/env node
// awp-conformance-mock-agent-cli [--fault NAME[:k=v,...]]... [--seed N] [--record FILE] [--] [host args...]:
// the bundled reference agent CLI with the named faults, for testing a host (docs/mocks.md).
import { runAgentCli } from "./agent-cli/main.js";
import { AGENT_CLI_CATALOGUE } from "./catalogue/agent-cli.js";
import { mockBin } from "./run.js";

mockBin({ protocol: "agent-cli", catalogue: AGENT_CLI_CATALOGUE, run: runAgentCli });
