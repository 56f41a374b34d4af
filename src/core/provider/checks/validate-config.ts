import type { Check } from "../../report/judge.js";
import { isAnswered, readResponse } from "../response.js";
import type { Purpose, ProviderExchange, ProviderTranscript } from "../types.js";
import { finding, judgeEach, responses, show, skip } from "./helpers.js";
import { configBlocker, NO_INVALID_CONFIGS } from "./reasons.js";

const ID = "provider/validate-config";

function withPurpose(t: ProviderTranscript, purpose: Purpose): ProviderExchange[] {
  return t.exchanges.filter((e) => e.purpose === purpose);
}

/** The Host accepts a configuration only from an exit-0 answer with status ok; anything else rejects it. */
function accepted(e: ProviderExchange): boolean {
  return isAnswered(e) && readResponse(e.stdout).object?.status === "ok";
}

function rejectionCheck(clause: string, purpose: Purpose, none: (t: ProviderTranscript) => string): Check<ProviderTranscript> {
  return {
    clause,
    judge: (t) =>
      judgeEach(
        withPurpose(t, purpose).filter((e) => !e.outcome.timedOut && e.outcome.spawnError === undefined),
        (e) => (accepted(e) ? [finding(clause, e, "the configuration was accepted", { expected: "a rejection (status error)", seen: 'status "ok"' })] : []),
        skip(none(t)),
      ),
  };
}

export const validateConfigChecks: Check<ProviderTranscript>[] = [
  {
    clause: `${ID}/accepts-valid-config`,
    judge: (t) => {
      const answered = withPurpose(t, "config-valid").filter(isAnswered);
      const rejectedDefault = configBlocker(t);
      if (!t.context.configGiven && answered.length > 0 && rejectedDefault !== undefined) return skip(rejectedDefault);
      return judgeEach(
        answered,
        (e) => {
          if (accepted(e)) return [];
          const r = readResponse(e.stdout).object;
          return [finding(`${ID}/accepts-valid-config`, e, "the configuration declared valid was not accepted", { expected: 'status "ok"', seen: r ? `status ${show(r.status)} ${show(r.error_code)}` : "no response object" })];
        },
        skip("validate_config produced no readable response: make it print one JSON object on stdout and exit 0 (see provider/transport/valid-request-exits-zero)"),
      );
    },
  },
  {
    clause: `${ID}/ok-shape`,
    judge: (t) =>
      judgeEach(
        responses(t).filter((p) => p.exchange.method === "validate_config" && p.response.status === "ok"),
        ({ exchange, response }) => {
          const keys = Object.keys(response).sort().join(",");
          return keys === "api_version,request_id,status"
            ? []
            : [finding(`${ID}/ok-shape`, exchange, `an accepted configuration was answered with fields ${keys}`, { expected: "api_version, request_id, status", seen: keys })];
        },
        skip(configBlocker(t) ?? "no configuration was accepted"),
      ),
  },
  rejectionCheck(`${ID}/rejects-invalid-config`, "config-invalid", () => NO_INVALID_CONFIGS),
  rejectionCheck(`${ID}/rejects-unknown-setting`, "config-unknown-key", (t) => configBlocker(t) ?? "the probe was not sent"),
  rejectionCheck(
    `${ID}/rejects-wrong-typed-setting`,
    "config-wrong-type",
    (t) => configBlocker(t) ?? "the valid configuration has no top-level settings to give another type: if the Provider has settings, give a configuration that uses them (--config-json or --config-file)",
  ),
];
