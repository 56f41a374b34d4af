/** The agent-cli side of the protocol fuzzer. */
export { fuzzAgentCli, runAgentSteps, DEFAULT_MAX_COMMANDS } from "./fuzz.js";
export { AgentFuzzViolation, type AgentFuzzContext } from "./session.js";
export { FUZZ_AGENT_CLAUSES, judgeFuzzTranscript, restExit } from "./judge.js";
export { stepArb, describeStep, isEnding } from "./steps.js";
