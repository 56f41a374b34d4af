/**
 * How the launch contract shapes an agent CLI's arguments, read back from what the CLI got:
 * `<prefix args...> [stream-json flags] --model <model> [--resume <id>] [--mcp-config <path>]`.
 */
import { STREAM_JSON_FLAGS } from "../agent-cli/launch.js";
import type { AgentMode } from "../agent-cli/types.js";

/** The four compatibility flags' names (the six tokens with their values are STREAM_JSON_FLAGS). */
export const COMPAT_FLAG_NAMES: readonly string[] = STREAM_JSON_FLAGS.filter((token) => token.startsWith("--"));

export interface LaunchArgs {
  /** Everything before --model: the prefix and, for stream-json, the compatibility flags. */
  head: string[];
  model: string;
  resume?: string;
  mcpConfig?: string;
}

/** The tail's optional pairs, in the order the contract puts them. */
const OPTIONAL = ["--resume", "--mcp-config"] as const;

/**
 * The arguments split at the contract's tail, or undefined when they do not end with
 * `--model M [--resume ID] [--mcp-config P]` (in that order, nothing after). The longest tail
 * that fits wins, so a prefix argument that happens to be `--model` stays in the head.
 */
export function splitLaunchArgs(args: readonly string[]): LaunchArgs | undefined {
  for (let pairs = OPTIONAL.length; pairs >= 0; pairs--) {
    const at = args.length - 2 * (pairs + 1);
    if (at < 0 || args[at] !== "--model") continue;
    const values = new Map<string, string>();
    let next = 0;
    for (let p = 0; p < pairs; p++) {
      const flag = args[at + 2 + 2 * p] as string;
      while (next < OPTIONAL.length && OPTIONAL[next] !== flag) next++;
      if (next === OPTIONAL.length) break;
      values.set(flag, args[at + 3 + 2 * p] as string);
      next++;
    }
    if (values.size !== pairs) continue;
    const resume = values.get("--resume");
    const mcpConfig = values.get("--mcp-config");
    return { head: args.slice(0, at), model: args[at + 1] as string, ...(resume !== undefined ? { resume } : {}), ...(mcpConfig !== undefined ? { mcpConfig } : {}) };
  }
  return undefined;
}

/** The flags of the contract's tail after --model. */
export const TAIL_FLAGS: readonly string[] = OPTIONAL;

/** The head without tail pairs that stand in it (`--resume X` before --model): their place is one clause's business, the rest another's. */
export function withoutTailPairs(head: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < head.length; i++) {
    if (TAIL_FLAGS.includes(head[i] as string)) i++;
    else out.push(head[i] as string);
  }
  return out;
}

/** Whether the head ends with the six compatibility tokens, exactly and in order. */
export function endsWithCompatFlags(head: readonly string[]): boolean {
  if (head.length < STREAM_JSON_FLAGS.length) return false;
  const end = head.slice(head.length - STREAM_JSON_FLAGS.length);
  return end.every((token, i) => token === STREAM_JSON_FLAGS[i]);
}

/** The mode the arguments show: stream-json when a compatibility flag is in the head beyond the known prefix. */
export function shownMode(head: readonly string[], prefixLength = 0): AgentMode {
  return head.slice(prefixLength).some((token) => COMPAT_FLAG_NAMES.includes(token)) ? "stream-json" : "awp-jsonl";
}

/** The prefix: the head without the compatibility block when it ends with one. */
export function prefixOf(head: readonly string[]): string[] {
  return endsWithCompatFlags(head) ? head.slice(0, head.length - STREAM_JSON_FLAGS.length) : [...head];
}
