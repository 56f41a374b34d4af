/**
 * tool.input / tool.result values whose size is the point: arrays and objects of 0 to hundreds
 * of thousands of members and strings of 0 to a million characters, up to a request of exactly
 * 1 MiB.
 *
 * The size is one fast-check integer drawn bucket by bucket (0, 1, a few, tens, hundreds,
 * thousands, tens of thousands, up to what fits), and the members cycle through a short
 * pattern drawn with fc.array (size "small") from a recursive member arbitrary (depthSize
 * "small"). So a failure on a big collection shrinks by a binary search on the count, a
 * dozen candidate calls, to the smallest count that still fails (the members first go to a
 * single 0 in one step); fc.array over the members themselves would shrink member by member,
 * a call each.
 *
 * A value is planned here and built where the request is assembled (assemble.ts), against the
 * bytes the rest of the request leaves, so it never makes a request over the limit; a filled
 * request is padded elsewhere (event.native) to exactly its size.
 */
import fc from "fast-check";
import { KitError } from "../../core/errors.js";
import { canonicalJson, canonicalReadBack, parseJson, wireJson, type JsonValue } from "../../core/json/index.js";
import { MAX_MESSAGE_BYTES } from "../../core/provider/types.js";
import { alphabetArb, boundaryInteger, cycle, LIMIT_NUMBERS, simplestFirst, unicodeTextArb, type Special } from "./boundary.js";
import { cycledShape, type Shape } from "./coverage.js";
import { once } from "./lazy.js";
import { cycleText, objectText, type Text } from "./sized-bytes.js";

export type SizedShape = "object" | "array" | "string";

export interface SizedPlan {
  shape: SizedShape;
  /** Members (array, object) or code points (string) wanted; fewer when they do not fit. */
  count: number;
  /** The members cycle through these. */
  members: JsonValue[];
  /** Object keys are stem + "k" + the index in fixed-width digits. */
  stem: string;
  /** A string value cycles through these code points. */
  alphabet: string[];
}

/** Largest count drawn: a 1 MiB request holds at most this many one-digit array members. */
export const MAX_SIZED_COUNT = MAX_MESSAGE_BYTES / 2;

/**
 * Count buckets: one drawn uniformly from this list (an entry listed three times is three times
 * as likely), then a value inside it. The two largest come one time in twenty: they make
 * requests of hundreds of KiB, which cost the candidate most to read, and the filled requests
 * reach the limit as well.
 */
export const COUNT_BUCKETS: readonly Special[] = [
  ...[0, 1, [2, 9], [10, 99], [100, 999], [1000, 9999]].flatMap((b): Special[] => [b as Special, b as Special, b as Special]),
  [10_000, 99_999],
  [100_000, MAX_SIZED_COUNT],
];

/** Whole-request sizes of filled requests: the last 4 KiB below the limit, the limit itself, one below it. */
const FILL_SIZES: readonly Special[] = [MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES - 1, [MAX_MESSAGE_BYTES - 4096, MAX_MESSAGE_BYTES]];

/** Usually undefined; one request in twenty-four is padded to exactly one of FILL_SIZES (assemble.ts). */
export const fillArb: fc.Arbitrary<number | undefined> = fc.oneof(
  { withCrossShrink: true },
  { weight: 23, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: boundaryInteger(MAX_MESSAGE_BYTES - 4096, MAX_MESSAGE_BYTES, FILL_SIZES, 100) },
);

const leafArb: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(...LIMIT_NUMBERS.map((n) => n.value)),
  unicodeTextArb,
);

/** Small JSON values, at most 3 containers deep (the collection around them adds one). */
const memberArb: fc.Arbitrary<JsonValue> = fc.letrec<{ member: JsonValue }>((tie) => ({
  member: fc.oneof(
    { depthSize: "small", maxDepth: 3, withCrossShrink: true },
    leafArb,
    fc.array(tie("member"), { maxLength: 4, size: "small" }),
    fc.array(tie("member"), { maxLength: 4, size: "small" }).map((items) => {
      const object: { [key: string]: JsonValue } = {};
      items.forEach((item, i) => (object[`k${i}`] = item));
      return object;
    }),
  ),
})).member;

/** A plan of one size-driven value. */
export const sizedPlanArb: fc.Arbitrary<SizedPlan> = fc
  // Content first, the size last: shrinking retries an earlier field after every accepted step.
  .record({
    members: simplestFirst<JsonValue[]>([0], fc.array(memberArb, { minLength: 1, maxLength: 8, size: "small" })),
    stem: fc.record({ length: fc.nat({ max: 4 }), alphabet: alphabetArb }).map(({ length, alphabet }) => cycle(alphabet, length)),
    alphabet: alphabetArb,
    shape: fc.constantFrom<SizedShape>("object", "array", "string"),
    count: boundaryInteger(0, MAX_SIZED_COUNT, COUNT_BUCKETS, 100),
  });

const utf8 = (text: string): number => Buffer.byteLength(text, "utf8");

/**
 * What a plan became: the value, its wire text and its canonical text (the digest's form, as
 * the kit's reader reads the wire text), its wire size, how many members or characters it
 * has, and its shape for the coverage. The texts are put together from the few distinct
 * members, so a value near 1 MiB is written and bound without serializing or parsing it whole
 * (splice.ts).
 */
export interface Built {
  /** The value; for a lazy one, built on first read (and kept). */
  readonly value: JsonValue;
  /** Its wire text in UTF-8, written where the request wants it (splice.ts). */
  wire: Text;
  /** Its canonical text in UTF-8 (the same object when the texts are the same). */
  canon: Text;
  bytes: number;
  count: number;
  shape: Shape;
  /** The value is not built until read: the request holds a getter in its place (lazy.ts). */
  lazy: boolean;
}

