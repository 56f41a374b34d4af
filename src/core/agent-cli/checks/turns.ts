import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { callsIn, directiveOf, hostEndedAt, isRecord, modelCalls, segments, turnTagOf, userTurns, type JsonRecord, type OutLine, type Segment } from "../analysis.js";
import { errorAnswers, modelCause } from "../causes.js";
import { MANAGED_TOOL } from "../managed-tasks.js";
import { DEFAULT_BOUNDS } from "../scenarios.js";
import type { ModelCall, Transcript } from "../types.js";
import { allProcesses, captureOr, finding, judgeEach, notApplicable, processesOf, show, skip, type AgentRun } from "./helpers.js";
import { gatedRefusal, ownsTerminal } from "./managed-tasks-own.js";
import { refusals, refusedViews } from "./refusals.js";
import { codeInResult, codeOf, errorResults, flaggedErrors, hasCode, REFERENCE_CODE, results, unjudgedErrors } from "./turn-results.js";
import { mergedFinding, orderFindings, unansweredFinding } from "./turn-pairing.js";

const ID = "agent-cli/turns";

/**
 * How much earlier than a turn's terminal line the kit may see the next turn's model request
 * without calling it overlap, by default (--order-skew; the kit's choice: its own observation
 * skew under load, not a latitude of the contract; merged and overtaking turns are judged without it).
 */
export const ORDER_SKEW_MS = DEFAULT_BOUNDS.orderSkewMs;

/** The bounds the turns clauses state (test/core/agent-cli/bounds.test.ts holds the texts to them). */
export const TURNS_BOUNDS: Readonly<Record<string, readonly number[]>> = { "agent-cli/turns/terminal-in-order": [ORDER_SKEW_MS] };

type Seg = { transcript: Transcript; segment: Segment };

/**
 * Every judged turn of the run. Turns of a launch the CLI refused are left out (refusals.ts):
 * session/stays-up, or the clause of the flag it refused, judges it once.
 */
export function allSegments(run: Pick<AgentRun, "transcripts">): Seg[] {
  const refused = refusedViews(run);
  return run.transcripts.flatMap((transcript) => {
    const views = processesOf(transcript);
    const left = new Set(views.filter((v) => refused.has(v)).map((v) => v.process));
    return segments(transcript, views).filter((segment) => !left.has(segment.process)).map((segment) => ({ transcript, segment }));
  });
}

/** Why a live user turn has no terminal event: the host ended it, the CLI exited, or it is still waiting. */
export function missingTerminal(transcript: Transcript, segment: Segment): "host" | "exited" | "waiting" | undefined {
  if (segment.terminal !== undefined || segment.input === undefined) return undefined;
  const view = processesOf(transcript).find((v) => v.process === segment.process);
  const ended = view === undefined ? undefined : hostEndedAt(view);
  const exit = view?.exit;
  // The kit waited for a terminal event and gave up first: the stop that follows is its cleanup.
  const at = segment.input.at;
  const gaveUp = view?.events.some(({ event, at: when }) => event.kind === "timeout" && /terminal event/.test(event.waitingFor) && when > at && (ended === undefined || when < ended)) ?? false;
  if (gaveUp) return "waiting";
  if (ended !== undefined && ended > at && (exit === undefined || ended < exit.at)) return "host";
  if (exit !== undefined && exit.at > at && !exit.killedByKit) return "exited";
  return "waiting";
}

const NO_RESULTS = notApplicable("the CLI wrote no result event (a raw stream may end its turns with message_stop)");

function blockProblems(segment: Segment): { line: OutLine; message: string }[] {
  const open = new Set<number>();
  const problems: { line: OutLine; message: string }[] = [];
  for (const line of segment.output) {
    const o = line.object;
    if (o === undefined || typeof o.type !== "string" || !o.type.startsWith("content_block_")) continue;
    const index = o.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0) {
      problems.push({ line, message: `${o.type} has no valid index` });
    } else if (o.type === "content_block_start") {
      if (open.has(index)) problems.push({ line, message: `block ${index} started twice without a stop` });
      open.add(index);
    } else if (!open.has(index)) {
      problems.push({ line, message: `${o.type} for block ${index}, which is not open` });
    } else if (o.type === "content_block_stop") {
      open.delete(index);
    }
  }
  // A turn that failed mid-stream may end with its block open: the contract asks for no stop
  // there, and the error result ends the turn. A successful turn closes what it opened.
  const failed = segment.terminal?.object?.type === "result" && segment.terminal.object.is_error === true;
  if (open.size > 0 && segment.terminal !== undefined && !failed) problems.push({ line: segment.terminal, message: `block ${[...open].join(", ")} never stopped before the terminal event of a successful turn` });
  return problems;
}

