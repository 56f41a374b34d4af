import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { canonicalJson, DIGEST_DIALECTS, formatF64, parseJson, serdeReadFloat, serdeReadsExactly, type DigestDialectId } from "../../../src/core/json/index.js";
import { computeInputDigest, dialectSensitive, inputDigests } from "../../../src/core/provider/digest.js";

type Output = string | { error: string };
interface Vectors {
  numbers: { literal: string; ryu: Output; zmij: Output }[];
  requests: { name: string; request: string; ryu: { canonical: string; digest: string }; zmij: { canonical: string; digest: string } }[];
}

const vectors = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../fixtures/provider/dialect-vectors.json"), "utf8")) as Vectors;

/** What the kit writes for `[literal]` in a dialect, reading the literal as serde_json does. */
function kitOutput(literal: string, dialect: DigestDialectId): Output {
  const parsed = parseJson(`[${literal}]`, { numbers: "lossless", floats: "serde_json" });
  const range = parsed.issues.find((i) => i.kind === "non-finite-number");
  if (range !== undefined) return { error: "out of range" };
  return canonicalJson(parsed.value ?? null, dialect).slice(1, -1);
}

describe("digest dialects against serde_json 1.0.87 (ryu) and 1.0.154 (zmij)", () => {
  it("has oracle vectors for both versions", () => {
    expect(vectors.numbers.length).toBeGreaterThan(800);
    expect(DIGEST_DIALECTS.map((d) => d.id)).toEqual(["ryu", "zmij"]);
  });

  for (const dialect of ["ryu", "zmij"] as const) {
    it(`reads and writes every number literal as serde_json's ${dialect} build`, () => {
      const wrong: string[] = [];
      for (const v of vectors.numbers) {
        const want = v[dialect];
        const got = kitOutput(v.literal, dialect);
        // 1.0.87 alone refuses 18446744073709551616.0 and .5 (a reader bug fixed later); the kit reads it as 1.0.154 does.
        if (typeof want === "object" && typeof v.zmij === "string") continue;
        if (typeof want === "object" ? typeof got !== "object" : got !== want) wrong.push(`${v.literal}: serde ${JSON.stringify(want)}, kit ${JSON.stringify(got)}`);
      }
      expect(wrong).toEqual([]);
    });

    it(`computes the ${dialect} digest of whole requests as serde_json does`, () => {
      for (const r of vectors.requests) {
        expect(canonicalJson(parseJson(r.request, { numbers: "lossless", floats: "serde_json" }).value ?? null, dialect)).toBe(r[dialect].canonical);
        expect(computeInputDigest(r.request, dialect)).toBe(r[dialect].digest);
      }
    });
  }

  it("the only reader difference between the versions is the long-integer fraction bug of 1.0.87", () => {
    const differ = vectors.numbers.filter((v) => (typeof v.ryu === "object") !== (typeof v.zmij === "object"));
    expect(differ.map((v) => v.literal)).toEqual(["18446744073709551616.0", "18446744073709551616.5"]);
  });

  it("the dialects differ only in the sign of positive exponents", () => {
    for (const v of vectors.numbers) {
      if (typeof v.ryu === "string" && typeof v.zmij === "string") expect(v.zmij).toBe(v.ryu.replace(/e(\d)/, "e+$1"));
    }
    expect(formatF64(1e16, "zmij")).toBe("1e+16");
    expect(formatF64(1.7976931348623157e308, "zmij")).toBe("1.7976931348623157e+308");
    expect(formatF64(1e-7, "zmij")).toBe("1e-7");
    expect(formatF64(1e15, "zmij")).toBe("1000000000000000.0");
  });

  it("serde_json's reader is not correctly rounded: the oracles show literals it reads one f64 off", () => {
    const off = vectors.numbers.filter((v) => typeof v.ryu === "string" && /[.eE]/.test(v.literal) && Number(v.ryu) !== Number(v.literal) && Number.isFinite(Number(v.literal)));
    expect(off.map((v) => v.literal)).toContain("1e-307");
    expect(serdeReadFloat("1e-307")).toBe(1.0000000000000001e-307);
    expect(serdeReadsExactly(1e-307)).toBe(false);
    // The values the kit's dialect probe sends are read exactly.
    for (const x of [1.7976931348623157e308, 1e21, 1e-7]) expect(serdeReadsExactly(x)).toBe(true);
  });

  it("tells dialect-sensitive requests apart", () => {
    const [sensitive, plain] = vectors.requests;
    expect(dialectSensitive(sensitive!.request)).toBe(true);
    expect(dialectSensitive(plain!.request)).toBe(false);
    expect(inputDigests(sensitive!.request).map((d) => d.digest)).toEqual([sensitive!.ryu.digest, sensitive!.zmij.digest]);
  });

  it("the quick look at the bytes never passes over a literal the dialects write differently", () => {
    // dialectSensitive reads a request whole only when its bytes, strings left out, hold an
    // exponent or 16 digits in a row: every oracle literal the two builds write differently does.
    const differ = vectors.numbers.filter((v) => typeof v.ryu === "string" && v.ryu !== v.zmij);
    expect(differ.length).toBeGreaterThan(100);
    for (const v of differ) {
      expect(dialectSensitive(new TextEncoder().encode(`{"s":"no 1e16 here","n":${v.literal}}`)), v.literal).toBe(true);
      expect(dialectSensitive(`{"n":[${v.literal}],"d":"sha256:3e"}`), v.literal).toBe(true);
    }
    // Exponents and digit runs inside strings (digests, texts) are not numbers.
    expect(dialectSensitive(`{"d":"sha256:3e9e","t":"10000000000000000.0 \\" 1e99","n":1.5}`)).toBe(false);
  });

  test.prop([fc.double({ noNaN: true, noDefaultInfinity: true })])("a request with any float is judged as reading it whole would", (x) => {
    const request = `{"a":"1e99","n":${JSON.stringify(x)}}`;
    const whole = new Set(inputDigests(request).map((d) => d.digest)).size > 1;
    expect(dialectSensitive(request)).toBe(whole);
  });

  test.prop([fc.double({ noNaN: true, noDefaultInfinity: true })])("zmij is ryu with a plus sign on positive exponents", (x) => {
    expect(formatF64(x, "zmij")).toBe(formatF64(x, "ryu").replace(/e(\d)/, "e+$1"));
  });
});
