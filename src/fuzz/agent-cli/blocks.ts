/**
 * Content blocks of fuzzed user turns beside the kit's leading text block: more text blocks,
 * images and documents with common and odd but valid media types (upper case, legacy aliases,
 * a 127-character vendor subtype, text and binary documents of every size), and now and then
 * a block type the contract does not know.
 *
 * A turn's blocks are a count, drawn bucket by bucket (1, a few, tens, hundreds, thousands),
 * cycling through a short pattern of blocks: a failure on many blocks shrinks by a binary
 * search on the count (the pattern first goes to one plain text block, in one step).
 */
import fc from "fast-check";
import { PROBE_BLOCK_TYPE } from "../../core/agent-cli/scenarios.js";
import { TINY_PDF, TINY_PNG } from "../../runner/agent-cli/attachments.js";
import { boundaryInteger, simplestFirst } from "../provider/boundary.js";

export type Block = Record<string, unknown>;

/**
 * A 1×1 GIF89a built byte by byte: header, a 1×1 logical screen with a two-colour global
 * table (black, white), one image descriptor, LZW minimum code size 2, one data sub-block
 * (clear, pixel 0, end), and the trailer.
 */
export const TINY_GIF = Buffer.from([
  ...Buffer.from("GIF89a", "latin1"),
  0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00,
  0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
  0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  0x02, 0x02, 0x44, 0x01, 0x00,
  0x3b,
]).toString("base64");

/** Most blocks in one turn. */
export const MAX_BLOCKS = 4096;
/** Bytes of the blocks of one turn (their JSON), at most. */
export const MAX_BLOCK_BYTES = 1024 * 1024;
/** The largest document drawn, in decoded bytes. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

/** A 127-character RFC 6838 subtype: the longest restricted name. */
const LONG_SUBTYPE = `vnd.awp-conformance.${"x".repeat(127 - "vnd.awp-conformance.".length)}`;

const source = (mediaType: string, data: string): Block => ({ type: "base64", media_type: mediaType, data });
const image = (mediaType: string, data: string): Block => ({ type: "image", source: source(mediaType, data) });
const document = (mediaType: string, data: string): Block => ({ type: "document", source: source(mediaType, data) });

/** Images whose media type matches their bytes, some spelled oddly (media types are case-insensitive). */
const IMAGES: readonly Block[] = [
  image("image/png", TINY_PNG),
  image("IMAGE/PNG", TINY_PNG),
  image("image/x-png", TINY_PNG),
  image("image/gif", TINY_GIF),
  image("Image/Gif", TINY_GIF),
];

/** Document media types for text and for opaque bytes. */
const TEXT_TYPES = ["text/plain", "text/markdown", "text/csv", "application/json", "TEXT/PLAIN"] as const;
const BINARY_TYPES = ["application/octet-stream", `application/${LONG_SUBTYPE}`, "application/x-pdf"] as const;

const documentArb: fc.Arbitrary<Block> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(document("application/pdf", TINY_PDF), document("APPLICATION/PDF", TINY_PDF)) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        kind: fc.constantFrom("text", "binary"),
        type: fc.nat({ max: 4 }),
        bytes: boundaryInteger(1, MAX_DOCUMENT_BYTES, [[1, 9], [10, 999], [1000, 99_999], [100_000, MAX_DOCUMENT_BYTES]], 100),
      })
      .map(({ kind, type, bytes }) => {
        if (kind === "text") return document(TEXT_TYPES[type % TEXT_TYPES.length] as string, Buffer.from("awp fuzz document\n".repeat(Math.ceil(bytes / 18)).slice(0, bytes)).toString("base64"));
        const mediaType = BINARY_TYPES[type % BINARY_TYPES.length] as string;
        const data = mediaType === "application/x-pdf" ? TINY_PDF : Buffer.alloc(bytes, 0xa5).toString("base64");
        return document(mediaType, data);
      }),
  },
);

const textBlockArb = (text: fc.Arbitrary<string>): fc.Arbitrary<Block> => text.map((t) => ({ type: "text", text: t }));

/** One block: text, image, document, or (rarely) a type the contract does not list. */
export function blockArb(text: fc.Arbitrary<string>): fc.Arbitrary<Block> {
  return fc.oneof(
    { weight: 3, arbitrary: textBlockArb(text) },
    { weight: 3, arbitrary: fc.constantFrom(...IMAGES) },
    { weight: 3, arbitrary: documentArb },
    { weight: 1, arbitrary: fc.constant<Block>({ type: PROBE_BLOCK_TYPE, marker: "awp-fuzz-probe" }) },
  );
}

/** Block counts, one bucket drawn uniformly, then a count inside it. */
const COUNT_BUCKETS = [1, [2, 9], [10, 99], [100, 999], [1000, MAX_BLOCKS]] as const;

/** The blocks of a turn: `count` of them, cycling through `pattern`, within MAX_BLOCK_BYTES. */
export interface BlockPlan {
  pattern: Block[];
  count: number;
}

export function blockPlanArb(text: fc.Arbitrary<string>): fc.Arbitrary<BlockPlan> {
  return fc.record({
    pattern: simplestFirst<Block[]>([{ type: "text", text: "x" }], fc.array(blockArb(text), { minLength: 1, maxLength: 6, size: "small" })),
    count: boundaryInteger(1, MAX_BLOCKS, COUNT_BUCKETS, 100),
  });
}

/** The blocks of a plan (the pattern's objects, shared), as many as fit in `maxBytes` of JSON (at least one). */
export function buildBlocks(plan: BlockPlan, maxBytes = MAX_BLOCK_BYTES): Block[] {
  const sizes = plan.pattern.map((b) => Buffer.byteLength(JSON.stringify(b), "utf8") + 1);
  const blocks: Block[] = [];
  let bytes = 0;
  for (let i = 0; i < plan.count; i++) {
    const size = sizes[i % sizes.length] as number;
    if (blocks.length > 0 && bytes + size > maxBytes) break;
    bytes += size;
    blocks.push(plan.pattern[i % plan.pattern.length] as Block);
  }
  return blocks;
}
