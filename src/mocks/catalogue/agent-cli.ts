/**
 * The agent-cli mock's faults (src/mocks/agent-cli/ implements them, one module per group),
 * with what a correct host (a Desktop launcher, a gateway driving agent CLIs) does about
 * each, in our own words, and the contract section it rests on.
 */
import type { ClauseSource } from "../../core/report/types.js";
import type { FaultEntry, FaultInfo, FaultParam, HostRule } from "./types.js";
import { entries, param, turnParam as turn } from "../run.js";

// Sections of the public contract, and of the upstream Desktop launcher where a rule is its own (src/core/clauses/sources.ts).
const contract = (section: string): ClauseSource => ({ doc: "agent-cli-protocol", section });
const launcher = (section: string): ClauseSource => ({ doc: "awp-desktop-launcher", section });
const LAUNCH = contract("Launch contract");
const INPUT = contract("Input JSONL");
const OUTPUT = contract("Output JSONL");
const RESUME = contract("Resume and delivery semantics");
const SECURITY = contract("Security boundary");
const TRANSLATOR = launcher("translateEvent");
const STOP = launcher("stopProcess");
const EXIT = launcher("startSession");

/** What a correct host does about each kind of misbehaviour (several faults share one). */
const R = {
  quietStart: { section: INPUT, does: "Does not show or keep output written before the first user line; the CLI may not answer before it accepted that line, so the first event after it belongs to the session." },
  malformedLine: { section: OUTPUT, does: "Logs a malformed stdout line as a diagnostic and skips it, then keeps reading the turn: stdout is protocol-only and malformed lines are not rendered." },
  partialLine: { section: OUTPUT, does: "Parses (or drops) an unterminated last stdout line when the process exits, without hanging; every event is meant to end with a newline." },
  outputGuard: { section: OUTPUT, does: "Stops the runtime once its unbroken stdout buffer passes 4 MiB (runtime_output_oversize) instead of buffering without bound; decodes stdout lossily and never renders such bytes." },
  unknownEvents: { section: TRANSLATOR, does: "Ignores JSON objects it does not know (no type, an unknown type) and keeps the turn going." },
  splitLines: { section: OUTPUT, does: "Cuts stdout into lines at the newline, whatever reads the bytes come in: a line split across several writes is one event, and the session goes on in the same process." },
  exitedRuntime: { section: INPUT, does: "Notices the child's exit and reports the runtime as gone (the user's next send fails visibly); it never waits for an answer from a process that has exited. The process is meant to stay alive for the conversation." },
  refusedLaunch: { section: LAUNCH, does: "Shows the failed launch with the stderr it kept (bounded), so the operator can fix the configuration (for example awp-jsonl instead of stream-json); no silent hang." },
  noInit: { section: OUTPUT, does: "Works without system/init (it is recommended, not required): the session id then comes from the result's session_id." },
  sessionIdForm: { section: RESUME, does: "Refuses to persist or pass back through --resume a session id outside [A-Za-z0-9._:-]{1,256}, and says so." },
  oneId: { section: RESUME, does: "Keeps one opaque id per thread and decides which one it persists; a changing id must not split the conversation or resume the wrong history." },
  oneTerminal: { section: OUTPUT, does: "Takes the first terminal event as the end of the turn: a second result must not end the next turn or show as another answer. Exactly one terminal event is required per accepted user turn." },
  turnOrder: { section: RESUME, does: "Matches terminal events to the turns it wrote, in order, and writes one stdin line per accepted send; the CLI owns how it schedules its model requests." },
  exitMidTurn: { section: OUTPUT, does: "Treats an exit before the terminal event as an abnormal mid-turn failure: the turn ends visibly failed, never as a success, and is not replayed." },
  rawStop: { section: TRANSLATOR, does: "Takes a raw message_stop as the end of the turn, like a success result: the turn is done, without an error and without the result's usage or text." },
  errorResult: { section: TRANSLATOR, does: "Treats a result with is_error true as a failure whatever its subtype; the error text is result when it is a string, else cc_<subtype>, else cc_error." },
  errorText: { section: OUTPUT, does: "Shows the failure without relying on result being a stable machine-readable code; free text is displayed, not parsed." },
  usage: { section: OUTPUT, does: "Checks usage counts (non-negative integers) before adding them up or showing them." },
  blocks: { section: OUTPUT, does: "Renders streamed blocks by their index and copes with a delta for a block it never saw start, or two open blocks, without crashing or losing text." },
  toolProgress: { section: OUTPUT, does: "Shows tool progress when it comes (an assistant tool_use block or a raw content_block_start) and never needs it to finish a turn; AWP renders it, it does not run the tool." },
  wellFormedInput: { section: INPUT, does: "Writes only well-formed JSON lines, one per user send; if the CLI dies anyway, it reports the exited runtime." },
  modelSide: { section: INPUT, does: "Nothing it can see on stdout: only the model's side shows it (the kit's model fixture). It is listed so host tests can run the same broken CLI the kit rejects." },
  resumeFailure: { section: RESUME, does: "Shows a failed resumed turn as failed (fail-visible); it does not silently retry without --resume or replay the turn." },
  resumeId: { section: RESUME, does: "Persists the id the CLI reports after a resume (or warns that it changed); it never assumes the id it passed is the one kept." },
  history: { section: RESUME, does: "Does not copy history itself: the CLI decides what the id restores." },
  secrets: { section: SECURITY, does: "Treats the CLI's stderr as possibly secret: keeps it bounded and out of shared logs and traces; secrets reach the CLI through the environment, never prefix arguments." },
  slowTurn: { section: INPUT, does: "Lets a slow turn run (the contract sets no time for an answer) and gives the user a way to stop it: SIGTERM, then SIGKILL after a grace." },
  unanswered: { section: OUTPUT, does: "Bounds its wait for an answer (a stop the user can trigger, then SIGTERM and SIGKILL) and never credits a later result to the unanswered turn." },
  shutdown: { section: STOP, does: "After the shutdown line waits briefly (the Desktop: 500 ms), then sends SIGTERM, then SIGKILL after a grace (the Desktop: 3 s); it never waits forever." },
  sigterm: { section: INPUT, does: "Follows SIGTERM with SIGKILL after a bounded grace (the Desktop: 3 s) and reaps the child; the process must handle ordinary termination, but a host cannot rely on it." },
  eof: { section: INPUT, does: "After closing stdin, bounds its wait for the exit: SIGTERM, then SIGKILL." },
  leftoverPipe: { section: EXIT, does: "Decides the CLI ended on the child's exit, not on the end of its pipes: a grandchild holding stdout or stderr must not keep the host waiting (bounded reads; kill the process group on stop)." },
  leftoverHidden: { section: INPUT, does: "Nothing it can see: a grandchild in a new session holds none of its pipes and survives a process-group kill. Cleaning up is the CLI's job; a host may sweep by its own launch marker." },
  silent: { section: OUTPUT, does: "Bounds its wait for the first answer, then stops the runtime (SIGTERM, then SIGKILL) and shows a failure, not an endless spinner." },
  exitStatus: { section: EXIT, does: "Tells a requested end (its shutdown line, SIGTERM) from an abnormal one by whether it asked; a non-zero exit it did not ask for is reported as an abnormal end (the Desktop records nonzero_exit)." },
  bridge: { section: OUTPUT, does: "Nothing on the AWP wire: the managed-task bridge is the CLI's own business with its control plane (the kit's control-plane fixture sees it); a host only renders the tool_use it shows." },
} as const satisfies Record<string, HostRule>;

