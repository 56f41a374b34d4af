/**
 * What `npm publish` would ship: `npm pack --dry-run --json` lists the tarball without writing it
 * (--ignore-scripts: no `prepare` build; the test suite runs after `npm run build`, so dist/ is there).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

interface PackEntry {
  path: string;
  size: number;
}

interface Pack {
  name: string;
  size: number;
  unpackedSize: number;
  files: PackEntry[];
}

/**
 * Bounds on the tarball, measured when they were set: 864 kB packed, 4.08 MB unpacked (731 files),
 * without source maps (they added 1.36 MB for 320 maps) and screenshots (1.22 MB of PNG). The
 * bounds leave room for the kit to grow (about 40 % packed, 20 % unpacked) but not for either
 * of those to come back, nor for a new folder of captures or builds. With the native spawner
 * (its C sources and client) the kit reached 1.10 MB packed and 5.06 MB unpacked (926 files);
 * the unpacked bound moved to 5.5 MB, which the maps or the screenshots would still break.
 */
const MAX_PACKED_BYTES = 1_200_000;
const MAX_UNPACKED_BYTES = 5_500_000;

let pack: Pack;
let paths: string[];

beforeAll(() => {
  if (!existsSync(`${root}dist/src/cli/main.js`)) throw new Error("dist/ is not built: run `npm run build` first (npm test does)");
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  [pack] = JSON.parse(out) as [Pack];
  paths = pack.files.map((f) => f.path);
});

describe("the npm package", () => {
  it("ships the license, the readme, the CLI, the data the kit reads and the action", () => {
    // action.yml with the script its first step runs, so the action works from an installed package too.
    for (const file of ["LICENSE", "README.md", "package.json", "action.yml", "scripts/action-kit.mjs", "dist/src/cli/main.js", "dist/src/index.js", "dist/src/index.d.ts"]) expect(paths, file).toContain(file);
    expect(paths.filter((p) => p.startsWith("scripts/"))).toEqual(["scripts/action-kit.mjs"]);
    for (const folder of ["schemas/", "suites/provider/", "suites/agent-cli/", "golden/", "examples/reference-provider/", "examples/reference-agent-cli/"]) {
      expect(paths.some((p) => p.startsWith(folder)), folder).toBe(true);
    }
  });

  it("ships every file package.json points at (bins, exports, types)", () => {
    const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { bin: Record<string, string>; exports: Record<string, Record<string, string> | string>; types: string };
    const exported = Object.values(manifest.exports).flatMap((e) => (typeof e === "string" ? [e] : Object.values(e)));
    for (const target of [...Object.values(manifest.bin), ...exported, manifest.types]) expect(paths, target).toContain(target.replace(/^\.\//, ""));
  });

  it("carries the Apache License 2.0 that package.json names", () => {
    const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { license: string };
    expect(manifest.license).toBe("Apache-2.0");
    const license = readFileSync(`${root}LICENSE`, "utf8");
    expect(license).toMatch(/^\s*Apache License\n\s*Version 2\.0, January 2004\n\s*http:\/\/www\.apache\.org\/licenses\/\n/);
    expect(license).toContain("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION");
    expect(license).toContain("END OF TERMS AND CONDITIONS");
    // All nine sections of the terms.
    for (const section of ["Definitions", "Grant of Copyright License", "Grant of Patent License", "Redistribution", "Submission of Contributions", "Trademarks", "Disclaimer of Warranty", "Limitation of Liability", "Accepting Warranty or Additional Liability"]) {
      expect(license, section).toMatch(new RegExp(`\\n\\s+\\d\\. ${section}\\.`));
    }
    expect(license).toContain("Copyright 2026 The awp-conformance authors");
  });

  it("ships no source maps, no TypeScript sources, no tests and no screenshots", () => {
    expect(paths.filter((p) => p.endsWith(".map"))).toEqual([]);
    expect(paths.filter((p) => p.startsWith("src/") || (p.endsWith(".ts") && !p.endsWith(".d.ts")))).toEqual([]);
    expect(paths.filter((p) => p.startsWith("test/") || p.startsWith("dist/test/") || p.startsWith("dist/bench/"))).toEqual([]);
    expect(paths.filter((p) => p.startsWith("docs/screenshots/") || p.endsWith(".png"))).toEqual([]);
    expect(paths.filter((p) => p.endsWith(".tsbuildinfo") || p.startsWith("node_modules/") || p.startsWith("reports/"))).toEqual([]);
  });

  it("no compiled file refers to a source map", () => {
    const js = paths.filter((p) => p.endsWith(".js") && p.startsWith("dist/"));
    expect(js.length).toBeGreaterThan(50);
    const referring = js.filter((p) => readFileSync(`${root}${p}`, "utf8").includes("//# sourceMappingURL="));
    expect(referring).toEqual([]);
  });

  it(`stays under ${MAX_PACKED_BYTES} bytes packed and ${MAX_UNPACKED_BYTES} unpacked`, () => {
    expect(pack.name).toBe("awp-conformance");
    expect(pack.size).toBeLessThan(MAX_PACKED_BYTES);
    expect(pack.unpackedSize).toBeLessThan(MAX_UNPACKED_BYTES);
  });
});
