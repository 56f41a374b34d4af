// After the build: the package's bins (dist/src/cli/main.js, dist/src/mocks/*.js) must be executable, or
// `npx awp-conformance` in a fresh clone fails with "Permission denied" (tsc writes 0644).
import { chmodSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { bin } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
for (const path of Object.values(bin)) {
  const file = `${root}${path}`;
  chmodSync(file, statSync(file).mode | 0o111);
}
