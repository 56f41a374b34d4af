import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROBE_BLOCK_TYPE } from "../../../core/agent-cli/scenarios.js";
import { TINY_PDF, TINY_PNG } from "../attachments.js";
import type { ScenarioContext } from "../context.js";

export async function basic(ctx: ScenarioContext): Promise<void> {
  // The long watch for output before the first line (--quiet-window): real CLIs take seconds to start.
  const s = await ctx.start({}, ctx.quietWindowMs);
  await ctx.turn(s, "Say hello.", { turn: "basic-1", reply: 'Hello from the kit\'s model.\nA second line: é ✓ 😀 "quoted" \\ and a tab\t.' });
  await ctx.turn(s, "Write a long answer.", { turn: "basic-2", bytes: 20_000 });
  ctx.closeStdin(s);
  await ctx.waitExit(s, ctx.turnTimeoutMs, "exit after the end of stdin");
}

/**
 * Three turns written back to back while the first is answered: each gets its own terminal
 * event, in order (a CLI that merges queued lines into one turn leaves one unanswered).
 */
export async function queued(ctx: ScenarioContext): Promise<void> {
  const s = await ctx.start();
  let from = s.lines.length;
  const tags = ["queued-1", "queued-2", "queued-3"];
  ctx.send(s, ctx.userLine("First queued question.", { turn: "queued-1", bytes: 400, slowMs: 20 }));
  ctx.send(s, ctx.userLine("Second queued question.", { turn: "queued-2", reply: "Second answer." }));
  ctx.send(s, ctx.userLine("Third queued question.", { turn: "queued-3", reply: "Third answer." }));
  for (const tag of tags) {
    // The first unanswered one stops the scenario; an exit ends it.
    const terminal = await ctx.awaitTerminal(s, from, `turn ${ctx.countTurn()} (${tag})`);
    if (terminal === undefined) return;
    from = terminal.index + 1;
  }
}

/**
 * The content turns. Prompts and turn tags never name a block (no "image", "document", media
 * type or probe type, and the fixture's replies echo only the tag), so a CLI that echoes the
 * prompt does not look as if it named the block it received.
 */
export const CONTENT_TURNS = { text: "content-1", image: "content-2", document: "content-3", mixed: "content-4" } as const;

export async function content(ctx: ScenarioContext): Promise<void> {
  const s = await ctx.start();
  await ctx.turn(s, "Plain text question awp-text-7f3a.", { turn: CONTENT_TURNS.text });
  await ctx.turn(s, "What do you make of this?", { turn: CONTENT_TURNS.image }, [{ type: "image", source: { type: "base64", media_type: "image/png", data: TINY_PNG } }]);
  await ctx.turn(s, "Please have a look at this.", { turn: CONTENT_TURNS.document }, [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: TINY_PDF } }]);
  const probe = { type: PROBE_BLOCK_TYPE, marker: "awp-probe-alone-5c1e" };
  await ctx.ask(s, JSON.stringify({ type: "user", message: { role: "user", content: [probe] } }), "the unsupported-block turn");
  await ctx.turn(s, "Here is one more thing.", { turn: CONTENT_TURNS.mixed }, [{ type: PROBE_BLOCK_TYPE, marker: "awp-probe-mixed-9d2b" }]);
}

export async function malformed(ctx: ScenarioContext): Promise<void> {
  const s = await ctx.start();
  await ctx.turn(s, "Before the malformed lines.", { turn: "malformed-1" });
  for (const line of ["this is not json", "[1,2,3]", '{"type":"user"}', '{"kind":"user","text":"no type field"}']) {
    // Answering a malformed line is optional; wait a little for an answer so it is attributed to it.
    await ctx.exchange(s, line, "an optional answer to a malformed line", 1500);
  }
  await ctx.turn(s, "After the malformed lines.", { turn: "malformed-2" });
}

export async function tools(ctx: ScenarioContext): Promise<void> {
  // Something harmless to read, should the CLI's read tool look in its working folder.
  writeFileSync(join(ctx.setup.cwd, "README.md"), "# awp-conformance\n\nA file the tools scenario may read.\n");
  const s = await ctx.start();
  // The fixture calls read_file if the CLI offered it, else another read-only tool it offered, else none.
  await ctx.turn(s, "Read the README.", { turn: "tools-1", tool: "read_file" });
}

export async function mcp(ctx: ScenarioContext): Promise<void> {
  const path = join(ctx.setup.cwd, "awp-mcp-config.json");
  writeFileSync(path, `${JSON.stringify({ mcpServers: {} })}\n`);
  const s = await ctx.start({ mcpConfig: path });
  await ctx.turn(s, "A turn with an MCP configuration.", { turn: "mcp-1" });
}
