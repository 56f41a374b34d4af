// npm's `prepare`: `npm ci` / `npm install` in a clone build the kit here. `npx awp-conformance` run in
// the clone also triggers it: npm links the folder into its npx cache the first time it sees that
// folder, and runs `prepare` in the folder itself. A second build then would empty dist/ under any
// kit already running from it (and cost seconds), so a built kit is left as it is for `npm exec`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const built = existsSync(new URL("../dist/src/cli/main.js", import.meta.url));
if (process.env.npm_command === "exec" && built) process.exit(0);
const npm = process.env.npm_execpath;
const result = npm === undefined
  ? spawnSync("npm", ["run", "build"], { stdio: "inherit" })
  : spawnSync(process.execPath, [npm, "run", "build"], { stdio: "inherit" });
if (result.error !== undefined) throw result.error;
process.exit(result.status ?? 1);
