/**
 * The agent-cli mock as a CLI written against the Anthropic Messages API (anthropic-wire.ts),
 * and the mistakes such a CLI makes that the real API refuses: each fault sends what the
 * documentation says is refused, in the selected turn (or wherever its block is), so the kit's
 * strict model fixture refuses it and the clause of that turn or block fails.
 */
import { textParam } from "../run.js";
import { isObj, type Obj } from "../process.js";
import { keptBlocks, textKey, toAnthropic, toChatStream, type AnthropicRequest } from "./anthropic-wire.js";
import { jsonBody, textOf, turnSelected, turnTag, userMessage, type AgentFault, type State } from "./state.js";

/** What a fault changes in a translated request; `selected`: the request is the selected turn's. */
type Twist = (request: AnthropicRequest, selected: boolean) => void;

const lastUser = (request: AnthropicRequest): Obj | undefined => [...request.body.messages].reverse().find((m) => m.role === "user");
const blocksOf = (message: Obj | undefined): Obj[] => (Array.isArray(message?.content) ? message.content.filter(isObj) : []);

/** The mock talking Anthropic Messages, with a twist of its request; `turn`: the selector the twist is limited to, if any. */
function anthropicCli(twist: Twist | undefined, turn: string | undefined): ReturnType<AgentFault> {
  const originals = new Map<string, Obj[]>();
  const selected = (request: AnthropicRequest, state: State): boolean => {
    if (turn === undefined) return true;
    const tag = turnTag(textOf(lastUser(request)?.content));
    return turnSelected(turn, { tag, index: state.pending[0]?.index ?? 0 }, state.kitTags);
  };
  return {
    input: (text) => {
      const message = userMessage(text);
      if (message !== undefined) {
        const blocks = keptBlocks(message.content);
        originals.set(textKey(blocks), blocks);
      }
      return text;
    },
    fetch: async (url, init, next, state) => {
      const body = jsonBody(init);
      if (typeof url !== "string" || !url.endsWith("/chat/completions") || body === undefined) return next(url, init);
      const request = toAnthropic(url, init, body, originals);
      twist?.(request, selected(request, state));
      const { signal } = init ?? {};
      const response = await next(request.url, { method: "POST", headers: request.headers, body: JSON.stringify(request.body), ...(signal ? { signal } : {}) });
      if (!response.ok || response.body === null) return response;
      return new Response(toChatStream(response.body), { status: response.status, headers: { "content-type": "text/event-stream" } });
    },
  };
}

/** A fault limited to the turn its `turn` parameter selects. */
const inTurn = (twist: (request: AnthropicRequest) => void): AgentFault => (p) => anthropicCli((request, selected) => (selected ? twist(request) : undefined), textParam(p, "turn"));
/** A fault wherever its blocks are. */
const everywhere = (twist: (request: AnthropicRequest) => void): AgentFault => () => anthropicCli(twist, undefined);

function mapBlocks(request: AnthropicRequest, type: string, change: (block: Obj) => Obj): void {
  for (const message of request.body.messages) {
    if (Array.isArray(message.content)) message.content = message.content.map((b) => (isObj(b) && b.type === type ? change(b) : b));
  }
}

const dataUrl = (block: Obj): string => {
  const source = isObj(block.source) ? block.source : {};
  return `data:${String(source.media_type)};base64,${String(source.data)}`;
};

export const ANTHROPIC_FAULTS: Readonly<Record<string, AgentFault>> = {
  "anthropic-messages": () => anthropicCli(undefined, undefined),
  "anthropic-no-version": inTurn((r) => {
    delete r.headers["anthropic-version"];
  }),
  "anthropic-no-max-tokens": inTurn((r) => {
    delete r.body["max_tokens"];
  }),
  "anthropic-bearer": inTurn((r) => {
    const key = r.headers["x-api-key"];
    delete r.headers["x-api-key"];
    if (key !== undefined) r.headers["authorization"] = `Bearer ${key}`;
  }),
  "anthropic-empty-text": inTurn((r) => {
    const user = lastUser(r);
    if (user !== undefined) user.content = [...blocksOf(user), { type: "text", text: "" }];
  }),
  "anthropic-unknown-block": inTurn((r) => {
    const user = lastUser(r);
    if (user !== undefined) user.content = blocksOf(user).map((b) => (b.type === "text" ? { ...b, type: "markdown" } : b));
  }),
  "anthropic-image-url": everywhere((r) => mapBlocks(r, "image", (b) => ({ type: "image_url", image_url: { url: dataUrl(b) } }))),
  "anthropic-file-part": everywhere((r) => mapBlocks(r, "document", (b) => ({ type: "file", file: { filename: "attachment.pdf", file_data: dataUrl(b) } }))),
};
