import fc from "fast-check";
import { bind } from "../../core/provider/requests.js";
import type { HostileKind, JsonObject } from "../../core/provider/types.js";
import type { ProviderCase, ProviderFuzzContext } from "../types.js";
import { hostileFromValue, renamed, updateAt } from "./case.js";

/**
 * Hostile cases with one envelope field out of form (the fixed suite's probes of the same
 * kinds, with more variants): a config that is not an object, a config_revision, request_id,
 * allowed_effects or event name outside its schema, and an operation the description lacks.
 */

type Bases = fc.Arbitrary<ProviderCase>;
type Change = (request: JsonObject) => JsonObject;

const effects = (r: JsonObject): string[] => (Array.isArray(r.allowed_effects) ? (r.allowed_effects as string[]) : []);
const revision = (r: JsonObject): string => String(r.config_revision);

type FieldKind = "bad-config" | "malformed-config-revision" | "bad-request-id" | "bad-allowed-effects" | "bad-event-name";

const VARIANTS: Record<FieldKind, readonly [string, Change][]> = {
  "bad-config": [
    ["no config", ({ config: _config, ...rest }) => rest],
    ["config an array holding the configuration", (r) => ({ ...r, config: [r.config ?? {}] })],
    ["config null", (r) => ({ ...r, config: null })],
    ["config a JSON string", (r) => ({ ...r, config: JSON.stringify(r.config ?? {}) })],
  ],
  "malformed-config-revision": [
    ["config_revision in upper case", (r) => ({ ...r, config_revision: revision(r).toUpperCase().replace(/^[0-9]/, "A") })],
    ["config_revision of 63 hex digits", (r) => ({ ...r, config_revision: revision(r).slice(1) })],
    ["config_revision of 65 hex digits", (r) => ({ ...r, config_revision: `${revision(r)}0` })],
    ["config_revision with a non-hex letter", (r) => ({ ...r, config_revision: `g${revision(r).slice(1)}` })],
    ["an empty config_revision", (r) => ({ ...r, config_revision: "" })],
  ],
  "bad-request-id": [
    ["a request_id with a space", (r) => ({ ...r, request_id: `${String(r.request_id).slice(0, 60)} x` })],
    ["a request_id with a non-ASCII letter", (r) => ({ ...r, request_id: `${String(r.request_id).slice(0, 60)}-\u00e9` })],
    ["a request_id with a tab", (r) => ({ ...r, request_id: `${String(r.request_id).slice(0, 60)}\t` })],
  ],
  "bad-allowed-effects": [
    ["allowed_effects empty", (r) => ({ ...r, allowed_effects: [] })],
    ["allowed_effects with an effect twice", (r) => ({ ...r, allowed_effects: [...effects(r), effects(r)[0] ?? "observe"] })],
    ['allowed_effects with "allow"', (r) => ({ ...r, allowed_effects: [...effects(r), "allow"] })],
    ['allowed_effects with "Observe"', (r) => ({ ...r, allowed_effects: [...effects(r), "Observe"] })],
  ],
  "bad-event-name": ["session.start", "permission.request", "security.violation", "tool.during", "Tool.Before", ""].map((name): [string, Change] => [
    `event name ${JSON.stringify(name)}`,
    (r) => updateAt(r, ["event"], (e) => ({ ...e, name })),
  ]),
};

function variantArb(kind: HostileKind, bases: Bases, variants: readonly [string, Change][]): fc.Arbitrary<ProviderCase> {
  return fc.record({ base: bases, variant: fc.nat({ max: variants.length - 1 }) }).map(({ base, variant }) => {
    const [label, change] = variants[variant] as [string, Change];
    return hostileFromValue(kind, label, base, bind(change(renamed(base))));
  });
}

export const badConfigArb = (bases: Bases): fc.Arbitrary<ProviderCase> => variantArb("bad-config", bases, VARIANTS["bad-config"]);
export const malformedRevisionArb = (bases: Bases): fc.Arbitrary<ProviderCase> => variantArb("malformed-config-revision", bases, VARIANTS["malformed-config-revision"]);
export const badRequestIdArb = (bases: Bases): fc.Arbitrary<ProviderCase> => variantArb("bad-request-id", bases, VARIANTS["bad-request-id"]);
export const badAllowedEffectsArb = (bases: Bases): fc.Arbitrary<ProviderCase> => variantArb("bad-allowed-effects", bases, VARIANTS["bad-allowed-effects"]);
export const badEventNameArb = (bases: Bases): fc.Arbitrary<ProviderCase> => variantArb("bad-event-name", bases, VARIANTS["bad-event-name"]);

/** An operation name the context's description does not declare (well-formed, 1..128 printable characters). */
export function undeclaredOperationArb(bases: Bases, ctx: ProviderFuzzContext): fc.Arbitrary<ProviderCase> {
  const declared = new Set(ctx.operations.map((op) => op.name));
  const names = fc.constantFrom("x-awp-undeclared", "audit", "Check", "check2", "describe", "*").filter((name) => !declared.has(name));
  return fc.record({ base: bases, name: names }).map(({ base, name }) =>
    hostileFromValue("undeclared-operation", `operation ${JSON.stringify(name)}, not declared`, base, bind({ ...renamed(base), operation: name })),
  );
}
