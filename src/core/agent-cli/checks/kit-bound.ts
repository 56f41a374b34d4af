/** Findings that rest only on a bound the kit chose (--turn-timeout, --stall-timeout, --task-output-limit...), marked as such. */
import type { KitBound } from "../../report/types.js";

/** "3 model requests". */
export const requestCount = (n: number): string => `${n} model request${n === 1 ? "" : "s"}`;

/** The mark of a finding at a kit-chosen bound: which option, its value (ms unless said), and what the CLI was doing when it was passed. */
export function kitBound(option: string, value: number, activity: string, unit: KitBound["unit"] = "ms"): KitBound {
  return { option, value: Math.round(value), unit, activity };
}
