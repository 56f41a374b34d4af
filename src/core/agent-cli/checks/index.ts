import type { Check } from "../../report/judge.js";
import { consistencyChecks } from "./consistency.js";
import { failureChecks } from "./failures.js";
import { fidelityChecks } from "./fidelity.js";
import type { AgentRun } from "./helpers.js";
import { inputChecks } from "./input.js";
import { launchChecks } from "./launch.js";
import { managedTaskChecks } from "./managed-tasks.js";
import { outputChecks } from "./output.js";
import { resumeChecks } from "./resume.js";
import { sessionChecks } from "./session.js";
import { terminationChecks } from "./termination.js";
import { turnChecks } from "./turns.js";

/** Every agent-cli check; each judges one clause of suites/agent-cli/. */
export const agentCliChecks: readonly Check<AgentRun>[] = [
  ...launchChecks,
  ...outputChecks,
  ...sessionChecks,
  ...turnChecks,
  ...inputChecks,
  ...resumeChecks,
  ...fidelityChecks,
  ...consistencyChecks,
  ...failureChecks,
  ...terminationChecks,
  ...managedTaskChecks,
];
