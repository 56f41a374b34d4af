/** The agent-cli side of the protocol fuzzer. */
export { fuzzAgentCli, runAgentSteps, DEFAULT_MAX_COMMANDS } from "./fuzz.js";
export { FUZZ_AGENT_CLAUSES, AgentFuzzViolation, judgeFuzzTranscript, type AgentFuzzContext } from "./session.js";
export { stepArb, describeStep, isEnding } from "./steps.js";
