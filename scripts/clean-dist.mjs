// Before the build: tsc writes into dist/ but never removes from it, so a file whose source is gone
// (a renamed module, a source map from an earlier configuration) would stay and be published.
import { rmSync } from "node:fs";

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
