import type { Check } from "../../report/judge.js";
import type { ProviderTranscript } from "../types.js";
import { againChecks } from "./again.js";
import { budgetChecks } from "./budget.js";
import { describeChecks } from "./describe.js";
import { dialectChecks } from "./dialects.js";
import { envelopeChecks } from "./envelope.js";
import { invokeChecks } from "./invoke.js";
import { privacyChecks } from "./privacy.js";
import { robustnessChecks } from "./robustness.js";
import { transportChecks } from "./transport.js";
import { validateConfigChecks } from "./validate-config.js";

/** Every provider check; each judges one clause of suites/provider/. */
export const providerChecks: readonly Check<ProviderTranscript>[] = [
  ...transportChecks,
  ...budgetChecks,
  ...envelopeChecks,
  ...describeChecks,
  ...validateConfigChecks,
  ...invokeChecks,
  ...dialectChecks,
  ...robustnessChecks,
  ...privacyChecks,
  ...againChecks,
];
