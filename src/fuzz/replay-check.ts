import { LIMITS } from "../core/agent-cli/launch.js";
import { checkNumbers, inputError, parseInputJson, printable, REPLAY_LIMITS, validateInput } from "../core/inputs/index.js";
import { parseJson, type JsonObject, type JsonValue } from "../core/json/index.js";
import type { ReplayFile } from "./replay.js";

const isObject = (v: JsonValue | undefined): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** Payload the kit sends as it is: the fuzzed blocks of a turn and the provider configuration. */
const payload = (path: string): boolean => /^\/case\/steps\/\d+\/blocks$/.test(path) || path === "/candidate/config" || path === "/against/config";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The case must have the shape of its protocol; checked first so the message names the right one. */
function checkCase(file: string, protocol: JsonValue | undefined, c: JsonValue | undefined): void {
  if (protocol === "provider" && c !== undefined) validateInput(c, "replay.schema.json#/$defs/providerCase", file, { prefix: "/case" });
  if (protocol !== "agent-cli" || c === undefined) return;
  if (!isObject(c) || !Array.isArray(c.steps)) throw inputError(file, `/case must be an object with "steps" (an agent-cli replay)`);
  if (c.steps.length > REPLAY_LIMITS.maxSteps) throw inputError(file, `/case/steps holds ${c.steps.length} steps, more than the limit of ${REPLAY_LIMITS.maxSteps}`);
  c.steps.forEach((step, i) => {
    const at = `/case/steps/${i}`;
    validateInput(step, "replay.schema.json#/$defs/step", file, { prefix: at });
    const s = step as JsonObject;
    const need = s.op === "turn" ? "text" : s.op === "malformed" ? "line" : s.op === "pause" ? "ms" : undefined;
    if (need !== undefined && s[need] === undefined) throw inputError(file, `${at} lacks ${JSON.stringify(need)}, which a ${String(s.op)} step needs`);
    if (typeof s.ms === "number" && s.ms > REPLAY_LIMITS.maxPauseMs) throw inputError(file, `${at}/ms is ${s.ms}, longer than the limit of ${REPLAY_LIMITS.maxPauseMs} ms`);
  });
}

/** A well-formed request (a valid case, or the control of a hostile one) is one JSON object the kit can bind. */
function isOneObject(c: JsonObject): boolean {
  const bytes = typeof c.base64 === "string" ? Buffer.from(c.base64, "base64") : Buffer.from(typeof c.text === "string" ? c.text : "", "utf8");
  const parsed = parseJson(bytes, { numbers: "lossless", floats: "serde_json", maxIssues: 10 });
  const blocking = parsed.issues.filter((issue) => !["size", "depth", "integer-range"].includes(issue.kind));
  return blocking.length === 0 && isObject(parsed.value);
}

function checkProviderCase(file: string, c: JsonObject, at: string, control = false): void {
  if (typeof c.budgetMs === "number" && c.budgetMs > REPLAY_LIMITS.maxTimeoutMs) throw inputError(file, `${at}/budgetMs is ${c.budgetMs}, more than the limit of ${REPLAY_LIMITS.maxTimeoutMs} ms`);
  if (typeof c.base64 === "string" && !BASE64.test(c.base64)) throw inputError(file, `${at}/base64 is not base64`);
  if ((c.kind === "valid" || control) && !isOneObject(c)) throw inputError(file, `${at}: a well-formed case (kind "valid", or the base of a hostile one) must carry one JSON object, in text or base64`);
  if (isObject(c.base)) checkProviderCase(file, c.base, `${at}/base`, true);
}

/** What the file would launch: argv, environment and model within the Desktop's launch limits, no NUL or option-like model. */
function checkLaunch(file: string, candidate: JsonObject, at = "/candidate"): void {
  const argv = candidate.argv as string[];
  if (argv.length > REPLAY_LIMITS.maxArgs) throw inputError(file, `${at}/argv holds ${argv.length} arguments, more than the limit of ${REPLAY_LIMITS.maxArgs}`);
  argv.forEach((arg, i) => {
    if (arg.length > REPLAY_LIMITS.maxArgChars) throw inputError(file, `${at}/argv/${i} is ${arg.length} characters long, more than the limit of ${REPLAY_LIMITS.maxArgChars}`);
    if (arg.includes("\u0000")) throw inputError(file, `${at}/argv/${i} contains a NUL character`);
  });
  if (argv[0] === "") throw inputError(file, `${at}/argv/0 is empty: the file names no program`);
  const env = (candidate.env ?? {}) as Record<string, string>;
  const names = Object.keys(env);
  if (names.length > REPLAY_LIMITS.maxEnvEntries) throw inputError(file, `${at}/env holds ${names.length} entries, more than the limit of ${REPLAY_LIMITS.maxEnvEntries}`);
  for (const name of names) {
    if (!LIMITS.envKey.test(name)) throw inputError(file, `${at}/env has the name ${printable(JSON.stringify(name))}, not an environment variable name`);
    const value = env[name] ?? "";
    if (value.length > REPLAY_LIMITS.maxEnvValueChars || value.includes("\u0000")) throw inputError(file, `${at}/env/${name} is longer than ${REPLAY_LIMITS.maxEnvValueChars} characters or contains a NUL character`);
  }
  const model = candidate.model;
  if (typeof model === "string" && (model.length === 0 || model.length > REPLAY_LIMITS.maxModelChars || model.startsWith("-") || CONTROL.test(model))) {
    throw inputError(file, `${at}/model must be 1 to ${REPLAY_LIMITS.maxModelChars} characters, without control characters, and must not start with "-"`);
  }
  for (const key of ["turnTimeoutMs", "timeoutMs"]) {
    const ms = candidate[key];
    if (typeof ms === "number" && ms > REPLAY_LIMITS.maxTimeoutMs) throw inputError(file, `${at}/${key} is ${ms}, more than the limit of ${REPLAY_LIMITS.maxTimeoutMs} ms`);
  }
}

/** Parses and checks the bytes of a replay file; every failure is "FILE: what is wrong". */
export function checkReplay(bytes: Uint8Array, file: string): ReplayFile {
  const value = parseInputJson(bytes, file, "replay", { lenient: ["lone-surrogate", "integer-range"] });
  if (isObject(value)) checkCase(file, value.protocol, value.case);
  validateInput(value, "replay.schema.json", file);
  const top = value as JsonObject;
  checkNumbers(value, file, "", payload);
  if (!String(top.clause).startsWith(`${String(top.protocol)}/`)) throw inputError(file, `/clause ${printable(String(top.clause))} is not a clause of the protocol ${String(top.protocol)}`);
  checkLaunch(file, top.candidate as JsonObject);
  if (top.against !== undefined) {
    if (top.protocol !== "provider") throw inputError(file, "/against: only a provider replay runs two sides (differential fuzzing)");
    checkLaunch(file, top.against as JsonObject, "/against");
  }
  if (top.protocol === "provider") checkProviderCase(file, top.case as JsonObject, "/case");
  return value as unknown as ReplayFile;
}
