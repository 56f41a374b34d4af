#!/usr/bin/env node
// A provider with NO nesting limit that refuses any tool.input that is not an object
// (with an error response, as a real upstream provider does: error_code
// invalid_tool_input). Otherwise it is provider-zmij.mjs's audit policy, verifying the
// input_digest in both serde_json float formats. It must fail exactly
// provider/robustness/rejects-excessive-depth: a probe that nested tool.input as an
// array would be refused for its type, not its depth, and hide the missing limit.

import { readFileSync } from "node:fs";
import { answer, digest, serve } from "./provider-zmij.mjs";

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && v.constructor === undefined;

serve(readFileSync(0), {
  maxDepth: Infinity,
  verify: (r) => [false, true].some((plus) => digest(r, plus) === r.input_digest),
  policy: (r) =>
    r.method === "invoke" && !isObject(r.event.tool.input)
      ? { api_version: r.api_version, request_id: r.request_id, status: "error", error_code: "invalid_tool_input" }
      : answer(r),
});
