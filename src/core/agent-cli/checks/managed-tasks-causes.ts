/**
 * Why a managed-tasks clause cannot be judged, decided the same way for every clause so each
 * cause shows as one reason: the bridge is not configured (not applicable: it is optional),
 * the scenario was not run or recorded, the CLI refused to start with the bridge on, never
 * reached the kit's model, or never offered its model awp_run_managed_task.
 */
import { modelCalls } from "../analysis.js";
import { decisiveStderrLine, exitedAtStart, modelCause } from "../causes.js";
import { describePlace, MANAGED_TOOL } from "../managed-tasks.js";
import type { ModelCall } from "../types.js";
import { notApplicable, processesOf, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { MANAGED_SCENARIO } from "./managed-tasks-own.js";
import { managedTranscripts } from "./managed-tasks-view.js";
import { offeredTools } from "./turns.js";

/** The launch flags that turn the bridge on with the contract's variable names. */
export const BRIDGE_FLAGS = "--env AWP_AGENT_MANAGED_TASKS_OPT_IN=1 --env AWP_CONTROL_PLANE_URL={{fixture.controlplane}} --env AWP_CONTROL_PLANE_API_KEY={{fixture.controlplane_token}}";
const OWN_NAMES = "(or the CLI's own variable names, with --managed-tasks-opt-in NAME for an opt-in named differently)";

export const NOT_CONFIGURED_REASON = `the launch configuration does not turn the managed-task bridge on ({{fixture.controlplane}} is not used), and the bridge is optional: to judge it, add ${BRIDGE_FLAGS} ${OWN_NAMES}`;

export function notRecordedReason(scenario: string): string {
  return `the recorded transcripts hold no ${scenario} scenario, and the managed-task bridge is optional: record it live (awp-conformance record --scenario ${scenario} with ${BRIDGE_FLAGS}) to judge this clause`;
}

/** The bridge is off (not applicable), or the scenario's transcript is missing. */
export function bridgeCause(run: AgentRun, scenario: string): Unjudged | undefined {
  if (!run.offline && run.managed?.setup === undefined) return notApplicable(NOT_CONFIGURED_REASON);
  if (managedTranscripts(run, scenario).length > 0) return undefined;
  return run.offline ? notApplicable(notRecordedReason(scenario)) : skip(`the ${scenario} scenario was not run: run it (--scenario ${scenario}) to judge this clause`);
}

export const offersTool = (call: ModelCall): boolean => (call.toolsOffered ?? offeredTools(call)).includes(MANAGED_TOOL);

/** Why the CLI never offered the tool, naming where the configuration put each bridge setting. */
export function notOfferedReason(run: AgentRun, calls: readonly ModelCall[]): string {
  const setup = run.managed?.setup;
  const where =
    setup === undefined ? ""
    : ` (URL in ${describePlace(setup.url)}, ${setup.key !== undefined ? `key in ${describePlace(setup.key)}` : "no key: {{fixture.controlplane_token}} is not used"}, ${setup.optIn !== undefined ? `opt-in ${describePlace(setup.optIn)}` : "no opt-in variable: none is named *_MANAGED_TASKS_OPT_IN"})`;
  const offered = [...new Set(calls.flatMap((c) => c.toolsOffered ?? offeredTools(c)))];
  const tools = offered.length === 0 ? "it offered no tools" : `it offered ${offered.slice(0, 8).join(", ")}${offered.length > 8 ? ", ..." : ""}`;
  return `the CLI was launched with the managed-task bridge configured${where} but never offered ${MANAGED_TOOL} to its model (${tools}): check that these are the variables the CLI reads, e.g. ${BRIDGE_FLAGS} ${OWN_NAMES}`;
}

/**
 * Why the clauses that need a call of the tool cannot be judged, or undefined when the
 * CLI offered the tool in the managed-tasks scenario.
 */
export function callCause(run: AgentRun): Unjudged | undefined {
  const bridge = bridgeCause(run, MANAGED_SCENARIO);
  if (bridge !== undefined) return bridge;
  const transcripts = managedTranscripts(run);
  const views = transcripts.flatMap((transcript) => processesOf(transcript).map((view) => ({ transcript, view })));
  const first = views[0];
  if (first !== undefined && views.every(({ view }) => exitedAtStart(view))) {
    const line = decisiveStderrLine(first.transcript, first.view.process);
    return skip(`with the managed-task bridge configured, the CLI exited at start in the ${MANAGED_SCENARIO} scenario (see agent-cli/session/stays-up)${line !== undefined ? `; stderr says: ${line}` : ""}: check the bridge settings the CLI reads (the URL is an origin such as http://127.0.0.1:PORT, the key has the form awp-cp-<48 hex digits>)`);
  }
  const model = modelCause(run.transcripts);
  if (model !== undefined) return skip(model);
  const calls = transcripts.flatMap((t) => modelCalls(t).map(({ call }) => call));
  if (calls.length === 0) return skip(`the CLI made no model request in the ${MANAGED_SCENARIO} scenario, so its model never had ${MANAGED_TOOL} to call: see agent-cli/turns for how those turns ended`);
  if (!calls.some(offersTool)) return skip(notOfferedReason(run, calls));
  return undefined;
}
