import { KitError } from "../errors.js";
import type { AdmissionStep } from "./admission.js";

export const STEP_SYNTAX = "EVENT:EFFECT[,EFFECT...][@OPERATION][/on_error=ACTION][/guarantee=G][/tools=SEL[,SEL...]][/required=false]";

const usage = (text: string, reason: string): KitError => new KitError("usage", `--step ${JSON.stringify(text)}: ${reason} (expected ${STEP_SYNTAX})`);
const TOKEN = /^[!-~]+$/;

/**
 * Reads one --step value. Only the syntax is checked here: an unknown event or effect is a
 * step the profile rejects (exit 1), not a usage error.
 */
export function parseStep(text: string): AdmissionStep {
  const [head = "", ...options] = text.split("/");
  const colon = head.indexOf(":");
  if (colon <= 0) throw usage(text, "no EVENT: before the effects");
  const event = head.slice(0, colon);
  const [effectPart = "", operation, ...extra] = head.slice(colon + 1).split("@");
  if (extra.length > 0) throw usage(text, "more than one @OPERATION");
  if (operation !== undefined && !TOKEN.test(operation)) throw usage(text, "empty or blank operation after @");
  const effects = effectPart.split(",");
  if (effects.some((e) => !TOKEN.test(e))) throw usage(text, "an empty or blank effect");
  if (!TOKEN.test(event)) throw usage(text, "a blank event");
  const step: AdmissionStep = { event, effects, ...(operation !== undefined ? { operation } : {}) };
  for (const option of options) {
    const eq = option.indexOf("=");
    const key = eq < 0 ? option : option.slice(0, eq);
    const value = eq < 0 ? "" : option.slice(eq + 1);
    if (!TOKEN.test(value)) throw usage(text, `option ${JSON.stringify(option)} has no value`);
    if (key === "on_error") step.onError = value;
    else if (key === "guarantee") step.guarantee = value;
    else if (key === "tools") {
      const tools = value.split(",");
      if (tools.some((t) => t === "")) throw usage(text, "an empty tool selector");
      step.tools = tools;
    } else if (key === "required") {
      if (value !== "true" && value !== "false") throw usage(text, "required must be true or false");
      step.required = value === "true";
    } else throw usage(text, `unknown option ${JSON.stringify(key)} (on_error, guarantee, tools or required)`);
  }
  return step;
}
