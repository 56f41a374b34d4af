/** What `awp-conformance fixture` prints when both fixtures listen: placeholders, values, and how to script them. */
import { TASK_PLAN_KINDS, MANAGED_TOOL, TASK_PROGRAM, taskArgv } from "../core/agent-cli/managed-tasks.js";
import { renderDirective } from "../servers/directive.js";

export interface BannerInput {
  openaiBase: string;
  anthropicBase: string;
  controlPlane: string;
  controlPlaneToken: string;
}

/** The banner: one placeholder per line, then how a manual user scripts a reply and a task. */
export function fixtureBanner(input: BannerInput): string {
  const example = renderDirective({ task: { argv: taskArgv({ kind: "pending" }), timeout_seconds: 10 }, taskRounds: "A" });
  return [
    "awp-conformance fixture listening (127.0.0.1 only)",
    `  {{fixture.openai}}              ${input.openaiBase}`,
    `  {{fixture.anthropic}}           ${input.anthropicBase}`,
    `  {{fixture.controlplane}}        ${input.controlPlane}`,
    `  {{fixture.controlplane_token}}  ${input.controlPlaneToken}`,
    "Script replies with [[awp-fixture reply=Hello%20there]] in the user text.",
    `Managed tasks: the control plane runs nothing; a task's argv picks its answer, e.g. ["${TASK_PROGRAM}", "plan=pending"].`,
    `  plans: ${TASK_PLAN_KINDS.join(", ")}; keys: exit=N stdout=TEXT stderr=TEXT polls=N delay=MS bytes=N`,
    `  requests need "Authorization: Bearer <the token above>": POST /v1/tasks, GET /v1/tasks/<id>`,
    `Make the model call ${MANAGED_TOOL} (when the CLI offers it) with task=<JSON of {argv, timeout_seconds}> rounds=A, e.g.:`,
    `  ${example}`,
    "Ctrl-C stops it.",
    "",
  ].join("\n");
}
