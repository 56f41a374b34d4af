import { KitError } from "../core/errors.js";
import { readInputFile } from "../core/inputs/index.js";
import { parseJson, type JsonValue } from "../core/json/index.js";
import type { JsonObject } from "../core/provider/types.js";

/** A configuration file: a regular file of at most 1 MiB (a request carrying it could not be larger). */
function readText(path: string, what: string): string {
  try {
    return readInputFile(path, "config", "config_invalid").toString("utf8");
  } catch (error) {
    if (error instanceof KitError) throw new KitError(error.code, `${what} ${error.message}`);
    throw error;
  }
}

/** Parses user-supplied JSON strictly (duplicates and trailing data are usage errors). */
function strictJson(text: string, what: string): JsonValue {
  const parsed = parseJson(text);
  const issue = parsed.issues[0];
  if (parsed.value === undefined || issue !== undefined) {
    const where = issue ? `line ${issue.line}, column ${issue.column}: ${issue.message}` : "not JSON";
    throw new KitError("config_invalid", `${what} is not valid JSON (${where})`);
  }
  return parsed.value;
}

function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export interface ConfigOptions {
  configJson?: string;
  configFile?: string;
  invalidConfigFile?: string;
}

/** The valid configuration (value + exact document) and the invalid ones, from the CLI options. */
export function readProviderConfigs(options: ConfigOptions): { config?: { value: JsonObject; document: string }; invalidConfigs: JsonObject[] } {
  if (options.configJson !== undefined && options.configFile !== undefined) {
    throw new KitError("usage", "give either --config-json or --config-file, not both");
  }
  const document = options.configJson ?? (options.configFile !== undefined ? readText(options.configFile, "--config-file") : undefined);
  let config: { value: JsonObject; document: string } | undefined;
  if (document !== undefined) {
    const value = strictJson(document, options.configJson !== undefined ? "--config-json" : `--config-file ${options.configFile}`);
    if (!isObject(value)) throw new KitError("config_invalid", "the configuration must be a JSON object");
    config = { value, document };
  }
  const invalidConfigs: JsonObject[] = [];
  if (options.invalidConfigFile !== undefined) {
    const value = strictJson(readText(options.invalidConfigFile, "--invalid-config-file"), `--invalid-config-file ${options.invalidConfigFile}`);
    const list = Array.isArray(value) ? value : [value];
    for (const [index, item] of list.entries()) {
      if (!isObject(item)) throw new KitError("config_invalid", `--invalid-config-file entry ${index + 1} is not a JSON object`);
      invalidConfigs.push(item);
    }
    if (invalidConfigs.length === 0) throw new KitError("config_invalid", "--invalid-config-file holds no configurations");
  }
  return { ...(config ? { config } : {}), invalidConfigs };
}
