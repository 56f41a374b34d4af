/** check-launch's provider-host options: the configured providers and the host's own outcomes. */
import { KitError } from "../core/errors.js";
import { readInputFile } from "../core/inputs/read.js";
import type { ConfiguredProvider, HostOutcome } from "../core/host/types.js";
import { parseJsonOption, stringArray, stringRecord } from "./agent-options.js";

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const KEYS = new Set(["args", "cwd", "env", "enabled"]);

/** --expect-providers-json: `{"NAME": {"args": [...], "cwd"?: "DIR", "env"?: {...}, "enabled"?: bool}}`. */
export function providersOption(text: string): Record<string, ConfiguredProvider> {
  const flag = "--expect-providers-json";
  const value = parseJsonOption(text, flag);
  if (!isObject(value) || Object.keys(value).length === 0) throw new KitError("config_invalid", `${flag} must be a JSON object naming each configured provider: {"NAME": {"args": [...], "cwd": "DIR", "env": {...}, "enabled": true}}`);
  const out: Record<string, ConfiguredProvider> = {};
  for (const [name, entry] of Object.entries(value)) {
    const what = `${flag} provider ${JSON.stringify(name)}`;
    if (!isObject(entry)) throw new KitError("config_invalid", `${what} must be an object with "args" (the arguments after the executable)`);
    const unknown = Object.keys(entry).filter((k) => !KEYS.has(k));
    if (unknown.length > 0) throw new KitError("config_invalid", `${what} has unknown key${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")} (known: args, cwd, env, enabled)`);
    if (entry.cwd !== undefined && typeof entry.cwd !== "string") throw new KitError("config_invalid", `${what}: "cwd" must be a string`);
    if (entry.enabled !== undefined && typeof entry.enabled !== "boolean") throw new KitError("config_invalid", `${what}: "enabled" must be true or false`);
    out[name] = {
      args: stringArray(entry.args, `${what} "args"`),
      enabled: entry.enabled !== false,
      ...(typeof entry.cwd === "string" ? { cwd: entry.cwd } : {}),
      ...(entry.env !== undefined ? { env: stringRecord(entry.env, `${what} "env"`) } : {}),
    };
  }
  return out;
}

/** --host-outcomes FILE: `{"REQUEST_ID": "failure" | "decision"}`, as the host classified each invoke's answer. */
export function outcomesOption(file: string): Record<string, HostOutcome> {
  const value = parseJsonOption(readInputFile(file, "config").toString("utf8"), `--host-outcomes ${file}`);
  const valid = isObject(value) && Object.values(value).every((v) => v === "failure" || v === "decision");
  if (!valid) throw new KitError("config_invalid", `--host-outcomes ${file} must hold a JSON object mapping each invoke request_id to "failure" or "decision"`);
  return value as Record<string, HostOutcome>;
}
