import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { locateCandidate, resolvedOnPathNote } from "../../src/cli/candidate.js";
import { KitError } from "../../src/core/errors.js";

const root = mkdtempSync(join(tmpdir(), "awp-candidate-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(dir: string, name: string, mode: number): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, mode);
  return path;
}

function refusal(run: () => unknown): KitError {
  try {
    run();
  } catch (error) {
    if (error instanceof KitError) return error;
    throw error;
  }
  throw new Error("accepted");
}

const a = join(root, "a");
const b = join(root, "b");
const c = join(root, "c");
const tool = file(b, "tool", 0o755);
file(a, "tool", 0o644);
file(c, "plain", 0o644);
mkdirSync(join(a, "dir"), { recursive: true });
const PATH = [a, b, c].join(delimiter);

describe("locateCandidate", () => {
  it("looks a bare name up on PATH as execvp does: the first executable regular file wins", () => {
    expect(locateCandidate("tool", { PATH }, "/")).toEqual({ file: tool, onPath: true });
    // A folder of that name is passed over like a non-executable file.
    file(c, "dir", 0o755);
    expect(locateCandidate("dir", { PATH }, "/")).toEqual({ file: join(c, "dir"), onPath: true });
  });

  it("takes an empty PATH entry as the working folder", () => {
    expect(locateCandidate("tool", { PATH: `${delimiter}/nonexistent` }, b)).toEqual({ file: tool, onPath: true });
  });

  it("resolves a path with a slash against the working folder, never on PATH", () => {
    expect(locateCandidate("./tool", { PATH: "" }, b)).toEqual({ file: tool, onPath: false });
    expect(locateCandidate(tool, {}, "/")).toEqual({ file: tool, onPath: false });
  });

  // `candidate node does not exist (looked at ./node)` and one tag for "not executable" too (issue 27).
  it("says not found, not executable and not a regular file apart, each with its code and exit 2", () => {
    const missing = refusal(() => locateCandidate("nosuch", { PATH }, "/"));
    expect([missing.code, missing.exitCode]).toEqual(["candidate_not_found", 2]);
    expect(missing.message).toBe("candidate nosuch was not found: looked in the 3 PATH entries and found no executable file nosuch; give its path (./nosuch for one in this folder)");
    const plain = refusal(() => locateCandidate("plain", { PATH }, "/"));
    expect([plain.code, plain.exitCode]).toEqual(["candidate_not_executable", 2]);
    expect(plain.message).toMatch(/^candidate plain is not executable: PATH names .*\/c\/plain, which may not be run \(chmod \+x /);
    const direct = refusal(() => locateCandidate(join(c, "plain"), {}, "/"));
    expect([direct.code, direct.exitCode]).toEqual(["candidate_not_executable", 2]);
    const folder = refusal(() => locateCandidate(join(a, "dir"), {}, "/"));
    expect([folder.code, folder.exitCode, folder.message]).toEqual(["candidate_not_regular_file", 2, `candidate ${join(a, "dir")} is not a regular file (a folder at ${join(a, "dir")})`]);
    const gone = refusal(() => locateCandidate("./gone", {}, a));
    expect([gone.code, gone.message]).toEqual(["candidate_not_found", `candidate ./gone does not exist (looked at ${join(a, "gone")})`]);
    expect(refusal(() => locateCandidate("tool", {}, "/")).message).toMatch(/^candidate tool was not found: PATH is empty/);
  });

  it("says what was launched and why, once", () => {
    expect(resolvedOnPathNote("node", "/usr/bin/node")).toMatch(/^candidate node resolved on PATH to \/usr\/bin\/node; the launch contract wants an absolute path/);
  });
});
