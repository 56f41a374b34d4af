// tools.mjs: the tools this CLI offers its model, and how read_file runs.
//
//   read_file {"path": "<relative path>"}  ->  the file's text
//
// It is deliberately harmless: it only READS, only a regular file, only under
// the folder the CLI was started in (the Desktop's working folder for the
// conversation), and at most MAX_READ_BYTES of it. Absolute paths, ".." that
// leaves the folder, symbolic links that point out of it, devices, FIFOs and
// folders are refused. It never runs a command, writes or fetches anything.
//
// A tool failure is not a turn failure: the model gets a short stable code as
// the tool's result ("tool_error: <code>") and answers on.
//
// With the managed-task bridge on (bridge-config.mjs) the model is offered
// awp_run_managed_task (managed-task.mjs) as well, after read_file.

import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { MANAGED_TOOL_DEFINITION } from "./managed-task.mjs";

const MAX_READ_BYTES = 64 * 1024;
const MAX_PATH_CHARS = 4096;

/** read_file as the OpenAI chat completions request offers it. */
const READ_FILE_DEFINITIONS = [
  {
    type: "function",
    function: {
      name: "read_file",
      description: `Read a text file under the working folder (at most ${MAX_READ_BYTES} bytes).`,
      parameters: {
        type: "object",
        properties: { path: { type: "string", description: "path relative to the working folder" } },
        required: ["path"],
        additionalProperties: false,
      },
    },
  },
];

/** The tools every model request offers; `bridge`: the bridge config or null (off). */
export function toolDefinitions(bridge) {
  return bridge ? [...READ_FILE_DEFINITIONS, MANAGED_TOOL_DEFINITION] : READ_FILE_DEFINITIONS;
}

/** The names announced in system/init. */
export function toolNames(bridge) {
  return toolDefinitions(bridge).map((tool) => tool.function.name);
}

/** Runs one tool call of the model ({name, arguments}) in `root`; resolves to the text sent back. */
export async function runTool(call, root) {
  if (call.name !== "read_file") return `tool_not_available: ${call.name}`;
  let args;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return "tool_error: invalid_arguments";
  }
  const path = args?.path;
  if (typeof path !== "string" || path === "" || path.length > MAX_PATH_CHARS || path.includes("\0")) return "tool_error: invalid_arguments";
  if (isAbsolute(path)) return "tool_error: path_outside_workspace";
  return readInside(root, path);
}

async function readInside(root, path) {
  let base;
  let target;
  try {
    base = await realpath(root);
    target = await realpath(resolve(base, path));
  } catch (error) {
    return `tool_error: ${error?.code === "ENOENT" || error?.code === "ENOTDIR" ? "file_not_found" : "unreadable"}`;
  }
  // Links are followed first, then the REAL path must still be inside.
  const rel = relative(base, target);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return "tool_error: path_outside_workspace";
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    handle = await open(target, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stat = await handle.stat();
    if (!stat.isFile()) return "tool_error: not_a_regular_file";
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_READ_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    return stat.size > MAX_READ_BYTES ? `${text}\n[truncated: the file has ${stat.size} bytes]` : text;
  } catch {
    return "tool_error: unreadable";
  } finally {
    await handle?.close().catch(() => {});
  }
}
