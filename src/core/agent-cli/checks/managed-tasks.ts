import type { Check } from "../../report/judge.js";
import type { AgentRun } from "./helpers.js";
import { apiChecks } from "./managed-tasks-api.js";
import { gateChecks } from "./managed-tasks-gated.js";
import { resultChecks } from "./managed-tasks-results.js";
import { submitChecks } from "./managed-tasks-submit.js";
import { turnEndChecks } from "./managed-tasks-turns.js";

/** The checks of suites/agent-cli/managed-tasks.yaml, one per clause. */
export const managedTaskChecks: readonly Check<AgentRun>[] = [...gateChecks, ...submitChecks, ...resultChecks, ...turnEndChecks, ...apiChecks];
