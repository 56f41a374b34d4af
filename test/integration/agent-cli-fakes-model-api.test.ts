import { agentCliCaseTests } from "./agent-cli-fakes.js";
import { MODEL_API_FAULTS } from "./agent-cli-faults.js";

agentCliCaseTests("agent-cli fake: a CLI talking Anthropic Messages, and what the real API refuses of it", MODEL_API_FAULTS);