const code = (value: number): FaultParam => param("code", "count", value, "exit status");

/** The host clauses that judge a reaction (suites/host/agent-cli-reactions.yaml). */
const reaction = (id: string): string => `host/agent-cli-reactions/${id}`;
const OVERSIZE = [reaction("oversize-stops-cli")];
const GOES_ON = [reaction("bad-output-session-goes-on")];
const NO_REPLAY = [reaction("no-replay-after-failure")];
const NO_LOOP = [reaction("no-start-retry-loop")];
const DAEMON_MS = param("ms", "count", 600_000, "how long the grandchild lives");

/** The lifecycle and wire faults. */
const WIRE: readonly FaultEntry[] = [
  // ---- output
  { name: "early-output", group: "output", does: "Writes a system event on stdout at start-up, before any input line.", host: R.quietStart },
  { name: "init-after-startup", group: "output", does: "Writes a system event `ms` after start-up, before any input line: only a host that waits that long before its first send sees it.", host: R.quietStart, params: [param("ms", "count", 1000, "delay after start-up")] },
  { name: "log-on-stdout", group: "output", does: "Writes a plain-text log line on stdout right after the first event of each turn.", host: R.malformedLine, hostClauses: GOES_ON },
  { name: "partial-last-line", group: "output", does: "When stdin ends, writes a last event without its newline after the last result, then exits.", host: R.partialLine },
  { name: "huge-line", group: "output", does: "After the selected turn's result, writes `bytes` bytes of 'x' with no newline (they run into the next line).", host: R.outputGuard, params: [param("bytes", "count", 5 * 1024 * 1024, "length of the unbroken run"), turn("tools-1")], hostClauses: OVERSIZE },
  { name: "untyped-event", group: "output", does: "Before each turn's result, writes a JSON object without a type field.", host: R.unknownEvents, hostClauses: GOES_ON },
  { name: "unknown-event", group: "output", does: "Not a fault: before each turn's result, writes an event of a type the contract does not name (awp_conformance_unknown).", host: R.unknownEvents, hostClauses: GOES_ON },
  {
    name: "split-lines", group: "output", host: R.splitLines,
    does: "Not a fault: writes every stdout line in `parts` pieces, `ms` apart, so a line reaches the host across several reads.",
    params: [param("parts", "count", 3, "writes per line"), param("ms", "count", 10, "pause after each write")],
    hostClauses: GOES_ON,
  },

  // ---- session
  { name: "exit-at-start", group: "session", does: "Exits with `code` at once, before reading any input.", host: R.exitedRuntime, params: [code(0)], hostClauses: NO_LOOP },
  { name: "refused-launch", group: "session", does: "Prints a usage banner on stderr naming the stream-json flags as unknown arguments, and exits with `code` before any turn (a CLI that does not know the compatibility flags).", host: R.refusedLaunch, params: [code(1)], hostClauses: NO_LOOP },
  { name: "no-init", group: "session", does: "Never writes system/init.", host: R.noInit },
  { name: "bad-session-id", group: "session", does: "Writes session_id \"bad id!\" (outside [A-Za-z0-9._:-]{1,256}) in every event that has one.", host: R.sessionIdForm },
  { name: "changing-session-id", group: "session", does: "Every result carries another session_id than system/init.", host: R.oneId },

  // ---- turns
  { name: "double-result", group: "turns", does: "Writes every result line twice.", host: R.oneTerminal },
  { name: "prefetch-next-turn", group: "turns", does: "When a user line arrives while a turn is in flight, sends that line's model request early (its answer is thrown away; results stay in order).", host: R.turnOrder, kitOnly: "the kit's model fixture sees the early request" },
  { name: "exit-mid-turn", group: "turns", does: "In the selected turn, exits with `code` right after writing its `after`-th text delta, with no result.", host: R.exitMidTurn, params: [turn("basic-2"), param("after", "count", 1, "text deltas of the turn written before the exit"), code(1)], hostClauses: NO_REPLAY },
  { name: "success-with-is-error", group: "turns", does: "Success results carry is_error: true.", host: R.errorResult },
  { name: "error-text", group: "turns", does: "Error results carry a sentence (\"Something went wrong!\") in result instead of a stable code.", host: R.errorText },
  { name: "error-code-dotted", group: "turns", does: "Error results carry a code in another form than the upstream reference's (\"provider:http.500\": a dot, no lower-case-only rule).", host: R.errorText },
  { name: "error-code-in-subtype", group: "turns", does: "Error results have no result field; the code is only in subtype (error_during_execution), as Claude Code and Qwen Code write failures.", host: R.errorResult },
  { name: "message-stop-ends-turns", group: "turns", does: "Not a fault: ends every successful turn with a raw message_stop instead of the success result (failed turns keep their error result), as the contract lets raw streams finish.", host: R.rawStop },
  { name: "negative-usage", group: "turns", does: "Success results report output_tokens -1.", host: R.usage },
  { name: "delta-before-start", group: "turns", does: "Drops every content_block_start: deltas arrive for blocks never opened.", host: R.blocks },
  { name: "offer-no-tools", group: "turns", does: "Not a fault: a chat-only CLI whose model requests offer no tools.", host: R.toolProgress },
  { name: "hide-tool-use", group: "turns", does: "Drops the assistant events that show the model's tool calls.", host: R.toolProgress },

  // ---- resume
  { name: "error-after-resume", group: "resume", does: "A process started with --resume fails every turn with unknown_session, without showing the streamed answer.", host: R.resumeFailure, hostClauses: NO_REPLAY },
  { name: "new-id-on-resume", group: "resume", does: "Started with --resume ID, it reports session_id new-ID.", host: R.resumeId },
  { name: "forget-history", group: "resume", does: "Started with --resume, it restores no history (a fresh, empty state folder).", host: R.history, kitOnly: "the kit's model fixture sees the missing history" },

  // ---- secrets
  { name: "leak-key", group: "secrets", does: "Prints AWP_REFERENCE_API_KEY on stderr at start-up.", host: R.secrets },

  // ---- termination
  { name: "ignore-shutdown", group: "termination", does: "Ignores the {\"type\":\"shutdown\"} line.", host: R.shutdown },
  { name: "ignore-sigterm", group: "termination", does: "Ignores every SIGTERM (SIGKILL still ends it).", host: R.sigterm },
  { name: "ignore-sigterm-idle", group: "termination", does: "Ignores SIGTERM while no turn is in flight.", host: R.sigterm },
  { name: "ignore-sigterm-mid-turn", group: "termination", does: "Ignores SIGTERM while a turn is in flight.", host: R.sigterm },
  { name: "ignore-eof", group: "termination", does: "Keeps running after stdin ends.", host: R.eof },
  { name: "leave-daemon-stdout", group: "termination", does: "Starts a grandchild in a new session that holds the CLI's stdout open for `ms` after the CLI exits (its environment emptied).", host: R.leftoverPipe, params: [DAEMON_MS] },
  { name: "leave-daemon-stderr", group: "termination", does: "Starts a grandchild in a new session that holds the CLI's stderr open for `ms` after the CLI exits.", host: R.leftoverPipe, params: [DAEMON_MS] },
  { name: "leave-daemon-no-fds", group: "termination", does: "Starts a grandchild in a new session that holds none of the CLI's pipes and lives `ms`.", host: R.leftoverHidden, params: [DAEMON_MS] },

  // ---- how the process starts and ends (src/mocks/agent-cli/faults-start.ts)
  { name: "refuse-mcp-config", group: "start and exit", does: "Launched with --mcp-config, refuses to start: a startup_error result naming the flag on stdout, a line on stderr, exit `code`; without the flag it is the reference.", host: R.refusedLaunch, params: [code(1)], hostClauses: NO_LOOP },
  { name: "refuse-resume", group: "start and exit", does: "Launched with --resume, refuses to start: a startup_error result naming the flag on stdout, a line on stderr, exit `code`; without the flag it is the reference.", host: R.refusedLaunch, params: [code(1)], hostClauses: NO_LOOP },
  { name: "exit-nonzero-on-shutdown", group: "start and exit", does: "Ends on the {\"type\":\"shutdown\"} line as the reference does, but with exit status `code` instead of 0.", host: R.exitStatus, params: [code(1)] },
  { name: "exit-nonzero-on-eof", group: "start and exit", does: "Ends at the end of stdin as the reference does, but with exit status `code` instead of 0.", host: R.exitStatus, params: [code(1)] },

  // ---- never answers (replace the reference: stdin is never read, so nothing of it is recorded)
  { name: "silent", group: "never answers", does: "Prints nothing, never reads stdin, and stays up until it is killed.", host: R.silent },
  {
    name: "binary-garbage", group: "never answers", seeded: true, host: R.outputGuard,
    does: "Says so on stderr, then writes `bytes` random bytes (never a newline) on stdout every `ms` ms; never reads stdin, stays up until killed.",
    params: [param("bytes", "count", 512, "bytes per write"), param("ms", "count", 250, "time between writes")],
  },
];

