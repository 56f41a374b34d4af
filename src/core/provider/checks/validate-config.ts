import type { Check } from "../../report/judge.js";
import { isAnswered, readResponse } from "../response.js";
import type { Purpose, ProviderExchange, ProviderTranscript } from "../types.js";
import { finding, judgeEach, responses, show, skip } from "./helpers.js";

const ID = "provider/validate-config";

function withPurpose(t: ProviderTranscript, purpose: Purpose): ProviderExchange[] {
  return t.exchanges.filter((e) => e.purpose === purpose);
}

/** The Host accepts a configuration only from an exit-0 answer with status ok; anything else rejects it. */
function accepted(e: ProviderExchange): boolean {
  return isAnswered(e) && readResponse(e.stdout).object?.status === "ok";
}

function rejectionCheck(clause: string, purpose: Purpose, none: string): Check<ProviderTranscript> {
  return {
    clause,
    judge: (t) =>
      judgeEach(
        withPurpose(t, purpose).filter((e) => !e.outcome.timedOut && e.outcome.spawnError === undefined),
        (e) => (accepted(e) ? [finding(clause, e, "the configuration was accepted", { expected: "a rejection (status error)", seen: 'status "ok"' })] : []),
        skip(none),
      ),
  };
}

export const validateConfigChecks: Check<ProviderTranscript>[] = [
  {
    clause: `${ID}/accepts-valid-config`,
    judge: (t) => {
      const answered = withPurpose(t, "config-valid").filter(isAnswered);
      if (!t.context.configGiven && answered.length > 0 && !answered.some(accepted)) {
        return skip("no configuration was given (--config-json/--config-file) and the Provider rejects the empty one");
      }
      return judgeEach(
        answered,
        (e) => {
          if (accepted(e)) return [];
          const r = readResponse(e.stdout).object;
          return [finding(`${ID}/accepts-valid-config`, e, "the configuration declared valid was not accepted", { expected: 'status "ok"', seen: r ? `status ${show(r.status)} ${show(r.error_code)}` : "no response object" })];
        },
        skip("validate_config produced no readable response"),
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
        skip("no configuration was accepted"),
      ),
  },
  rejectionCheck(`${ID}/rejects-invalid-config`, "config-invalid", "no invalid configurations were given (--invalid-config-file)"),
  rejectionCheck(`${ID}/rejects-unknown-setting`, "config-unknown-key", "the valid configuration was not accepted, so the probe was not sent"),
  rejectionCheck(`${ID}/rejects-wrong-typed-setting`, "config-wrong-type", "the valid configuration has no settings to give a wrong type, or was not accepted"),
];
