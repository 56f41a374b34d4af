/**
 * awp-conformance as a library: run a suite, check a response, compute a digest.
 * The CLI is a thin layer over these functions.
 */
export { runProviderSuite, type RunProviderSuiteOptions, type ProviderSuiteRun } from "./runner/provider/suite.js";
export { recordProviderSession, type ProviderSuiteOptions } from "./runner/provider/driver.js";
export { judgeProviderTranscript } from "./core/provider/judge.js";
export { checkProviderResponse, type ResponseCheckInput } from "./core/provider/check-response.js";
export { computeInputDigest, inputDigests, configRevision } from "./core/provider/digest.js";
export { DIGEST_DIALECTS, DEFAULT_DIGEST_DIALECT, type DigestDialect, type DigestDialectId } from "./core/json/index.js";
export { parseJson, canonicalJson, wireJson, type JsonValue, type JsonIssue, type ParseResult } from "./core/json/index.js";
export { loadCatalogue } from "./core/clauses/catalogue.js";
export { compilePattern, makeSelector, type Selection } from "./core/clauses/patterns.js";
export { bucketOf, EXIT_CODES, exitCodeFor, incompleteGroups, summarize, worseExitCode, type VerdictExitCode } from "./core/report/judge.js";
export { KitError, type KitErrorCode } from "./core/errors.js";
export { renderConsole } from "./reporters/console.js";
export { renderJson } from "./reporters/json.js";
export { renderJunit } from "./reporters/junit.js";
export { renderTap } from "./reporters/tap.js";
export { renderHtml } from "./reporters/html.js";
export { buildMatrix, type MatrixInput } from "./core/report/matrix.js";
export { renderMatrixHtml } from "./reporters/matrix-html.js";
export { renderMatrixMarkdown } from "./reporters/matrix-markdown.js";
export { REPORTERS } from "./reporters/all.js";
export { applyExpectations, parseExpectations, type ExpectationEntry } from "./core/report/expectations.js";
export { runAgentCliSuite, type RunAgentCliSuiteOptions } from "./runner/agent-cli/suite.js";
export { judgeAgentRun } from "./core/agent-cli/judge.js";
export { parseTranscript, transcriptToJsonl } from "./core/agent-cli/golden.js";
export { startModelFixture, renderDirective, parseDirective, type ModelFixture } from "./servers/index.js";
export { fuzzProvider, evaluateProviderCase } from "./fuzz/provider-run.js";
export { fuzzAgentCli, runAgentSteps } from "./fuzz/agent-cli/index.js";
export { readReplay } from "./fuzz/replay.js";
export { replayCase } from "./fuzz/replay-run.js";
export type * from "./core/report/types.js";
export type * from "./core/report/matrix-types.js";
export type { ProviderExchange, ProviderTranscript, CallOutcome, JsonObject } from "./core/provider/types.js";
