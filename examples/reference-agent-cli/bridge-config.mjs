// bridge-config.mjs: whether the managed-task bridge is on, and where it points.
//
// The bridge lets the model submit command tasks to an AWP control plane. It is
// OFF unless all three of these are present (the contract's names):
//
//   AWP_AGENT_MANAGED_TASKS_OPT_IN=1   the explicit opt-in (exactly "1")
//   AWP_CONTROL_PLANE_URL              the control plane's ORIGIN, e.g.
//                                      http://127.0.0.1:8100 (no path, query,
//                                      fragment or credentials)
//   AWP_CONTROL_PLANE_API_KEY          sent as `Authorization: Bearer <key>`;
//                                      a secret, never printed
//
// A half-made configuration is refused at startup rather than silently
// ignored, so an operator never believes the bridge is on when it is not, or
// sends a key somewhere without having opted in:
//
//   URL or key set, opt-in not "1"    managed_tasks_require_explicit_opt_in
//   opt-in "1", URL or key missing    managed_tasks_configuration_incomplete
//   URL not an origin                 invalid_control_plane_url
//   non-loopback URL over http        remote_control_plane_requires_https
//   non-loopback https URL without
//     AWP_AGENT_REMOTE_API_OPT_IN=1   remote_control_plane_requires_explicit_opt_in
//   key not 16..4096 bytes, or with
//     whitespace/control characters   invalid_control_plane_token
//
// An empty value counts as unset. The checks never quote the key.

import { StartupError } from "./codes.mjs";
import { LOOPBACK_HOSTS } from "./config.mjs";

const MIN_KEY_BYTES = 16;
const MAX_KEY_BYTES = 4096;
// Any whitespace (\s covers the Unicode spaces too), C0 controls, DEL, C1 controls.
const BAD_KEY_CHARS = /[\s\u0000-\u001f\u007f-\u009f]/;

/**
 * Reads the bridge variables. Returns null (bridge off) or
 * { origin: "http://127.0.0.1:8100", apiKey }. Throws StartupError.
 */
export function readBridgeConfig(env) {
  const optedIn = env.AWP_AGENT_MANAGED_TASKS_OPT_IN === "1";
  const url = env.AWP_CONTROL_PLANE_URL || "";
  const key = env.AWP_CONTROL_PLANE_API_KEY || "";
  if (!optedIn) {
    if (url !== "" || key !== "") {
      throw new StartupError("managed_tasks_require_explicit_opt_in", "AWP_CONTROL_PLANE_URL or AWP_CONTROL_PLANE_API_KEY is set but AWP_AGENT_MANAGED_TASKS_OPT_IN is not 1");
    }
    return null;
  }
  if (url === "" || key === "") {
    throw new StartupError("managed_tasks_configuration_incomplete", "AWP_AGENT_MANAGED_TASKS_OPT_IN=1 needs both AWP_CONTROL_PLANE_URL and AWP_CONTROL_PLANE_API_KEY");
  }
  return { origin: controlPlaneOrigin(url, env.AWP_AGENT_REMOTE_API_OPT_IN === "1"), apiKey: controlPlaneKey(key) };
}

function controlPlaneOrigin(text, remoteOptIn) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new StartupError("invalid_control_plane_url", "AWP_CONTROL_PLANE_URL is not a URL");
  }
  // Origin only: the API paths (/v1/tasks...) are ours to add. `?` and `#`
  // are looked for in the text too, since an empty query parses to "".
  const originOnly = url.pathname === "/" && url.search === "" && url.hash === "" && !/[?#]/.test(text);
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || !originOnly) {
    throw new StartupError("invalid_control_plane_url", "AWP_CONTROL_PLANE_URL must be an http(s) origin without credentials, path, query or fragment");
  }
  if (!LOOPBACK_HOSTS.has(url.hostname)) {
    // Same rule as the model URL (config.mjs): plain http only on this
    // machine. A remote control plane can run commands, so it also needs the
    // general remote-network opt-in of the contract's Security boundary.
    if (url.protocol !== "https:") {
      throw new StartupError("remote_control_plane_requires_https", "plain http is only allowed for localhost, 127.0.0.1 and [::1]");
    }
    if (!remoteOptIn) {
      throw new StartupError("remote_control_plane_requires_explicit_opt_in", "a remote control plane needs AWP_AGENT_REMOTE_API_OPT_IN=1");
    }
  }
  return url.origin;
}

function controlPlaneKey(key) {
  const bytes = Buffer.byteLength(key, "utf8");
  if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES || BAD_KEY_CHARS.test(key)) {
    throw new StartupError("invalid_control_plane_token", `AWP_CONTROL_PLANE_API_KEY must be ${MIN_KEY_BYTES}..${MAX_KEY_BYTES} bytes without whitespace or control characters`);
  }
  return key;
}
