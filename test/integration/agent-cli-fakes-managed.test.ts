import { agentCliCaseTests } from "./agent-cli-fakes.js";
import { MANAGED_TASK_FAULTS } from "./agent-cli-faults.js";

// These runs mostly wait on the reference's control-plane polls and the pending task, not on the CPU: more at once.
agentCliCaseTests("agent-cli fake: managed-task bridge faults", MANAGED_TASK_FAULTS, 5);