function toolUseNames(output: readonly OutLine[]): string[] {
  return output.flatMap((line) => {
    const o = line.object;
    if (o?.type === "assistant" && isRecord(o.message) && Array.isArray(o.message.content)) {
      return o.message.content.filter((b): b is JsonRecord => isRecord(b) && b.type === "tool_use").map((b) => String(b.name));
    }
    if (o?.type === "content_block_start" && isRecord(o.content_block) && o.content_block.type === "tool_use") return [String(o.content_block.name)];
    return [];
  });
}

/** A turn whose directive scripts a model failure (an HTTP error status, a stall). */
function scriptedFailure(segment: Segment): boolean {
  const directive = directiveOf(segment.input?.message);
  return directive !== undefined && (Number(directive.status) >= 400 || directive.stall === "1");
}

/** Tool names a model request offered (OpenAI function tools or Anthropic tools). */
export function offeredTools(call: ModelCall): string[] {
  const body = call.body;
  const tools = isRecord(body) && Array.isArray(body.tools) ? body.tools : [];
  return tools.flatMap((t) => {
    if (!isRecord(t)) return [];
    const name = isRecord(t.function) ? t.function.name : t.name;
    return typeof name === "string" ? [name] : [];
  });
}

/**
 * Why no turn holds a tool call this clause judges: the kit's model called only the
 * managed-task tool (judged by its own clause), called none of the tools offered (the fixture
 * only calls tools the CLI offered, never one that runs commands), or was offered none.
 */
function noToolCallReason(run: AgentRun): string {
  const calls = run.transcripts.flatMap((t) => modelCalls(t).map(({ call }) => call));
  const why = calls.find((c) => c.toolSkipped !== undefined)?.toolSkipped;
  const managed = calls.filter((c) => c.toolCall?.name === MANAGED_TOOL).length;
  if (managed > 0) {
    return `the kit's model called only the managed-task tool ${MANAGED_TOOL} (${managed} call${managed === 1 ? "" : "s"}), which agent-cli/managed-tasks/tool-use-shown judges, and no other tool${why !== undefined ? `: ${why}` : ""}`;
  }
  const offered = [...new Set(calls.flatMap((c) => c.toolsOffered ?? offeredTools(c)))];
  if (offered.length === 0) return "the CLI offered its model no tools, and the kit's model only calls tools the CLI offered";
  return `the kit's model called none of the tools the CLI offered (${offered.slice(0, 8).join(", ")}${offered.length > 8 ? ", ..." : ""})${why !== undefined ? `: ${why}` : ""}`;
}

/** Why no turn streamed content_block events: none came, or they came wrapped in stream_event (Claude Code's --include-partial-messages), which the Desktop ignores. */
export function noBlocksReason(run: AgentRun): string {
  const wrapped = allProcesses(run).reduce((n, { item }) => n + item.lines.filter((l) => l.object?.type === "stream_event" && isRecord(l.object.event) && typeof l.object.event.type === "string" && l.object.event.type.startsWith("content_block_")).length, 0);
  return wrapped === 0 ? "no turn streamed content_block events" : `no turn streamed content_block events at the top level; ${wrapped} came wrapped in stream_event, which the Desktop ignores (the contract's raw events stand alone on a line)`;
}

