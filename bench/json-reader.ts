import { parseJson } from "../src/core/json/index.js";

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  target?: string;
}

const TARGET_BYTES = 1_048_576;
const WARMUP_RUNS = 10;
const MEASURED_RUNS = 30;

/** Small deterministic PRNG (xorshift32) so the message is identical on every run. */
function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

const WORDS = [
  "agent", "tool", "call", "result", "stream", "token", "policy", "provider", "deny", "allow",
  "request", "response", "café", "naïve", "résumé", "東京", "données", "😀", "path/to/file.ts", "exit",
];

/** A realistic agent-protocol-like message: nested objects, long strings, numbers, some escapes. */
export function buildMessage(targetBytes: number = TARGET_BYTES): string {
  const rand = prng(0x5eed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const sentence = (words: number): string => {
    const parts: string[] = [];
    for (let k = 0; k < words; k++) parts.push(pick(WORDS));
    let s = parts.join(" ");
    if (rand() < 0.3) s += '\n\t"quoted" \\ back\u0001slash';
    return s;
  };
  const events: unknown[] = [];
  const message = { jsonrpc: "2.0", id: 42, method: "session/update", params: { sessionId: "sess-0001", events } };
  const encoder = new TextEncoder();
  let size = encoder.encode(JSON.stringify(message)).length;
  for (let n = 0; ; n++) {
    const event = {
      seq: n,
      kind: pick(["tool_call", "message", "status", "diff"]),
      timestamp: 1_700_000_000_000 + n * 137,
      score: Math.round(rand() * 1e6) / 1e3,
      ratio: rand(),
      nonce: 100_000_000_000_000_000 + n * 4096,
      ok: rand() < 0.8,
      error: null,
      text: sentence(10 + Math.floor(rand() * 60)),
      tags: [pick(WORDS), pick(WORDS), pick(WORDS)],
      meta: { attempt: n % 5, path: `/work/${n}/file.ts`, nested: { depth: [1, 2, [3, 4, { k: "v" }]], unicode: "\u00e9\u4e2d" } },
    };
    const eventBytes = encoder.encode(JSON.stringify(event)).length + 1;
    if (size + eventBytes > targetBytes) break;
    events.push(event);
    size += eventBytes;
  }
  return JSON.stringify(message);
}

function median(samples: number[]): number {
  const sorted = samples.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function time(run: () => unknown): number {
  for (let k = 0; k < WARMUP_RUNS; k++) run();
  const samples: number[] = [];
  for (let k = 0; k < MEASURED_RUNS; k++) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  return Math.round(median(samples) * 100) / 100;
}

export async function benchJsonReader(): Promise<{ name: string; value: number; unit: string; target?: string }[]> {
  const text = buildMessage();
  const bytes = new TextEncoder().encode(text);
  const check = parseJson(bytes);
  if (!check.ok) throw new Error(`bench message does not parse cleanly: ${JSON.stringify(check.issues[0])}`);
  const kib = Math.round(bytes.length / 1024);
  return [
    { name: `parseJson, ${kib} KiB message (bytes)`, value: time(() => parseJson(bytes)), unit: "ms", target: "< 20 ms" },
    { name: `parseJson lossless, ${kib} KiB message`, value: time(() => parseJson(bytes, { numbers: "lossless" })), unit: "ms" },
    { name: `parseJson, ${kib} KiB message (string input)`, value: time(() => parseJson(text)), unit: "ms" },
    { name: `JSON.parse (comparison), ${kib} KiB message`, value: time(() => JSON.parse(text)), unit: "ms" },
  ];
}
