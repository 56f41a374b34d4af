import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KitError } from "../../src/core/errors.js";
import { Corpus, providerCaseKeys } from "../../src/fuzz/corpus-run.js";
import { corpusName, readCorpus, saveToCorpus } from "../../src/fuzz/corpus.js";
import { deserializeCase, replayFileOf } from "../../src/fuzz/replay.js";
import type { SerializedProviderCase } from "../../src/fuzz/types.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "awp-corpus-"));
  dirs.push(dir);
  return dir;
};

const providerCase = (text: string): SerializedProviderCase => ({ kind: "valid", label: "a valid invocation", purpose: "invoke", method: "invoke", requestId: "fuzz-1", text });
const file = (text: string) =>
  replayFileOf({ clause: "provider/envelope/echoes-request-id", message: "m", seed: 1, path: "0", candidate: { argv: ["/bin/provider"] }, replay: { protocol: "provider", case: providerCase(text) } });

describe("the fuzz corpus folder", () => {
  it("names a case by its content, writes it once and whole, and reads it back in name order", () => {
    const dir = join(temp(), "corpus");
    expect(readCorpus(dir, "provider")).toEqual({ entries: [] });
    const first = saveToCorpus(dir, file('{"api_version":"aw-provider/v1alpha1"}'));
    expect(first).toBe(join(dir, corpusName(file('{"api_version":"aw-provider/v1alpha1"}'))));
    // The same case again (found by another shard, at another time): nothing new.
    expect(saveToCorpus(dir, { ...file('{"api_version":"aw-provider/v1alpha1"}'), foundAt: "2000-01-01T00:00:00.000Z" })).toBeUndefined();
    saveToCorpus(dir, file('{"b":1}'));
    // Temporary files of a writer still at work, and other files, are not corpus files.
    writeFileSync(join(dir, ".provider-0123456789abcdef.json.1.aa.tmp"), "{");
    writeFileSync(join(dir, "notes.txt"), "x");
    const { entries, cut } = readCorpus(dir, "provider");
    expect(cut).toBeUndefined();
    expect(entries.map((e) => e.path)).toEqual(readdirSync(dir).filter((n) => /^provider-[0-9a-f]{16}\.json$/.test(n)).sort().map((n) => join(dir, n)));
    expect(readCorpus(dir, "agent-cli").entries).toEqual([]);
  });

  it("reads at most its limit and says what it left out; a malformed file is a usage error naming it", () => {
    const dir = temp();
    for (const n of [1, 2, 3]) saveToCorpus(dir, file(`{"n":${n}}`));
    const { entries, cut } = readCorpus(dir, "provider", { maxFiles: 2, maxBytes: 1 << 20 });
    expect(entries).toHaveLength(2);
    expect(cut).toMatch(/holds 3 provider cases; the kit read the first 2 by name \(at most 2 files\) and left 1 out/);
    writeFileSync(join(dir, "provider-ffffffffffffffff.json"), '{"format":"awp-conformance-replay"}');
    expect(() => readCorpus(dir, "provider")).toThrow(KitError);
    expect(() => readCorpus(dir, "provider")).toThrow(/provider-ffffffffffffffff\.json/);
  });

  it("keeps a generated case only when it reaches a clause outcome or a coverage bucket no earlier case reached", () => {
    const dir = temp();
    const corpus = Corpus.open(dir, "provider", { argv: ["/bin/provider"] }, 9);
    const small = deserializeCase(providerCase('{"api_version":"aw-provider/v1alpha1"}'));
    corpus.onProviderCase(small, 0, []);
    corpus.onProviderCase(small, 1, []);
    expect(readdirSync(dir)).toHaveLength(1);
    // Same buckets, but a clause it fails that no case failed before.
    corpus.onProviderCase(deserializeCase(providerCase('{"api_version":"aw-provider/v1alpha2"}')), 2, [{ clause: "provider/envelope/echoes-api-version", message: "m" }]);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(corpus.summary()).toEqual({ replayed: 0, failing: 0, saved: 2 });
    expect(providerCaseKeys(small)).toContain("kind: valid");
  });
});
