import { agentCliCaseTests } from "./agent-cli-fakes.js";
import { OUTPUT_SESSION_TURN_FAULTS } from "./agent-cli-faults.js";

agentCliCaseTests("agent-cli fake: output, session and turn faults", OUTPUT_SESSION_TURN_FAULTS);
