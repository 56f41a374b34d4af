// session.mjs: the CLI's private conversation history, one file per session.
//
// The session id is OPAQUE to the Desktop: it stores whatever id our
// `system/init` event announced and hands it back later as `--resume <id>`.
// What the id restores is entirely up to the CLI. This reference keeps the
// OpenAI `messages` array of every finished turn in
//
//   <state dir>/sessions/<id>.json
//
// and sends it in front of the next user message, so a resumed process
// continues the same conversation. The Desktop never sees or copies it.
//
// Writes are "same-filesystem replace" writes: the new history goes to a temp
// file in the same directory, is flushed, and is renamed over the old file.
// rename() within one filesystem is atomic, so a crash mid-write leaves either
// the old or the new history, never half a file.

import { randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { StartupError } from "./codes.mjs";

/** A fresh id. The `ref-` prefix and the UUID both fit [A-Za-z0-9._:-]. */
export function newSessionId() {
  return `ref-${randomUUID()}`;
}

export function sessionFile(stateDir, id) {
  // The id pattern allows no "/" or "\\", so it cannot leave the directory.
  // ":" is not a valid file name character on Windows; escape it there only.
  const name = process.platform === "win32" ? id.replaceAll(":", "%3A") : id;
  return join(stateDir, "sessions", `${name}.json`);
}

/**
 * Loads the history of a session. A missing file is an empty history (the
 * Desktop may resume an id whose first turn never finished). A file that
 * exists but cannot be used is a startup error: silently starting over would
 * hide the loss of the conversation.
 */
export async function loadHistory(stateDir, id) {
  let text;
  try {
    text = await readFile(sessionFile(stateDir, id), "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return [];
    throw new StartupError("session_state_unreadable", `cannot read session history (${error.code ?? "error"})`);
  }
  let messages;
  try {
    messages = JSON.parse(text);
  } catch {
    messages = null;
  }
  if (!Array.isArray(messages) || !messages.every((m) => m !== null && typeof m === "object" && typeof m.role === "string")) {
    throw new StartupError("session_state_invalid", "the session history file is not a messages array");
  }
  return messages;
}

/** Replaces the stored history with `messages` (write temp file, then rename). */
export async function saveHistory(stateDir, id, messages) {
  const file = sessionFile(stateDir, id);
  // History can hold private prompts: keep it readable by this user only.
  await mkdir(join(stateDir, "sessions"), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  try {
    const handle = await open(temp, "w", 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(messages)}\n`, "utf8");
      await handle.sync(); // the bytes are on disk before the rename makes them visible
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}
