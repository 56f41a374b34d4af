export { INPUT_LIMITS, LIST_LIMITS, CHECK_LIMITS, MiB, REPLAY_LIMITS, REPORT_LIMITS, formatBytes, type InputKind, type InputLimit } from "./limits.js";
export { inputError, readInputFile } from "./read.js";
export { checkText, hasBom, lineAt, splitLines, withoutBom } from "./text.js";
export { checkNumbers, scanJson, firstSchemaError, inputSchema, parseInputJson, printable, validateInput } from "./json.js";
export { parseSavedReport } from "./report.js";
