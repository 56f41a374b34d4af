import fc from "fast-check";
import type { HostileKind } from "../../core/provider/types.js";
import type { ProviderCase, ProviderFuzzContext } from "../types.js";
import { duplicateKeysArb, malformedDigestArb, malformedJsonArb, mismatchedDigestArb, trailingDocumentArb } from "./hostile-text.js";
import {
  excessiveDepthArb,
  outOfBoundsArb,
  outOfRangeIntegerArb,
  oversizedArb,
  resultBeforeToolArb,
  unknownFieldArb,
  unknownMethodArb,
  wrongApiVersionArb,
} from "./hostile-value.js";
import { badAllowedEffectsArb, badConfigArb, badEventNameArb, badRequestIdArb, malformedRevisionArb, undeclaredOperationArb } from "./hostile-fields.js";
import { invocableOps, validCaseArb } from "./valid.js";

type Bases = fc.Arbitrary<ProviderCase>;

/** The valid cases hostile ones derive from: any, tool.before only, with a result_projection. */
interface BaseSets {
  any: Bases;
  before?: Bases;
  projected?: Bases;
}

/** One generator per kind; undefined when the context has no suitable base. */
const GENERATORS: Record<HostileKind, (sets: BaseSets, ctx: ProviderFuzzContext) => fc.Arbitrary<ProviderCase> | undefined> = {
  "duplicate-keys": (s) => duplicateKeysArb(s.any),
  "trailing-document": (s) => trailingDocumentArb(s.any),
  "malformed-json": (s) => malformedJsonArb(s.any),
  "out-of-bounds": (s) => outOfBoundsArb(s.any),
  "oversized-request": (s) => oversizedArb(s.any),
  "excessive-depth": (s) => excessiveDepthArb(s.any),
  "out-of-range-integer": (s) => outOfRangeIntegerArb(s.any),
  "unknown-field": (s) => unknownFieldArb(s.any, s.projected),
  "wrong-api-version": (s) => wrongApiVersionArb(s.any),
  "unknown-method": (s) => unknownMethodArb(s.any),
  "malformed-digest": (s) => malformedDigestArb(s.any),
  "mismatched-digest": (s) => mismatchedDigestArb(s.any),
  "result-before-tool": (s) => (s.before === undefined ? undefined : resultBeforeToolArb(s.before)),
  "bad-config": (s) => badConfigArb(s.any),
  "malformed-config-revision": (s) => malformedRevisionArb(s.any),
  "bad-request-id": (s) => badRequestIdArb(s.any),
  "bad-allowed-effects": (s) => badAllowedEffectsArb(s.any),
  "bad-event-name": (s) => badEventNameArb(s.any),
  "undeclared-operation": (s, ctx) => undeclaredOperationArb(s.any, ctx),
};

/**
 * Bases of hostile cases stay at 16 KiB or less (collections of up to a few thousand members):
 * a defect (a trailing copy of the request, a 1025-character name) must not also push the
 * request over 1 MiB, or a refusal would prove nothing about the defect; and a hostile case
 * binds its request three times. Requests up to the limit are the valid cases' part.
 */
export const HOSTILE_BASE_MAX_BYTES = 16 * 1024;

function baseSets(ctx: ProviderFuzzContext): BaseSets {
  const maxBytes = HOSTILE_BASE_MAX_BYTES;
  const sets: BaseSets = { any: validCaseArb(ctx, { maxBytes }) };
  if (invocableOps(ctx, ["tool.before"]).length > 0) sets.before = validCaseArb(ctx, { events: ["tool.before"], maxBytes });
  if (invocableOps(ctx).some((pair) => pair.effects.includes("replace_result"))) sets.projected = validCaseArb(ctx, { projection: true, maxBytes });
  return sets;
}

function generators(ctx: ProviderFuzzContext): [HostileKind, fc.Arbitrary<ProviderCase>][] {
  const sets = baseSets(ctx);
  return (Object.entries(GENERATORS) as [HostileKind, (s: BaseSets, c: ProviderFuzzContext) => fc.Arbitrary<ProviderCase> | undefined][])
    .map(([kind, make]): [HostileKind, fc.Arbitrary<ProviderCase> | undefined] => [kind, make(sets, ctx)])
    .filter((entry): entry is [HostileKind, fc.Arbitrary<ProviderCase>] => entry[1] !== undefined);
}

/** The hostile kinds this context can produce (result-before-tool needs an operation on tool.before). */
export function hostileKinds(ctx: ProviderFuzzContext): HostileKind[] {
  return generators(ctx).map(([kind]) => kind);
}

/**
 * Hostile requests, each derived from a valid case (its `base`, sent first as the control) with
 * one defect; every kind equally likely. Parameters that matter (sizes, depths, positions) are
 * fast-check integers, so failures shrink toward the smallest defect.
 */
export function hostileCaseArb(ctx: ProviderFuzzContext): fc.Arbitrary<ProviderCase> {
  return fc.oneof(...generators(ctx).map(([, arb]) => arb));
}

/** The fuzzer's mix: about 60% valid invoke requests, 40% hostile ones. */
export function providerCaseArb(ctx: ProviderFuzzContext): fc.Arbitrary<ProviderCase> {
  return fc.oneof({ weight: 3, arbitrary: validCaseArb(ctx) }, { weight: 2, arbitrary: hostileCaseArb(ctx) });
}