/**
 * Collections of at least this many members are built when first read (lazy.ts). A hostile
 * case's base (16 KiB at most) can hold such an array: the derivations that copy its tool
 * object read it, which builds it, and the copy is walked as any value.
 */
export const LAZY_MEMBERS = 4096;

/** The canonical text of a value, read back from its wire text as computeInputDigest reads a request. */
export function canonicalOf(value: JsonValue): string {
  try {
    return canonicalReadBack(value);
  } catch {
    // Read back, to say what is wrong.
  }
  const parsed = parseJson(wireJson(value), { numbers: "lossless", floats: "serde_json" });
  if (parsed.value === undefined) throw new KitError("kit_bug", "a sized fuzz value did not parse back");
  return canonicalJson(parsed.value);
}

/**
 * The collection of a plan in at most `max` wire bytes. Object keys are stem + "k" + the index
 * in fixed-width digits, so their code point order (the canonical order) is their index order,
 * and none looks like an array index.
 */
function buildCollection(plan: SizedPlan, max: number): Built {
  const object = plan.shape === "object";
  const wires = plan.members.map((m) => wireJson(m));
  const canons = plan.members.map(canonicalOf);
  const memberBytes = wires.map(utf8);
  const width = String(Math.max(0, plan.count - 1)).length;
  const wireKey = `${wireJson(plan.stem).slice(0, -1)}k`;
  const canonKey = `${canonicalJson(plan.stem).slice(0, -1)}k`;
  const keyBytes = object ? utf8(wireKey) + width + 2 : 0; // "stem k digits" and the colon
  let bytes = 2;
  let n = 0;
  for (; n < plan.count; n++) {
    const cost = (n > 0 ? 1 : 0) + keyBytes + (memberBytes[n % memberBytes.length] as number);
    if (bytes + cost > max) break;
    bytes += cost;
  }
  const p = plan.members.length;
  const shape = cycledShape(plan.members, n);
  // Members and keys that read back as they are written (the usual case) have one text for both.
  const same = wireKey === canonKey && wires.every((wire, i) => wire === canons[i]);
  const build = once((): JsonValue => {
    if (!object) {
      // A plain loop: Array.from with a map function is several times slower for 500,000 members.
      const array: JsonValue[] = new Array<JsonValue>(n);
      for (let i = 0; i < n; i++) array[i] = plan.members[i % p] as JsonValue;
      return array;
    }
    const value: { [key: string]: JsonValue } = {};
    for (let i = 0; i < n; i++) value[`${plan.stem}k${String(i).padStart(width, "0")}`] = plan.members[i % p] as JsonValue;
    return value;
  });
  const write = (key: string, texts: readonly string[]): Text => (object ? objectText(key, texts, n, width) : cycleText("[", "]", texts, n, true));
  const wire = write(wireKey, wires);
  const canon = same ? wire : write(canonKey, canons);
  const lazy = n >= LAZY_MEMBERS;
  if (!lazy) return { value: build(), wire, canon, bytes, count: n, shape, lazy };
  return { get value() { return build(); }, wire, canon, bytes, count: n, shape, lazy };
}

/** The string of a plan: count code points of its alphabet, cut to what fits in `max` wire bytes. */
function buildString(plan: SizedPlan, max: number): Built {
  // Each code point's text inside the quotes (an escape, or itself), the same in both forms unless it is escaped differently.
  const wires = plan.alphabet.map((c) => wireJson(c).slice(1, -1));
  const canons = plan.alphabet.map((c) => canonicalJson(c).slice(1, -1));
  const costs = wires.map(utf8);
  const perCycle = costs.reduce((a, b) => a + b, 0);
  const limit = max - 2;
  let n = Math.min(plan.count, Math.floor(limit / perCycle) * costs.length);
  let bytes = Math.floor(n / costs.length) * perCycle;
  for (let i = 0; i < n % costs.length; i++) bytes += costs[i] as number;
  while (n < plan.count && bytes + (costs[n % costs.length] as number) <= limit) bytes += costs[n++ % costs.length] as number;
  const value = cycle(plan.alphabet, n);
  const wire = cycleText('"', '"', wires, n, false);
  const canon = wires.every((w, i) => w === canons[i]) ? wire : cycleText('"', '"', canons, n, false);
  return { value, wire, canon, bytes: bytes + 2, count: n, shape: { members: 0, chars: n, depth: 0 }, lazy: false };
}

/** The value of a plan in at most `max` wire bytes (at least the empty value). */
export function buildSized(plan: SizedPlan, max: number): Built {
  return plan.shape === "string" ? buildString(plan, Math.max(2, max)) : buildCollection(plan, Math.max(2, max));
}

/** A string of `length` "x": the padding of a filled request. */
export function padding(length: number): Built {
  const wire = cycleText('"', '"', ["x"], length, false);
  return { value: "x".repeat(length), wire, canon: wire, bytes: length + 2, count: length, shape: { members: 0, chars: length, depth: 0 }, lazy: false };
}

/** "tool.input object of 51 members", "tool.result string of 0 chars". */
export function sizedLabel(where: string, plan: SizedPlan, built: Built): string {
  const what = plan.shape === "string" ? `string of ${built.count} char${built.count === 1 ? "" : "s"}` : `${plan.shape} of ${built.count} member${built.count === 1 ? "" : "s"}`;
  return `${where} ${what}`;
}
