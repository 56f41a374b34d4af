/**
 * The bridge's gate and its secret: with one setting missing the CLI neither offers the tool
 * nor calls the control plane, and the control-plane key never shows where it should not.
 */
import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import type { ProcessView } from "../analysis.js";
import { modelCause } from "../causes.js";
import { MANAGED_TOOL } from "../managed-tasks.js";
import type { ModelEvent, Transcript, TranscriptEvent } from "../types.js";
import { allProcesses, finding, judgeEach, judgeSome, notApplicable, processesOf, skip, type AgentRun } from "./helpers.js";
import { bridgeCause, NOT_CONFIGURED_REASON, notRecordedReason, offersTool } from "./managed-tasks-causes.js";
import { GATED_SCENARIO, MANAGED_SCENARIO } from "./managed-tasks-own.js";
import { managedTranscripts } from "./managed-tasks-view.js";

const ID = "agent-cli/managed-tasks";
const GATED = `${ID}/gated`;
const KEY = `${ID}/key-not-leaked`;

/** The form of the kit's control-plane key: what a recorded transcript is searched for. */
export const KEY_FORM = /awp-cp-[0-9a-f]{48}/;
const LAUNCH_NOTE = /^managed-gated: launch without (opt-in|url|key)\b/;
const NOT_LAUNCHED_NOTE = /^managed-gated: not launched without /;
const PART_WORDS: Readonly<Record<string, string>> = { "opt-in": "the opt-in", url: "the control-plane URL", key: "the control-plane key" };

interface Launch {
  transcript: Transcript;
  view: ProcessView;
  /** The bridge setting the kit left out of this launch. */
  part: string | undefined;
}

/** The launches of the managed-gated scenario, each with the setting its note says was left out. */
function gatedLaunches(transcript: Transcript): Launch[] {
  let part: string | undefined;
  const parts = new Map<number, string>();
  for (const event of transcript.events) {
    const note = event.kind === "note" ? LAUNCH_NOTE.exec(event.text) : null;
    if (note !== null) part = note[1];
    else if (event.kind === "launch" && part !== undefined) {
      parts.set(event.process, part);
      part = undefined;
    }
  }
  return processesOf(transcript)
    .filter((view) => view.events.some(({ event }) => event.kind === "launch"))
    .map((view) => ({ transcript, view, part: parts.get(view.process) }));
}

function judgeLaunch({ transcript, view, part }: Launch): Finding[] | undefined {
  const without = `launched without ${PART_WORDS[part ?? ""] ?? "one bridge setting"}`;
  const requests = view.events.filter(({ event }) => event.kind === "controlplane");
  const calls = view.events.filter((e): e is { event: ModelEvent; at: number } => e.event.kind === "model");
  const offered = calls.filter(({ event }) => offersTool(event.call));
  const found: Finding[] = [];
  if (requests.length > 0) found.push(finding(GATED, { transcript, events: requests.slice(0, 3) }, `${without}, the CLI still sent the control plane ${requests.length} request(s)`, { expected: "nothing sent to the control plane" }));
  if (offered.length > 0) found.push(finding(GATED, { transcript, events: offered.slice(0, 3) }, `${without}, the CLI still offered ${MANAGED_TOOL} to its model`, { expected: `no ${MANAGED_TOOL} among the tools offered` }));
  if (found.length > 0) return found;
  // Judged when the CLI showed what it offers (a model request) or refused the launch itself.
  const refused = view.exit !== undefined && !view.exit.killedByKit;
  return calls.length > 0 || refused ? [] : undefined;
}

function judgeGated(run: AgentRun): ReturnType<Check<AgentRun>["judge"]> {
  const cause = bridgeCause(run, GATED_SCENARIO);
  if (cause !== undefined) return cause;
  const transcripts = managedTranscripts(run, GATED_SCENARIO);
  const launches = transcripts.flatMap(gatedLaunches);
  if (launches.length === 0) {
    const notes = transcripts.flatMap((t) => t.events.flatMap((e) => (e.kind === "note" && NOT_LAUNCHED_NOTE.test(e.text) ? [e.text.replace(/^managed-gated: /, "")] : [])));
    if (notes.length > 0) return notApplicable(`the kit could leave no bridge setting out on its own (${notes.join("; ")}): name each setting separately in the launch configuration, e.g. as its own --env entry`);
    return skip(`the ${GATED_SCENARIO} scenario launched nothing`);
  }
  return judgeSome(launches, judgeLaunch, skip(modelCause(run.transcripts) ?? `no launch of the ${GATED_SCENARIO} scenario made a model request or refused to start, so what the CLI offers its model without the bridge could not be seen: see agent-cli/turns for how those turns ended`));
}

const NO_KEY_REASON =
  "the launch configuration hands the CLI no control-plane key ({{fixture.controlplane_token}} is not used), so there is no key to watch for: pass it as --env AWP_CONTROL_PLANE_API_KEY={{fixture.controlplane_token}} (or the CLI's own variable name)";

function judgeKey(run: AgentRun): ReturnType<Check<AgentRun>["judge"]> {
  if (!run.offline && run.managed?.setup === undefined) return notApplicable(NOT_CONFIGURED_REASON);
  if (run.offline && managedTranscripts(run).length + managedTranscripts(run, GATED_SCENARIO).length === 0) return notApplicable(notRecordedReason(MANAGED_SCENARIO));
  const token = run.managed?.token;
  if (!run.offline && token === undefined) return notApplicable(NO_KEY_REASON);
  // A recorded transcript does not carry the key: search it for any key of the kit's form.
  const leaks = (text: string): boolean => (token !== undefined ? text.includes(token) : KEY_FORM.test(text));
  return judgeEach(
    allProcesses(run).filter(({ transcript }) => transcript.stdoutOnly !== true),
    ({ transcript, item }) => {
      const stdout = item.events.filter(({ event }) => event.kind === "stdout" && leaks(event.line));
      const chunks = item.events.filter(({ event }) => event.kind === "stderr");
      const stderr = leaks(chunks.map(({ event }) => (event.kind === "stderr" ? event.text : "")).join(""));
      const stderrAt = stderr ? chunks.filter(({ event }) => event.kind === "stderr" && leaks(event.text)) : [];
      const models = item.events.filter(({ event }) => event.kind === "model" && event.call.body !== undefined && leaks(JSON.stringify(event.call.body)));
      const places = [stdout.length > 0 ? `on stdout (${stdout.length} line(s))` : "", stderr ? "on stderr" : "", models.length > 0 ? `in ${models.length} model request(s)` : ""].filter((p) => p !== "");
      if (places.length === 0) return [];
      const events: { event: TranscriptEvent; at: number }[] = [...stdout, ...(stderr && stderrAt.length === 0 ? chunks.slice(-1) : stderrAt), ...models];
      return [finding(KEY, { transcript, events: events.slice(0, 4) }, `the control-plane key appeared ${places.join(", ")}${token === undefined ? " (a value of the kit's key form awp-cp-<48 hex digits>)" : ""}`, { expected: "the key only in requests to the control plane" })];
    },
    skip("no process ran"),
  );
}

export const gateChecks: Check<AgentRun>[] = [
  { clause: GATED, judge: judgeGated },
  { clause: KEY, judge: judgeKey },
];
