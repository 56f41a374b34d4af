import type { Check } from "../../report/judge.js";
import { API_VERSION, type JsonObject, type ProviderExchange, type ProviderTranscript } from "../types.js";
import { finding, judgeEach, NO_ANSWER, notApplicable, responses, show } from "./helpers.js";

const ID = "provider/envelope";
const CODE = /^[A-Za-z0-9_.-]{1,128}$/;
const SUCCESS_FIELDS = ["operations", "effects", "input_digest"];
const OK_FIELDS: Record<string, string[]> = {
  describe: ["api_version", "request_id", "status", "operations"],
  invoke: ["api_version", "request_id", "status", "input_digest", "effects"],
};
const ERROR_FIELDS = ["api_version", "request_id", "status", "error_code"];

type Pair = { exchange: ProviderExchange; response: JsonObject };

function errors(t: ProviderTranscript): Pair[] {
  return responses(t).filter((p) => p.response.status === "error");
}

/** Fields outside the method's envelope. validate_config ok answers are judged by ok-shape, success fields on errors by error-without-success-fields. */
function unknownFields({ exchange, response }: Pair): string[] {
  const status = response.status;
  if (status === "error") {
    return Object.keys(response).filter((k) => !ERROR_FIELDS.includes(k) && !SUCCESS_FIELDS.includes(k));
  }
  if (status !== "ok") return [];
  const allowed = OK_FIELDS[exchange.method];
  return allowed === undefined ? [] : Object.keys(response).filter((k) => !allowed.includes(k));
}

export const envelopeChecks: Check<ProviderTranscript>[] = [
  {
    clause: `${ID}/echoes-api-version`,
    judge: (t) =>
      judgeEach(
        responses(t),
        ({ exchange, response }) =>
          response.api_version === API_VERSION
            ? []
            : [finding(`${ID}/echoes-api-version`, exchange, "api_version is not repeated", { expected: show(API_VERSION), seen: show(response.api_version) })],
        NO_ANSWER,
      ),
  },
  {
    clause: `${ID}/echoes-request-id`,
    judge: (t) =>
      judgeEach(
        responses(t),
        ({ exchange, response }) =>
          response.request_id === exchange.requestId
            ? []
            : [finding(`${ID}/echoes-request-id`, exchange, "request_id does not match the request", { expected: show(exchange.requestId), seen: show(response.request_id) })],
        NO_ANSWER,
      ),
  },
  {
    clause: `${ID}/status-value`,
    judge: (t) =>
      judgeEach(
        responses(t),
        ({ exchange, response }) =>
          response.status === "ok" || response.status === "error"
            ? []
            : [finding(`${ID}/status-value`, exchange, "status is neither \"ok\" nor \"error\"", { expected: '"ok" or "error"', seen: show(response.status) })],
        NO_ANSWER,
      ),
  },
  {
    clause: `${ID}/no-unknown-fields`,
    judge: (t) =>
      judgeEach(
        responses(t).filter((p) => !(p.exchange.method === "validate_config" && p.response.status === "ok")),
        (pair) => {
          const extra = unknownFields(pair);
          return extra.length === 0
            ? []
            : [finding(`${ID}/no-unknown-fields`, pair.exchange, `unknown field${extra.length > 1 ? "s" : ""} ${extra.join(", ")}`, { expected: "only the fields of the method's envelope", seen: extra.join(", ") })];
        },
        NO_ANSWER,
      ),
  },
  {
    clause: `${ID}/error-code-form`,
    judge: (t) =>
      judgeEach(
        errors(t),
        ({ exchange, response }) =>
          typeof response.error_code === "string" && CODE.test(response.error_code)
            ? []
            : [finding(`${ID}/error-code-form`, exchange, "error_code is missing or malformed", { expected: "1-128 of A-Z a-z 0-9 _ . -", seen: show(response.error_code) })],
        notApplicable("the Provider never answered with status error, so there was no error answer to check"),
      ),
  },
  {
    clause: `${ID}/error-without-success-fields`,
    judge: (t) =>
      judgeEach(
        errors(t),
        ({ exchange, response }) => {
          const present = SUCCESS_FIELDS.filter((k) => Object.hasOwn(response, k));
          return present.length === 0
            ? []
            : [finding(`${ID}/error-without-success-fields`, exchange, `an error response carries ${present.join(", ")}`, { expected: "no operations, effects or input_digest", seen: present.join(", ") })];
        },
        notApplicable("the Provider never answered with status error, so there was no error answer to check"),
      ),
  },
];
