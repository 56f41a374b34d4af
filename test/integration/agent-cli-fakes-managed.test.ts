import { agentCliCaseTests } from "./agent-cli-fakes.js";
import { MANAGED_TASK_FAULTS } from "./agent-cli-faults.js";

agentCliCaseTests("agent-cli fake: managed-task bridge faults", MANAGED_TASK_FAULTS);
