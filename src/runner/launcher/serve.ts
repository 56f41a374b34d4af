/**
 * The launcher process: a small Node process that does nothing but run provider calls for
 * the kit (runner/process.ts, unchanged) and send back what they gave. Node spawns
 * synchronously (fork + exec) and a fork costs more the larger the forking process is and
 * the more it does between spawns; the kit, with its schemas, generators and judges loaded,
 * is neither small nor idle, so it hands every launch to this process.
 *
 * When the kit goes away (the IPC channel closes), or SIGTERM or SIGHUP ends this process,
 * every process group still running is killed first. SIGINT is the kit's to act on.
 */
import { launchForKit } from "../launch-start.js";
import { knowLaunchers } from "../leftovers.js";
import { groupsGone, killAllGroups, liveGroupIds } from "../process-group.js";
import { restoreMallocEnv } from "../malloc-env.js";
import { copyProcessEnv } from "../process.js";
import { callInProcess, type CallResult } from "../provider/call.js";
import { asBuffer, type LaunchReply, type LaunchRequest } from "./messages.js";
import { removeSpool, spoolOf, takeSpooled } from "./spool.js";

// The kit's pid (argv[2]): the launch markers are the kit's, as if it had launched them itself.
launchForKit(Number(process.argv[2]));

const send = (reply: LaunchReply): void => {
  if (process.connected) process.send?.(reply);
};

/** Past this many bytes of requests and output since the last collection, collect (when --expose-gc gave the means). */
const COLLECT_AFTER_BYTES = 8 * 1024 * 1024;
let sinceCollection = 0;
const collect = (globalThis as { gc?: () => void }).gc;

function counted(bytes: number): void {
  sinceCollection += bytes;
  if (collect === undefined || sinceCollection < COLLECT_AFTER_BYTES) return;
  sinceCollection = 0;
  collect();
}

// The environment this process was started with is the kit's (once its own malloc setting is
// put back), and does not change: copied once, not on every call (a call that names its own
// environment keeps it).
restoreMallocEnv();
const kitEnv = copyProcessEnv();

/**
 * The kit's spool directory, once a big request came through it: removed here when the channel
 * closes (the kit gone, or done with its launchers). A signal leaves it to the kit, whose own
 * handlers remove it as it exits; another launcher of the kit may still be reading from it.
 */
let spool: string | undefined;

const textOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A request's bytes: sent along, or spooled (spool.ts). */
function requestOf(message: LaunchRequest): Buffer {
  if (message.spooled === undefined) return asBuffer(message.request);
  spool ??= spoolOf(message.spooled);
  return takeSpooled(message.spooled);
}

process.on("message", (message: LaunchRequest) => {
  knowLaunchers(message.launchers);
  let request: Buffer;
  try {
    request = requestOf(message);
  } catch (error) {
    send({ id: message.id, error: `the launcher could not read the spooled request: ${textOf(error)}` });
    return;
  }
  void callInProcess(message.argv, request, { ...message.options, env: message.options.env ?? kitEnv }).then(
    (result: CallResult) => {
      send({ id: message.id, result });
      counted(request.byteLength + result.stdout.byteLength + result.stderr.byteLength);
    },
    (error: unknown) => send({ id: message.id, error: textOf(error) }),
  );
});

// The kit let this launcher go (the run ended, or it was interrupted): the candidates of calls still out
// get SIGKILL, and the launcher stays until they are gone (bounded), so none outlives it; the kit waits
// for the launcher (client.ts close).
process.on("disconnect", () => {
  const groups = liveGroupIds();
  killAllGroups();
  removeSpool(spool);
  void groupsGone(groups, GONE_WAIT_MS).finally(() => process.exit(0));
});

/** How long a launcher let go waits for the candidates it killed to be gone. */
const GONE_WAIT_MS = 2000;

// A Ctrl-C reaches every process of the terminal's process group, this one too: the kit decides
// (core/interrupt.ts: it lets the calls out come back and reports), and if it goes, so does its
// channel, and with it this process and its candidates (above).
process.on("SIGINT", () => undefined);

for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  process.on(signal, () => {
    killAllGroups();
    process.exit(code);
  });
}
