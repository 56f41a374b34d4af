import { agentCliCaseTests } from "./agent-cli-fakes.js";
import { CONSISTENCY_FAULTS } from "./agent-cli-faults.js";

agentCliCaseTests("agent-cli fake: consistency faults", CONSISTENCY_FAULTS);
