import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KitError } from "../../../src/core/errors.js";
import { checkText, INPUT_LIMITS, readInputFile, splitLines, withoutBom } from "../../../src/core/inputs/index.js";

const dir = mkdtempSync(join(tmpdir(), "awp-inputs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string): string => join(dir, name);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).exitCode).toBe(2);
    return (error as KitError).message;
  }
  throw new Error("expected a refusal");
}

const fifo = at("fifo.json");
const hasFifo = spawnSync("mkfifo", [fifo]).status === 0;

describe("readInputFile: regular files within the limit, nothing else", () => {
  it("reads a regular file and a symlink to one", () => {
    writeFileSync(at("ok.json"), "{}");
    symlinkSync(at("ok.json"), at("link.json"));
    expect(readInputFile(at("link.json"), "report").toString()).toBe("{}");
  });

  it("names the path of a missing file, a directory and a symlink loop", () => {
    expect(refusal(() => readInputFile(at("missing.json"), "report"))).toBe(`${at("missing.json")}: no such file`);
    mkdirSync(at("folder"));
    expect(refusal(() => readInputFile(at("folder"), "transcript"))).toMatch(/folder: is a directory, not a regular file$/);
    symlinkSync(at("loop-b"), at("loop-a"));
    symlinkSync(at("loop-a"), at("loop-b"));
    expect(refusal(() => readInputFile(at("loop-a"), "list"))).toMatch(/loop-a: too many levels of symbolic links/);
    expect(refusal(() => readInputFile(join(at("ok.json"), "x"), "list"))).toMatch(/a part of the path is not a folder/);
  });

  it.skipIf(!hasFifo)("refuses a FIFO without opening it (no writer: opening would block)", () => {
    expect(refusal(() => readInputFile(fifo, "replay"))).toMatch(/fifo\.json: is a FIFO \(named pipe\), not a regular file$/);
  });

  it.skipIf(!existsSync("/dev/zero"))("refuses a device (endless /dev/zero is never read)", () => {
    expect(refusal(() => readInputFile("/dev/zero", "report"))).toBe("/dev/zero: is a character device, not a regular file");
  });

  it("refuses a file over its kind's limit from its size, before reading it", () => {
    truncateSync((writeFileSync(at("big.txt"), ""), at("big.txt")), INPUT_LIMITS.list.maxBytes + 1);
    expect(refusal(() => readInputFile(at("big.txt"), "list"))).toMatch(/big\.txt: 1048577 bytes, larger than the clause list limit of 1 MiB$/);
    expect(readInputFile(at("big.txt"), "report")).toHaveLength(INPUT_LIMITS.list.maxBytes + 1);
  });

  it("keeps the error code of the caller (configuration files)", () => {
    try {
      readInputFile(at("missing.json"), "config", "config_invalid");
    } catch (error) {
      expect((error as KitError).code).toBe("config_invalid");
    }
  });
});

describe("text checks", () => {
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

  it("refuses NUL bytes and invalid UTF-8, with the line", () => {
    expect(refusal(() => checkText(bytes("a\nb\n\u0000"), "f"))).toBe("f: a NUL byte at byte 4: binary data, not text (line 3)");
    expect(refusal(() => checkText(new Uint8Array([0x61, 0x0a, 0xff, 0xfe]), "f"))).toBe("f: invalid UTF-8 at byte 2: binary data, not text (line 2)");
    expect(() => checkText(bytes("é ✓ 😀\r\n"), "f")).not.toThrow();
  });

  it("splits at LF, keeps CR, drops the piece after a final LF, bounds line length and count", () => {
    expect(splitLines(bytes("a\r\nb\n"), "f", "list").map((l) => Buffer.from(l).toString())).toEqual(["a\r", "b"]);
    expect(refusal(() => splitLines(bytes(`ok\n${"x".repeat(4097)}\n`), "f", "list"))).toBe("f: a line of 4097 bytes, longer than the clause list limit of 4 KiB (line 2)");
    expect(refusal(() => splitLines(bytes("\n".repeat(INPUT_LIMITS.list.maxLines + 1)), "f", "list"))).toBe("f: more than 100000 lines, the clause list limit");
  });

  it("skips a leading byte order mark only", () => {
    expect(Buffer.from(withoutBom(bytes("\ufeff{}"))).toString()).toBe("{}");
    expect(Buffer.from(withoutBom(bytes("{}\ufeff"))).toString()).toBe("{}\ufeff");
  });
});
