// After the build: stores the parsed, validated clause catalogue beside the compiled loader, so
// `awp-conformance list` starts without the YAML reader and Ajv (src/core/clauses/snapshot.ts).
// A file edited after the build no longer matches its hash and is read the full way.
import { rmSync, writeFileSync } from "node:fs";
import { suiteSnapshot } from "../dist/src/core/clauses/catalogue.js";
import { snapshotPath } from "../dist/src/core/clauses/snapshot.js";

rmSync(snapshotPath(), { force: true });
writeFileSync(snapshotPath(), JSON.stringify(suiteSnapshot(["provider", "agent-cli", "host"])));