const MODEL = "the kit's model fixture sees it";
const BRIDGE = "needs the kit's control-plane fixture and its managed-task scenario";

/** Input lines, what reaches the model or comes back from it, the managed-task bridge, the fuzz-only size bugs. */
const MODEL_SIDE: readonly FaultEntry[] = [
  // ---- input
  { name: "exit-on-malformed", group: "input", does: "Exits 1 when a non-blank input line is not JSON.", host: R.wellFormedInput },
  { name: "mcp-path-as-prompt", group: "input", does: "Appends the --mcp-config path to the user's text sent to the model.", host: R.modelSide, kitOnly: "the kit's model fixture sees the prompt" },
  { name: "drop-text", group: "input", does: "Sends the model \"(empty)\" instead of the selected turn's text.", host: R.modelSide, kitOnly: MODEL, params: [turn("content-1")] },
  { name: "drop-image", group: "input", does: "Silently removes image blocks from user lines.", host: R.modelSide, kitOnly: MODEL },
  { name: "drop-document", group: "input", does: "Silently removes document blocks from user lines.", host: R.modelSide, kitOnly: MODEL },
  { name: "drop-unsupported", group: "input", does: "Silently removes blocks of an unknown type (the kit's awp_conformance_probe) instead of refusing them.", host: R.modelSide, kitOnly: MODEL },

  // ---- consistency with the model's side
  { name: "last-round-usage", group: "consistency", does: "Reports only the usage of a turn's last model round.", host: R.usage, kitOnly: "the kit's model fixture knows the true usage" },
  { name: "invented-tool-id", group: "consistency", does: "Shows each tool call under an id of its own instead of the model's.", host: R.toolProgress, kitOnly: MODEL },
  { name: "overlapping-blocks", group: "consistency", does: "After a block's first delta, opens a second text block while the first is open and streams the rest there.", host: R.blocks },
  { name: "error-after-stream", group: "consistency", does: "Streams the selected turn's whole answer, then ends it with an error result.", host: R.errorResult, params: [turn("basic-2")], hostClauses: NO_REPLAY },

  // ---- fidelity
  { name: "truncate-stream", group: "fidelity", does: "Drops the last delta of every text block.", host: R.modelSide, kitOnly: MODEL },
  { name: "truncate-result", group: "fidelity", does: "Cuts the success result's text to 10 characters.", host: R.modelSide, kitOnly: MODEL },

  // ---- model failures
  { name: "success-on-http-error", group: "failures", does: "Turns a model HTTP 5xx into a successful \"recovered\" answer.", host: R.modelSide, kitOnly: "the kit's model fixture fails on purpose" },
  { name: "success-on-timeout", group: "failures", does: "Turns a model timeout (provider_timeout) into an empty success.", host: R.modelSide, kitOnly: "the kit's model fixture stalls on purpose" },
  { name: "slow-stall-give-up", group: "failures", does: "Gives up on a silent model only after `ms` (slow, but conforming: the contract sets no time).", host: R.slowTurn, params: [param("ms", "count", 40_000, "how long it waits for a silent model")] },
  { name: "slow-turn-start", group: "failures", does: "Starts every user turn `ms` after reading it, so its model request comes that late too (slow, but conforming: the contract sets no time).", host: R.slowTurn, params: [param("ms", "count", 2000, "how long each turn waits before it starts")] },
  { name: "silent-on-turn", group: "failures", does: "Never writes the selected turn's result (it streams, then nothing); the turns after it are answered.", host: R.unanswered, params: [turn("basic-2")] },

  // ---- the managed-task bridge (one clause of agent-cli/managed-tasks each)
  { name: "managed-ignore-gate", group: "managed tasks", does: "Turns the bridge on without its opt-in whenever the control-plane URL and key are set.", host: R.bridge, kitOnly: BRIDGE },
  { name: "managed-argv-string", group: "managed tasks", does: "Splits submitted argv elements on spaces, as a shell would.", host: R.bridge, kitOnly: BRIDGE },
  { name: "managed-same-key", group: "managed tasks", does: "Gives every submission the same idempotency key.", host: R.bridge, kitOnly: BRIDGE },
  { name: "managed-key-per-submission", group: "managed tasks", seeded: true, does: "Gives every submission a fresh random idempotency key, a repeated call too.", host: R.bridge, kitOnly: BRIDGE },
  { name: "managed-result-no-id", group: "managed tasks", does: "Sends the succeeding task's result back to the model under another tool-call id.", host: R.bridge, kitOnly: BRIDGE },
  { name: "managed-uncut-output", group: "managed tasks", does: "Sends a task's 1 MiB stdout back to the model whole.", host: R.bridge, kitOnly: BRIDGE },
  { name: "managed-timeout-untold", group: "managed tasks", does: "Does not tell the model that its wait for the pending task ran out.", host: R.bridge, kitOnly: BRIDGE },
  { name: "managed-double-result-on-500", group: "managed tasks", does: "Ends twice the turn whose control plane answered 500.", host: R.oneTerminal, kitOnly: BRIDGE },
  { name: "managed-no-call-limit", group: "managed tasks", does: "Never ends the turn whose model calls the tool in every round (its error result is dropped).", host: R.unanswered, kitOnly: BRIDGE },
  { name: "managed-leak-key", group: "managed tasks", does: "Prints the control-plane key on stderr at start-up.", host: R.secrets },
  { name: "managed-hide-tool-use", group: "managed tasks", does: "Never shows the managed tool's calls on stdout.", host: R.toolProgress, kitOnly: BRIDGE },
  { name: "managed-task-type-shell", group: "managed tasks", does: "Submits tasks as task_type shell.", host: R.bridge, kitOnly: BRIDGE },
  { name: "managed-other-task-path", group: "managed tasks", does: 'Submits tasks as another task API would take them: POST {"kind":"command","argv":[...]} to /tasks.', host: R.bridge, kitOnly: BRIDGE },
  { name: "managed-other-task-body", group: "managed tasks", does: "Submits tasks to /v1/tasks with argv and the idempotency key at the top level of the body, not in payload.", host: R.bridge, kitOnly: BRIDGE },

  // ---- a CLI talking Anthropic Messages, and what the real API refuses of it (the kit's fixture refuses the same)
  { name: "anthropic-messages", group: "anthropic messages", does: "Not a fault: talks Anthropic Messages instead of chat completions (POST /v1/messages with x-api-key, anthropic-version and max_tokens; the user's blocks as given).", host: R.modelSide, kitOnly: MODEL },
  { name: "anthropic-no-version", group: "anthropic messages", does: "Talks Anthropic Messages; the selected turn's requests carry no anthropic-version header.", host: R.modelSide, kitOnly: MODEL, params: [turn("content-1")] },
  { name: "anthropic-no-max-tokens", group: "anthropic messages", does: "Talks Anthropic Messages; the selected turn's requests carry no max_tokens.", host: R.modelSide, kitOnly: MODEL, params: [turn("content-1")] },
  { name: "anthropic-bearer", group: "anthropic messages", does: "Talks Anthropic Messages; the selected turn's requests carry the key as Authorization: Bearer instead of x-api-key.", host: R.modelSide, kitOnly: MODEL, params: [turn("content-1")] },
  { name: "anthropic-empty-text", group: "anthropic messages", does: "Talks Anthropic Messages; the selected turn's user message gets an empty text block.", host: R.modelSide, kitOnly: MODEL, params: [turn("content-1")] },
  { name: "anthropic-unknown-block", group: "anthropic messages", does: "Talks Anthropic Messages; the selected turn's text goes in blocks of a made-up type, markdown, which the Messages API does not know.", host: R.modelSide, kitOnly: MODEL, params: [turn("content-1")] },
  { name: "anthropic-image-url", group: "anthropic messages", does: "Talks Anthropic Messages; images go as OpenAI image_url parts (a data: URL) instead of image blocks.", host: R.modelSide, kitOnly: MODEL },
  { name: "anthropic-file-part", group: "anthropic messages", does: "Talks Anthropic Messages; documents go as OpenAI file parts instead of document blocks.", host: R.modelSide, kitOnly: MODEL },

  // ---- size bugs only the fuzzer finds
  { name: "drop-terminal-on-line-separator", group: "fuzz only", does: "Never ends a turn whose text holds U+2028.", host: R.unanswered },
  { name: "drop-terminal-over-64k", group: "fuzz only", does: "Never ends a turn whose text passes `bytes` bytes.", host: R.unanswered, params: [param("bytes", "count", 65_536, "text size that triggers it")] },
  { name: "silent-over-12-blocks", group: "fuzz only", does: "Never ends a turn with more than `blocks` content blocks.", host: R.unanswered, params: [param("blocks", "count", 12, "block count that triggers it")] },
  { name: "exit-on-text-over-100k", group: "fuzz only", does: "Exits 1 on a user line whose text passes `bytes` bytes.", host: R.exitedRuntime, params: [param("bytes", "count", 100 * 1024, "text size that triggers it")] },
];

export const AGENT_CLI_CATALOGUE: readonly FaultInfo[] = entries("agent-cli", [...WIRE, ...MODEL_SIDE]);
