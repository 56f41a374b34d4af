import { KitError } from "../core/errors.js";
import { renderConsole } from "./console.js";
import { renderJson } from "./json.js";
import type { Reporter } from "./types.js";

/** Reporters by name, with the file each one writes into the output folder (console prints). */
export const REPORTERS: Record<string, { render: Reporter; file?: string }> = {
  console: { render: renderConsole },
  json: { render: renderJson, file: "report.json" },
};

export function reporterFor(name: string): { render: Reporter; file?: string } {
  const reporter = REPORTERS[name];
  if (reporter === undefined) throw new KitError("usage", `unknown reporter "${name}" (known: ${Object.keys(REPORTERS).join(", ")})`);
  return reporter;
}
