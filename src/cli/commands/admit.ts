import type { Argv } from "yargs";
import { KitError } from "../../core/errors.js";
import { parseStep, STEP_SYNTAX } from "../../core/provider/admission-syntax.js";
import { candidateOf } from "../args.js";
import { resolveCandidate } from "../candidate.js";

const DEFAULT_TIMEOUT_MS = 6000;

/**
 * `admit PROVIDER --step ...`: runs describe and validate_config (nothing else), checks both
 * answers like `run`, then applies the v1alpha1 admission rules to every step. Exit 0 only when
 * every step is admitted; 1 otherwise; 2 for usage errors.
 */
export function admitCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "admit <candidate> [args..]",
    "say whether the v1alpha1 admission profile admits each requested step for a provider (provider side only)",
    (c) =>
      c
        .positional("candidate", { type: "string", demandOption: true, describe: "path to the provider executable" })
        .positional("args", { type: "string", array: true, describe: "arguments for the provider (put -- before ones that start with a dash)" })
        .option("step", { type: "string", array: true, demandOption: true, describe: `a step to admit, in configuration order: ${STEP_SYNTAX}` })
        .option("config-json", { type: "string", describe: "the provider's private configuration, as JSON (default {})" })
        .option("config-file", { type: "string", describe: "file holding the provider's private configuration" })
        .option("timeout", { type: "number", describe: `deadline of each of the two calls in ms (default ${DEFAULT_TIMEOUT_MS})` })
        .option("json", { type: "boolean", default: false, describe: "print the result as one JSON document instead of text" }),
    async (a) => {
      // Steps are read before anything runs: a malformed one is a usage error (exit 2).
      const { checkStepNames } = await import("../step-names.js");
      const steps = (Array.isArray(a.step) ? a.step : [a.step]).map((s) => checkStepNames(parseStep(String(s)), String(s)));
      if (steps.length === 0) throw new KitError("usage", `give at least one --step ${STEP_SYNTAX}`);
      const timeoutMs = a.timeout ?? DEFAULT_TIMEOUT_MS;
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new KitError("usage", "--timeout must be a positive integer");
      const { candidate, rest } = candidateOf(a);
      if (candidate === undefined) throw new KitError("usage", "give the provider executable");
      const argv = [resolveCandidate(candidate), ...rest];
      const [{ admitSteps }, { gatherEvidence }, { admissionReport, renderAdmission }, { recordProviderSession }, { readProviderConfigs }] = await Promise.all([
        import("../../core/provider/admission.js"), import("../../core/provider/admission-evidence.js"), import("../../core/provider/admission-report.js"), import("../../runner/provider/driver.js"), import("../provider-options.js"),
      ]);
      const { config } = readProviderConfigs({ ...(a.configJson !== undefined ? { configJson: a.configJson } : {}), ...(a.configFile !== undefined ? { configFile: a.configFile } : {}) });
      const transcript = await recordProviderSession({
        argv,
        ...(config ? { config } : {}),
        timeoutMs,
        runTimeoutMs: 2 * timeoutMs + 5000,
        send: { invalidConfigs: false, unknownKey: false, wrongTypes: false, invocations: false, matrix: false, dialects: false, hostile: false },
      });
      const { evidence, protocolFailures } = gatherEvidence(transcript);
      const report = admissionReport([candidate, ...rest], evidence, protocolFailures, admitSteps(evidence, steps));
      process.stdout.write(a.json ? `${JSON.stringify(report, null, 2)}\n` : renderAdmission(report));
      setCode(report.admitted ? 0 : 1);
    },
  );
}

