/** Small builders for synthetic agent-cli transcripts, for the checks' unit tests. */
import type { AgentRun } from "../../../src/core/agent-cli/checks/helpers.js";
import type { AgentMode, ModelCall, Transcript, TranscriptEvent } from "../../../src/core/agent-cli/types.js";
import type { LeftoverSweep } from "../../../src/core/process-outcome.js";

export class Script {
  readonly events: TranscriptEvent[] = [];
  private t = 0;
  private process = 0;
  private seq = 0;

  constructor(readonly scenario: string, readonly mode: AgentMode = "awp-jsonl") {}

  private tick(): number {
    this.t += 10;
    return this.t;
  }

  launch(argv: string[] = ["/opt/cli", "--model", "m"]): this {
    this.process++;
    this.events.push({ kind: "launch", t: this.tick(), process: this.process, argv, cwd: "/home/user/work", envNames: [] });
    return this;
  }

  send(line: string): this {
    this.events.push({ kind: "send", t: this.tick(), process: this.process, line });
    return this;
  }

  user(text: string, extra: unknown[] = []): this {
    return this.send(JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text }, ...extra] } }));
  }

  out(value: unknown): this {
    this.events.push({ kind: "stdout", t: this.tick(), process: this.process, line: typeof value === "string" ? value : JSON.stringify(value) });
    return this;
  }

  err(text: string): this {
    this.events.push({ kind: "stderr", t: this.tick(), process: this.process, text });
    return this;
  }

  /** A model call the fixture answered during the current turn. */
  model(call: Partial<ModelCall> = {}): this {
    const t = this.tick();
    const full: ModelCall = { seq: ++this.seq, api: "openai", method: "POST", path: "/v1/chat/completions", stream: true, authorized: true, userText: "", status: 200, replyText: "", outcome: "complete", startT: t, ...call };
    this.events.push({ kind: "model", t, process: this.process, call: full });
    return this;
  }

  deltas(...texts: string[]): this {
    this.out({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    for (const text of texts) this.out({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });
    return this.out({ type: "content_block_stop", index: 0 });
  }

  success(result?: string): this {
    return this.out({ type: "result", subtype: "success", is_error: false, session_id: "s-1", ...(result !== undefined ? { result } : {}) });
  }

  failure(fields: Record<string, unknown>): this {
    return this.out({ type: "result", is_error: true, session_id: "s-1", ...fields });
  }

  exit(code: number | null, killedByKit = false, signal: string | null = null): this {
    this.events.push({ kind: "exit", t: this.tick(), process: this.process, code, signal, killedByKit });
    return this;
  }

  /** Something the host did to the current process: closed stdin, signalled it, or stopped it. */
  action(action: "close-stdin" | "sigterm" | "sigkill" | "stop"): this {
    this.events.push({ kind: "action", t: this.tick(), process: this.process, action });
    return this;
  }

  /** The kit's look for leftovers after the current process exited. */
  leftovers(sweep: LeftoverSweep): this {
    this.events.push({ kind: "leftovers", t: this.tick(), process: this.process, ...sweep });
    return this;
  }

  transcript(): Transcript {
    return { scenario: this.scenario, mode: this.mode, events: this.events };
  }
}

export function runOf(...scripts: Script[]): AgentRun {
  return { mode: "awp-jsonl", transcripts: scripts.map((s) => s.transcript()), turnTimeoutMs: 30_000, offline: false };
}
