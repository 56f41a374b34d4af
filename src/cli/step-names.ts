import { KitError } from "../core/errors.js";
import { didYouMean } from "../core/nearest.js";
import type { AdmissionStep } from "../core/provider/admission.js";
import { GUARD_EVENTS } from "../core/provider/admission-rules.js";
import { STEP_SYNTAX } from "../core/provider/admission-syntax.js";
import { EFFECT_NAMES, EVENT_NAMES } from "../core/provider/types.js";

/**
 * A step typed on the command line names events and effects of the protocol's vocabulary: a
 * name outside it (tool.before:blok) is a typo, a usage error naming the valid forms, never
 * a step the admission profile "rejects". Known names the profile does not run (session.start)
 * are still judged, and rejected with the profile's reason.
 */
export function checkStepNames(step: AdmissionStep, text: string): AdmissionStep {
  const events: readonly string[] = [...EVENT_NAMES, ...GUARD_EVENTS];
  const effects: readonly string[] = EFFECT_NAMES;
  const wrong = (what: string, name: string, known: readonly string[]): KitError =>
    new KitError("usage", `--step ${JSON.stringify(text)}: unknown ${what} ${JSON.stringify(name)}${didYouMean(name, known)}; the ${what}s are ${known.join(", ")} (expected ${STEP_SYNTAX})`);
  if (!events.includes(step.event)) throw wrong("event", step.event, events);
  for (const effect of step.effects) if (!effects.includes(effect)) throw wrong("effect", effect, effects);
  return step;
}
