/**
 * Pairing terminal events with queued lines by content: the kit's model answers each turn tag
 * with its own text, so output that carries one pending line's reply answers that line, even
 * when a CLI answers queued lines out of order (analysis.ts's viewProcesses).
 */
import type { Input, OutLine } from "./analysis.js";
import { carriedTags } from "./directives.js";
import type { Transcript } from "./types.js";

/** A reply of the kit's model, and every turn tag the request that got it carried (a merged request carries several). */
interface Reply {
  tags: string[];
  text: string;
}

/** The kit's model replies of each process, by the tags of their requests. */
function repliesByProcess(transcript: Transcript): Map<number, Reply[]> {
  const replies = new Map<number, Reply[]>();
  for (const event of transcript.events) {
    if (event.kind !== "model" || event.call.replyText === "") continue;
    const tags = carriedTags(event.call);
    if (tags.length === 0) continue;
    replies.set(event.process, [...(replies.get(event.process) ?? []), { tags, text: event.call.replyText }]);
  }
  return replies;
}

/** Which pending line of a process a terminal event answers, by its position in the queue (see contentPairing). */
export type AnsweredBy = (process: number, queue: readonly Input[], output: readonly OutLine[]) => number;

/**
 * Which pending input a terminal event answers: the oldest (position 0), unless the output up
 * to it carries the kit's reply to exactly one other pending line's turn tag and none to the
 * oldest's. `tagOf` reads a line's turn tag, `shown` the text a turn's output shows.
 */
export function contentPairing(transcript: Transcript, tagOf: (input: Input) => string | undefined, shown: (output: readonly OutLine[]) => string): AnsweredBy {
  const replies = repliesByProcess(transcript);
  return (process, queue, output) => {
    const own = replies.get(process) ?? [];
    if (queue.length < 2 || own.length === 0) return 0;
    const text = shown(output);
    if (text === "") return 0;
    const matching = queue.flatMap((input, i) => {
      const tag = tagOf(input);
      return tag !== undefined && own.some((r) => r.tags.includes(tag) && text.includes(r.text)) ? [i] : [];
    });
    return matching.length === 1 && matching[0] !== 0 ? (matching[0] as number) : 0;
  };
}
