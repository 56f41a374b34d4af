// config.mjs: the environment this CLI is configured with.
//
// The Desktop passes the child only a small allowlist of OS variables plus the
// operator's AWP_AGENT_CLI_ENV_JSON entries, so everything agent-specific
// arrives here through these variables:
//
//   AWP_REFERENCE_API_BASE_URL  required. An OpenAI-compatible base URL such as
//                               http://127.0.0.1:8080/v1; we POST to
//                               <base>/chat/completions.
//   AWP_REFERENCE_API_KEY       optional. Sent as `Authorization: Bearer <key>`.
//                               It is a secret: it is never printed, not even
//                               on stderr.
//   AWP_REFERENCE_TIMEOUT_MS    optional, default 60000. A model request that
//                               produces no bytes for this long is aborted.
//   AWP_REFERENCE_STATE_DIR     optional, default $HOME/.awp-reference-agent-cli.
//                               Private session history lives under it.
//
// The managed-task bridge has variables of its own: see bridge-config.mjs.

import { homedir } from "node:os";
import { join } from "node:path";
import { StartupError } from "./codes.mjs";

const DEFAULT_TIMEOUT_MS = 60_000;
// setTimeout() cannot wait longer than this.
const MAX_TIMEOUT_MS = 2_147_483_647;
/** Hosts that are this machine: plain http is only ever allowed to them. */
export const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Reads and checks the environment. Throws StartupError. */
export function readConfig(env) {
  return {
    chatUrl: chatCompletionsUrl(env.AWP_REFERENCE_API_BASE_URL),
    apiKey: apiKey(env.AWP_REFERENCE_API_KEY),
    timeoutMs: timeoutMs(env.AWP_REFERENCE_TIMEOUT_MS),
    stateDir: env.AWP_REFERENCE_STATE_DIR || join(env.HOME || homedir(), ".awp-reference-agent-cli"),
  };
}

function chatCompletionsUrl(base) {
  if (!base) throw new StartupError("missing_api_base_url", "AWP_REFERENCE_API_BASE_URL is not set");
  let url;
  try {
    url = new URL(base);
  } catch {
    throw new StartupError("invalid_api_base_url", "AWP_REFERENCE_API_BASE_URL is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new StartupError("invalid_api_base_url", "AWP_REFERENCE_API_BASE_URL must be http(s)");
  }
  // Credentials belong in AWP_REFERENCE_API_KEY, where they are never echoed;
  // a query or fragment would end up in the middle of the joined path.
  if (url.username || url.password || url.search || url.hash) {
    throw new StartupError("invalid_api_base_url", "AWP_REFERENCE_API_BASE_URL must not carry credentials, a query or a fragment");
  }
  // Plain HTTP is only acceptable on this machine: anywhere else the prompt,
  // the answer and the API key would cross the network unencrypted.
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new StartupError("insecure_remote_url", "plain http is only allowed for localhost, 127.0.0.1 and [::1]");
  }
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/chat/completions`;
  return url.href;
}

function apiKey(key) {
  if (!key) return null;
  // A header value cannot hold control characters. Refuse it here, because the
  // HTTP client's own error message would quote the (secret) value.
  if (/[\u0000-\u001f\u007f]/.test(key)) {
    throw new StartupError("invalid_api_key", "AWP_REFERENCE_API_KEY contains control characters");
  }
  return key;
}

function timeoutMs(text) {
  if (text === undefined || text === "") return DEFAULT_TIMEOUT_MS;
  const value = /^[0-9]{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= MAX_TIMEOUT_MS)) {
    throw new StartupError("invalid_timeout", "AWP_REFERENCE_TIMEOUT_MS must be an integer number of milliseconds");
  }
  return value;
}
