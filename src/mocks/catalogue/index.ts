/** The whole mock fault catalogue: one table, in listing order (agent-cli, then provider). */
import { AGENT_CLI_CATALOGUE } from "./agent-cli.js";
import { PROVIDER_CATALOGUE } from "./provider.js";
import type { FaultInfo } from "./types.js";

export { AGENT_CLI_CATALOGUE, PROVIDER_CATALOGUE };
export const CATALOGUE: readonly FaultInfo[] = [...AGENT_CLI_CATALOGUE, ...PROVIDER_CATALOGUE];
