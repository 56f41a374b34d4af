/**
 * Image, document and unsupported blocks: "rejected explicitly or converted to a documented
 * fallback". A turn handles its block when it ends in an error result, when the model
 * request shows the block (its data, or a fallback naming its type or media type), or
 * when the CLI's own visible output for the turn names it (a note such as "the PDF
 * attachment was received but cannot be read"). Silent disappearance is the failure, and so
 * is, for an image or a document, an error result that only follows the kit's model fixture
 * refusing the turn's request as the real API would (an OpenAI image_url part on
 * /v1/messages, say): see refused.ts.
 */
import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { callsIn, isRecord, type JsonRecord, type OutLine, type Segment } from "../analysis.js";
import { modelCause } from "../causes.js";
import type { ModelCall, Transcript } from "../types.js";
import { finding, judgeSome, ran, scenarioMissing, show, skip, type AgentRun } from "./helpers.js";
import { modelPieces } from "./fidelity.js";
import { refusalFinding, refusedIn } from "./refused.js";
import { allSegments } from "./turns.js";

export function blockTypes(segment: Segment): string[] {
  const content = segment.input?.message?.content;
  if (typeof content === "string") return ["text"];
  return Array.isArray(content) ? content.map((b) => (isRecord(b) ? String(b.type) : "?")) : [];
}

function blocksOf(segment: Segment, type: string): JsonRecord[] {
  const content = segment.input?.message?.content;
  return Array.isArray(content) ? content.filter((b): b is JsonRecord => isRecord(b) && b.type === type) : [];
}

export const isErrorResult = (segment: Segment): boolean => segment.terminal?.object?.type === "result" && segment.terminal.object.is_error === true;

/** The texts of the user's own text blocks (the kit's prompt and directive). */
function promptTexts(segment: Segment): string[] {
  const content = segment.input?.message?.content;
  const texts = typeof content === "string" ? [content] : Array.isArray(content) ? content.filter((b): b is JsonRecord => isRecord(b) && b.type === "text" && typeof b.text === "string").map((b) => b.text as string) : [];
  // A CLI may echo the prompt without the kit's directive: that is the kit's text too.
  return [...texts, ...texts.map((t) => t.replace(/\[\[awp-fixture[^\]]*\]\]/g, "").trim())];
}

/** What the Desktop shows of a turn: its text deltas, its assistant text blocks and a string result (each run of text kept whole). */
export function shownText(output: readonly OutLine[]): string {
  const deltas: string[] = [];
  const messages: string[] = [];
  const results: string[] = [];
  for (const { object: o } of output) {
    if (o === undefined) continue;
    if (o.type === "content_block_delta" && isRecord(o.delta) && typeof o.delta.text === "string") deltas.push(o.delta.text);
    if (o.type === "assistant" && isRecord(o.message) && Array.isArray(o.message.content)) {
      for (const b of o.message.content) if (isRecord(b) && b.type === "text" && typeof b.text === "string") messages.push(b.text);
    }
    if (o.type === "result" && typeof o.result === "string") results.push(o.result);
  }
  return [deltas.join(""), messages.join(""), ...results].join("\n");
}

function without(text: string, removed: readonly string[]): string {
  return removed.filter((r) => r !== "").reduce((rest, r) => rest.split(r).join(" "), text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The names a note or fallback may use for a block: its type, media type and media subtype. */
function namesOf(type: string, blocks: readonly JsonRecord[]): RegExp[] {
  const media = blocks.flatMap((b) => (isRecord(b.source) && typeof b.source.media_type === "string" ? [b.source.media_type] : []));
  const words = [type, ...media, ...media.map((m) => m.split("/")[1] ?? "")].filter((w) => w.length >= 3);
  return [...new Set(words)].map((w) => new RegExp(`(^|[^A-Za-z0-9])${escapeRegExp(w)}(s|es)?($|[^A-Za-z0-9])`, "i"));
}

/** Payloads that prove the block was passed on: base64 data, or the probe block's marker. */
function payloadsOf(blocks: readonly JsonRecord[]): string[] {
  return blocks
    .map((b) => (isRecord(b.source) && typeof b.source.data === "string" ? b.source.data : typeof b.marker === "string" ? b.marker : ""))
    .filter((p) => p !== "");
}

/** The messages a request adds for this turn: everything after the last assistant message. */
function turnMessages(call: ModelCall): string {
  const body = call.body;
  const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : [];
  let start = 0;
  messages.forEach((m, i) => {
    if (isRecord(m) && m.role === "assistant") start = i + 1;
  });
  return JSON.stringify(messages.slice(start));
}

type Handling = "error" | "refused" | "note" | "request" | "dropped-with-model" | "no-model";

/**
 * `documented`: the model APIs take this block in a documented form (an image, a document), so
 * an error result that only follows the fixture's refusal of the turn's request is that
 * refusal, not the CLI's explicit rejection. A block no API knows (the kit's probe) that the
 * CLI passes on raw and the API refuses has been rejected, visibly.
 */
function handling(transcript: Transcript, segment: Segment, type: string, cause: string | undefined, documented: boolean): Handling {
  if (isErrorResult(segment)) return documented && refusedIn(transcript, segment).length > 0 ? "refused" : "error";
  const blocks = blocksOf(segment, type);
  const names = namesOf(type, blocks);
  const prompts = promptTexts(segment);
  const shown = without(shownText(segment.output), [...modelPieces(transcript, segment), ...prompts]);
  if ([...payloadsOf(blocks)].some((p) => shown.includes(p)) || names.some((n) => n.test(shown))) return "note";
  const calls = callsIn(transcript, segment);
  if (calls.length === 0) return cause === undefined ? "dropped-with-model" : "no-model";
  // The kit's own prompt may name the block: look past it (as JSON string content).
  const asked = without(calls.map(turnMessages).join("\n"), prompts.map((p) => JSON.stringify(p).slice(1, -1)));
  if (payloadsOf(blocks).some((p) => asked.includes(p)) || names.some((n) => n.test(asked))) return "request";
  return "dropped-with-model";
}

export function blockCheck(clause: string, type: string, what: string, documented: boolean): Check<AgentRun> {
  return {
    clause,
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      const turns = allSegments(run).filter(({ transcript, segment }) => transcript.stdoutOnly !== true && segment.terminal !== undefined && blockTypes(segment).includes(type));
      return judgeSome(
        turns,
        ({ transcript, segment }): Finding[] | undefined => {
          const how = handling(transcript, segment, type, cause, documented);
          if (how === "no-model") return undefined;
          if (how === "refused") return [refusalFinding(clause, transcript, segment, what, refusedIn(transcript, segment))];
          if (how !== "dropped-with-model") return [];
          const calls = callsIn(transcript, segment);
          const where = { transcript, lines: segment.terminal ? [segment.terminal] : [], ...(segment.input ? { events: [{ event: segment.input.event, at: segment.input.at }] } : {}) };
          const message = calls.length === 0
            ? `the ${what} turn succeeded without asking the model anything and without a visible note naming the block`
            : `the ${what} block was dropped silently: the turn succeeded, the model request shows no trace of it and the CLI's output names it nowhere`;
          return [finding(clause, where, message, { expected: "the data or a fallback naming the block in the model request, a visible note naming it, or an error result", seen: calls.length === 0 ? show(shownText(segment.output)) : show(calls[0]?.userText) })];
        },
        skip(cause ?? (ran(run, "content") ? `no ${what} turn was answered: the content scenario did not reach it (see agent-cli/turns and agent-cli/session)` : scenarioMissing(run, "content"))),
      );
    },
  };
}
