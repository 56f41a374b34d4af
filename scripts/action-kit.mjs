// The first step of the composite action (action.yml): where the kit comes from and the cache keys.
// It runs on the job's own Node, before anything is installed, so it uses nothing but node: and
// stops with an annotation when that Node is older than the kit's engines range.
//
// Reads KIT_VERSION (the kit-version input), ACTION_PATH (the action's checkout; else GITHUB_ACTION_PATH), RUNNER_OS,
// RUNNER_TEMP; appends to GITHUB_OUTPUT:
//   source       npm (kit-version given: install awp-conformance@VERSION) or checkout (pack the action's checkout)
//   npm-cache    a private npm cache folder for the kit (the job's own ~/.npm is left alone)
//   npm-key      its actions/cache key: the version asked for, or the checkout's package-lock.json
//   npm-restore  the prefix of earlier keys (npm's cache is content-addressed, an older one still helps)
//   kit-key      for checkout: a digest of every file the build and the tarball are made from
//   tarballs     the folder the packed tarball is kept in (cached under kit-key)
//   home         the prefix the kit is installed into (npm install --prefix), per job
import { createHash } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/** What the build reads and the tarball holds; dist/ and node_modules/ are made from these. */
const SOURCES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "LICENSE", "README.md", "action.yml", "src", "scripts", "schemas", "suites", "golden", "examples", "docs"];

/** Every regular file under the paths that exist, sorted, relative to root. */
function files(root, paths) {
  const found = [];
  const walk = (rel) => {
    let stat;
    try {
      stat = statSync(join(root, rel));
    } catch {
      return;
    }
    if (stat.isDirectory()) for (const name of readdirSync(join(root, rel))) walk(`${rel}/${name}`);
    else if (stat.isFile()) found.push(rel);
  };
  for (const path of paths) walk(path);
  return found.sort();
}

/** A digest of the files' names and contents. */
function digest(root, paths) {
  const hash = createHash("sha256");
  for (const rel of files(root, paths)) {
    const content = readFileSync(join(root, rel));
    hash.update(`${rel}\0${content.length}\0`).update(content);
  }
  return hash.digest("hex").slice(0, 24);
}

/** True when version (x.y.z) satisfies a range written as ">=x.y" or ">=x.y.z" (the form package.json uses). */
function satisfies(version, range) {
  const want = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (want === null) return true;
  const have = version.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const w = Number(want[i + 1] ?? 0);
    if (have[i] !== w) return have[i] > w;
  }
  return true;
}

const env = process.env;
const actionPath = env.ACTION_PATH || env.GITHUB_ACTION_PATH || process.cwd();
const manifest = JSON.parse(readFileSync(join(actionPath, "package.json"), "utf8"));
const engines = manifest.engines?.node ?? "";
if (!satisfies(process.versions.node, engines)) {
  console.log(`::error title=awp-conformance::the kit needs Node ${engines}; this job has ${process.version}. Set up a newer Node before this step, or give the action node-version (it then runs your candidate on that Node too).`);
  process.exit(1);
}

const version = (env.KIT_VERSION ?? "").trim();
const os = env.RUNNER_OS ?? process.platform;
const cache = join(homedir(), ".cache", "awp-conformance");
const restore = `awp-conformance-npm-${os}-`;
const outputs = version !== ""
  ? { source: "npm", "npm-key": `${restore}registry-${version.replace(/[^A-Za-z0-9._-]/g, "_")}`, "kit-key": "" }
  : { source: "checkout", "npm-key": `${restore}${digest(actionPath, ["package-lock.json"])}`, "kit-key": `awp-conformance-kit-${digest(actionPath, SOURCES)}` };
const tarballs = join(cache, "kit", outputs["kit-key"] || "none");
const lines = { ...outputs, "npm-cache": join(cache, "npm"), "npm-restore": restore, tarballs, home: join(env.RUNNER_TEMP || tmpdir(), "awp-conformance-kit") };
const text = Object.entries(lines).map(([k, v]) => `${k}=${v}\n`).join("");
if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, text);
else process.stdout.write(text);
