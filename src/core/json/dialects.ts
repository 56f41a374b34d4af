/**
 * The ways serde_json has written an f64, i.e. the "dialects" of the canonical form that
 * upstream hashes into input_digest. Found by running Rust programs linked against each
 * version over a corpus of ~60,000 number literals (test/fixtures/provider/dialect-vectors.json):
 *
 *   - both write the shortest digits that read back as the same f64, in fixed notation when
 *     the decimal exponent of the first digit is in -5..=15 (0.00001, 1000000000000000.0,
 *     integral values with ".0"), otherwise as d[.ddd]e<exp>;
 *   - ryu writes a positive exponent bare (1e16, 1.7976931348623157e308), zmij with a plus
 *     sign (1e+16, 1.7976931348623157e+308). Negative exponents (1e-7) are the same.
 *
 * No other difference showed up. The switch came with serde_json 1.0.147 (serde-rs/json#1304,
 * December 2025); zmij's own test suite compares it with ryu and allows only the "+". Before
 * 1.0.26 (2018) serde_json formatted floats with dtoa: not listed, as there is no build of it
 * to check against and the upstream library came years later.
 */
export type DigestDialectId = "ryu" | "zmij";

export interface DigestDialect {
  id: DigestDialectId;
  /** The serde_json releases that write floats this way. */
  versions: string;
  /** The build the vectors in the tests come from. */
  checkedWith: string;
  /** How the dialect writes 1e16. */
  example: string;
}

export const DIGEST_DIALECTS: readonly DigestDialect[] = [
  { id: "ryu", versions: "serde_json 1.0.26 to 1.0.146 (float formatter ryu)", checkedWith: "serde_json 1.0.87 with ryu 1.0.2 (Debian bookworm)", example: "1e16" },
  { id: "zmij", versions: "serde_json 1.0.147 and later (float formatter zmij)", checkedWith: "serde_json 1.0.154 with zmij 1.0.23 (Debian sid)", example: "1e+16" },
];

/** The dialect the kit binds requests in until a candidate shows it verifies another one. */
export const DEFAULT_DIGEST_DIALECT: DigestDialectId = "ryu";

export function isDigestDialect(id: string): id is DigestDialectId {
  return DIGEST_DIALECTS.some((d) => d.id === id);
}

export function digestDialect(id: DigestDialectId): DigestDialect {
  return DIGEST_DIALECTS.find((d) => d.id === id) as DigestDialect;
}

/** "zmij (serde_json 1.0.147 and later)": how reports name a dialect. */
export function dialectName(id: DigestDialectId): string {
  const versions = digestDialect(id).versions.replace(/ \(float formatter \w+\)$/, "");
  return `${id} (${versions})`;
}
