import { agentCliCaseTests } from "./agent-cli-fakes.js";
import { INPUT_RESUME_LIFECYCLE_FAULTS } from "./agent-cli-faults.js";

agentCliCaseTests("agent-cli fake: input, resume, fidelity, secrets, failure and termination faults", INPUT_RESUME_LIFECYCLE_FAULTS);