export const turnChecks: Check<AgentRun>[] = [
  {
    clause: `${ID}/one-terminal-per-turn`,
    judge: (run) => {
      // A scripted model failure's own turn is judged by agent-cli/failures (with its own bound)
      // once its request reached the model; one that never got that far is an ordinary turn.
      // So are the managed-task turns whose own clause asks for one terminal event (managed-tasks-own.ts).
      const failing = (transcript: Transcript, segment: Segment): boolean => (scriptedFailure(segment) && callsIn(transcript, segment).length > 0) || ownsTerminal(transcript, segment.process, segment.input?.message);
      const live = allSegments(run).filter(({ transcript, segment }) => transcript.stdoutOnly !== true && !failing(transcript, segment) && ["waiting", undefined].includes(missingTerminal(transcript, segment)));
      const refused = refusedViews(run);
      const strays = allProcesses(run)
        .filter(({ transcript, item }) => transcript.stdoutOnly !== true && !gatedRefusal(transcript, item) && !refused.has(item))
        .flatMap(({ transcript, item }) => item.unattributed.filter((l) => (l.object?.type === "result" || l.object?.type === "message_stop") && !ownsTerminal(transcript, item.process, userTurns(item).filter((u) => u.at < l.at).pop()?.message)).map((line) => ({ transcript, line, early: !item.inputs.some((input) => input.at < line.at) })));
      const judged = judgeEach(
        live,
        ({ transcript, segment }) => (segment.terminal !== undefined ? [] : [mergedFinding(transcript, segment) ?? unansweredFinding(run, transcript, segment)]),
        captureOr(run, "the user lines the host wrote", skip("no user turn that the host awaited was left without an exit or a host stop (see no-exit-mid-turn)")),
      );
      if (judged.outcome !== "judged") return judged;
      const extra = strays.map(({ transcript, line, early }) => finding(`${ID}/one-terminal-per-turn`, { transcript, lines: [line] }, early ? "a terminal event came before the host wrote any line, so it answers no turn" : "a second terminal event answers a turn that was already answered", { expected: "exactly one terminal event per turn" }));
      return { ...judged, findings: [...judged.findings, ...extra] };
    },
  },
  {
    // The next turn's model request seen up to ORDER_SKEW_MS before this turn's terminal line is read is in order (see below).
    clause: `${ID}/terminal-in-order`,
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      if (cause !== undefined) return skip(cause);
      const pairs = allSegments(run).flatMap(({ transcript, segment }, i, all) => {
        const next = all[i + 1];
        if (next === undefined || next.transcript !== transcript || next.segment.process !== segment.process || segment.terminal === undefined || transcript.stdoutOnly) return [];
        const tag = turnTagOf(next.segment.input?.message);
        if (tag === undefined) return [];
        const early = callsIn(transcript, next.segment).filter((call) => (call.startT ?? 0) < (segment.terminal?.event.t ?? 0));
        const own = callsIn(transcript, segment)[0];
        return [{ transcript, segment, next: next.segment, early, own, tag }];
      });
      return judgeEach(pairs, orderFindings(run), captureOr(run, "the user lines the host wrote or the model requests", notApplicable("no two consecutive turns with model calls to compare")));
    },
  },
  {
    clause: `${ID}/no-exit-mid-turn`,
    judge: (run) =>
      judgeEach(
        allSegments(run).filter(({ transcript, segment }) => transcript.stdoutOnly !== true && segment.input !== undefined && missingTerminal(transcript, segment) !== "host"),
        ({ transcript, segment }) => {
          if (missingTerminal(transcript, segment) !== "exited") return [];
          const exit = processesOf(transcript).find((v) => v.process === segment.process)?.exit;
          return [finding(`${ID}/no-exit-mid-turn`, { transcript, lines: segment.output.slice(-2), stderrOf: segment.process, ...(exit ? { events: [{ event: exit, at: exit.at }] } : {}) }, "the process exited before the turn's terminal event", { expected: "a terminal event first" })];
        },
        captureOr(run, "the user lines the host wrote or how the process ended", skip("no user turn was sent")),
      ),
  },
  {
    clause: `${ID}/result-shape`,
    judge: (run) =>
      judgeEach(
        results(run),
        ({ transcript, line, result }) => {
          const problems: string[] = [];
          if (typeof result.subtype !== "string") problems.push(`subtype is ${show(result.subtype)}, not a string`);
          if (typeof result.is_error !== "boolean") problems.push(`is_error is ${show(result.is_error)}, not a boolean`);
          else if (typeof result.subtype === "string" && result.is_error !== (result.subtype !== "success")) problems.push(`subtype ${show(result.subtype)} with is_error ${String(result.is_error)}`);
          return problems.map((p) => finding(`${ID}/result-shape`, { transcript, lines: [line] }, p, { expected: "success with is_error false, an error subtype with is_error true" }));
        },
        NO_RESULTS,
      ),
  },
  {
    clause: `${ID}/error-code`,
    judge: (run) => {
      const flagged = flaggedErrors(run);
      return judgeEach(
        errorResults(flagged),
        ({ transcript, line, result }) =>
          hasCode(result) ? [] : [finding(`${ID}/error-code`, { transcript, lines: [line] }, "an error result names no machine-readable code: result is not one (text with spaces is for people), and subtype is no specific code either", { expected: "result (or, failing that, a specific subtype) holding one code: a single token without whitespace", seen: `result ${show(result.result)}, subtype ${show(result.subtype)}` })],
        unjudgedErrors(flagged, refusals(run).filter(({ view }) => errorAnswers(view).length > 0).length),
      );
    },
  },
  {
    clause: `${ID}/error-code-in-result`,
    judge: (run) =>
      judgeEach(
        errorResults(flaggedErrors(run)).filter(({ result }) => hasCode(result)),
        ({ transcript, line, result }) =>
          codeInResult(result) ? [] : [finding(`${ID}/error-code-in-result`, { transcript, lines: [line] }, `the error result carries its code only in subtype ${show(result.subtype)}; the Desktop shows cc_${String(result.subtype)}`, { expected: "the code in result, as the contract's failure form has it", seen: `result ${show(result.result)}` })],
        notApplicable("no error result with a machine-readable code was written"),
      ),
  },
  {
    clause: `${ID}/error-code-form`,
    judge: (run) =>
      judgeEach(
        errorResults(flaggedErrors(run)).filter(({ result }) => hasCode(result)),
        ({ transcript, line, result }) => {
          const code = codeOf(result) ?? "";
          return REFERENCE_CODE.test(code) ? [] : [finding(`${ID}/error-code-form`, { transcript, lines: [line] }, `the error code ${show(code)} is not in the upstream reference CLI's form (letters, digits, _ : -, at most 160); the contract sets no form, hence SHOULD`, { expected: "a code matching /^[a-z0-9_:-]{1,160}$/iu (the upstream reference CLI's form)", seen: show(code) })];
        },
        notApplicable("no error result with a machine-readable code was written"),
      ),
  },
  {
    clause: `${ID}/usage-counts`,
    judge: (run) =>
      judgeEach(
        results(run).filter(({ result }) => result.usage !== undefined),
        ({ transcript, line, result }) => {
          const usage = result.usage;
          const bad = !isRecord(usage) ? ["usage is not an object"] : ["input_tokens", "output_tokens"].filter((k) => usage[k] !== undefined && !(Number.isInteger(usage[k]) && (usage[k] as number) >= 0)).map((k) => `${k} is ${show(usage[k])}`);
          return bad.map((b) => finding(`${ID}/usage-counts`, { transcript, lines: [line] }, b, { expected: "non-negative integers" }));
        },
        notApplicable("no result carried usage"),
      ),
  },
  {
    clause: `${ID}/text-blocks`,
    judge: (run) =>
      judgeEach(
        allSegments(run).filter(({ segment }) => segment.output.some((l) => typeof l.object?.type === "string" && l.object.type.startsWith("content_block_"))),
        ({ transcript, segment }): Finding[] => blockProblems(segment).slice(0, 3).map(({ line, message }) => finding(`${ID}/text-blocks`, { transcript, lines: [line] }, message, { expected: "start, deltas, stop per index" })),
        notApplicable(noBlocksReason(run)),
      ),
  },
  {
    clause: `${ID}/tool-use`,
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      if (cause !== undefined) return skip(cause);
      return judgeEach(
        allSegments(run).flatMap(({ transcript, segment }) => {
          // The managed-task tool has its own clause (agent-cli/managed-tasks/tool-use-shown).
          const call = callsIn(transcript, segment).find((c) => c.toolCall !== undefined && c.toolCall.name !== MANAGED_TOOL);
          return call?.toolCall ? [{ transcript, segment, tool: call.toolCall.name }] : [];
        }),
        ({ transcript, segment, tool }) =>
          toolUseNames(segment.output).includes(tool) ? [] : [finding(`${ID}/tool-use`, { transcript, lines: segment.output.slice(-3) }, `the model called ${tool} but no tool_use block shows it`, { expected: `a tool_use block named ${tool}` })],
        captureOr(run, "the model's side, so which tools the model called", notApplicable(noToolCallReason(run))),
      );
    },
  },
];

