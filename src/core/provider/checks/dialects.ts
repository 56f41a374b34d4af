import { digestDialect, type DigestDialectId } from "../../json/index.js";
import type { Check } from "../../report/judge.js";
import { dialectSensitive } from "../digest.js";
import { responseObject } from "../response.js";
import { DIALECT_FLOATS } from "../requests.js";
import type { ProviderExchange, ProviderTranscript } from "../types.js";
import { finding, judgeEach, notApplicable, skip } from "./helpers.js";
import { howAnswered, invocationBlocker } from "./reasons.js";

const CLAUSE = "provider/invoke/digest-dialects";
const accepted = (e: ProviderExchange): boolean => responseObject(e)?.status === "ok";
const versionsOf = (id: DigestDialectId | undefined): string => (id === undefined ? "an unknown serde_json" : digestDialect(id).versions.replace(/ \(float formatter \w+\)$/, ""));

/**
 * Judges the invocations the kit sent in more than one digest dialect: the dialect probe
 * (exponent floats in tool.input, bound in each dialect) and any invocation refused in one
 * dialect and accepted in another. Each refusal of a dialect the Provider did not verify is
 * a portability finding.
 */
export const dialectChecks: Check<ProviderTranscript>[] = [
  {
    clause: CLAUSE,
    judge: (t) => {
      const probes = t.exchanges.filter((e) => e.purpose === "dialect");
      if (probes.length > 0 && !probes.some(accepted)) {
        const how = probes.map((e) => `${e.digestDialect ?? "?"}: ${howAnswered(e)}`).join("; ");
        return notApplicable(
          `the Provider refused the invocation with exponent floats (${DIALECT_FLOATS.join(", ")} in tool.input) in every digest dialect (${how}) while it accepted the same invocation without them, so its dialect cannot be told apart from a refusal of such numbers`,
        );
      }
      // The dialects an accepted request the dialects disagree about was bound in.
      const acceptedDialects = [...new Set(t.exchanges.filter((e) => e.digestDialect !== undefined && accepted(e) && (e.purpose === "dialect" || dialectSensitive(e.request))).map((e) => e.digestDialect))];
      const items = t.exchanges.filter((e) => e.purpose === "dialect" || e.dialectRefused === true);
      return judgeEach(
        items,
        (e) => {
          if (e.dialectRefused !== true) return [];
          const others = acceptedDialects.filter((d) => d !== e.digestDialect).join(" and ");
          return [
            finding(
              CLAUSE,
              e,
              `the invocation bound in the ${e.digestDialect ?? "?"} dialect was refused while the same request bound in ${others} was accepted: Hosts built on ${versionsOf(e.digestDialect)} would be refused`,
              { expected: "the request accepted whatever dialect bound it (or its input_digest only echoed)", seen: howAnswered(e) },
            ),
          ];
        },
        skip(invocationBlocker(t) ?? "the dialect probe was not sent: it needs an invocation the Provider answers ok"),
      );
    },
  },
];
