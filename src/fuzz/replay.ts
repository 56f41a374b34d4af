import { mkdirSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { readInputFile } from "../core/inputs/index.js";
import { shellQuote } from "../runner/provider/reproduce.js";
import { kitVersion, packageRoot } from "../core/paths.js";
import { checkReplay } from "./replay-check.js";
import type { ProviderCase, ReplayCase, SerializedProviderCase, AgentStep } from "./types.js";

export interface ReplayCandidate {
  argv: string[];
  config?: Record<string, unknown>;
  configDocument?: string;
  mode?: "awp-jsonl" | "stream-json";
  model?: string;
  env?: Record<string, string>;
  turnTimeoutMs?: number;
  timeoutMs?: number;
}

export interface ReplayFile {
  format: "awp-conformance-replay";
  version: 1;
  protocol: "provider" | "agent-cli";
  clause: string;
  message: string;
  seed: number;
  path: string;
  foundAt: string;
  tool: string;
  candidate: ReplayCandidate;
  /** Differential fuzzing (`fuzz --against`): the other provider; replay runs both and compares their answers. */
  against?: ReplayCandidate;
  /** Differential fuzzing: what differed (outcome, exit, effects, replace-text, error-code, operations). */
  aspects?: string[];
  case: SerializedProviderCase | { steps: AgentStep[] };
}

const KIT = "${kit}";

/** Environment values the kit fills in itself (loopback fixture URLs, the session's key): none runs anything from a file. */
export const KIT_ENV_VALUES: ReadonlySet<string> = new Set(["{{fixture.openai}}", "{{fixture.anthropic}}", "{{fixture.token}}", "{{fixture.controlplane}}", "{{fixture.controlplane_token}}"]);

/** Paths inside the kit become ${kit}/..., so replay files in golden/ work from any clone. */
function portable(path: string): string {
  const rel = relative(packageRoot(), path);
  return isAbsolute(path) && !rel.startsWith("..") ? `${KIT}/${rel}` : path;
}

function local(path: string): string {
  return path.startsWith(`${KIT}/`) ? join(packageRoot(), path.slice(KIT.length + 1)) : path;
}

export function serializeCase(c: ProviderCase): SerializedProviderCase {
  const text = Buffer.from(c.bytes).toString("utf8");
  const lossless = Buffer.from(text, "utf8").equals(Buffer.from(c.bytes));
  return {
    kind: c.kind,
    label: c.label,
    purpose: c.purpose,
    method: c.method,
    requestId: c.requestId,
    ...(lossless ? { text } : { base64: Buffer.from(c.bytes).toString("base64") }),
    ...(c.budgetMs !== undefined ? { budgetMs: c.budgetMs } : {}),
    ...(c.base ? { base: serializeCase(c.base) } : {}),
  };
}

export function deserializeCase(s: SerializedProviderCase): ProviderCase {
  const bytes = s.base64 !== undefined ? new Uint8Array(Buffer.from(s.base64, "base64")) : new TextEncoder().encode(s.text ?? "");
  let value: ProviderCase["value"];
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes).toString("utf8"));
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) value = parsed as ProviderCase["value"];
  } catch {
    value = undefined;
  }
  return {
    kind: s.kind,
    label: s.label,
    purpose: s.purpose,
    method: s.method,
    requestId: s.requestId,
    bytes,
    ...(value !== undefined ? { value } : {}),
    ...(s.budgetMs !== undefined ? { budgetMs: s.budgetMs } : {}),
    ...(s.base ? { base: deserializeCase(s.base) } : {}),
  };
}

export interface NewReplay {
  clause: string;
  message: string;
  seed: number;
  path: string;
  candidate: ReplayCandidate;
  replay: ReplayCase;
  against?: ReplayCandidate;
  aspects?: string[];
}

export function replayFileOf(failure: NewReplay): ReplayFile {
  return {
    format: "awp-conformance-replay",
    version: 1,
    protocol: failure.replay.protocol,
    clause: failure.clause,
    message: failure.message,
    seed: failure.seed,
    path: failure.path,
    foundAt: new Date().toISOString(),
    tool: `awp-conformance ${kitVersion()}`,
    candidate: { ...failure.candidate, argv: failure.candidate.argv.map(portable) },
    ...(failure.against !== undefined ? { against: { ...failure.against, argv: failure.against.argv.map(portable) }, aspects: failure.aspects ?? [] } : {}),
    case: failure.replay.protocol === "provider" ? failure.replay.case : { steps: failure.replay.steps },
  };
}

/**
 * The command that replays a saved case against the candidate it was found on, named
 * explicitly (replay runs no command from the file on its own); `--yes` only when the
 * candidate's environment holds values of its own, which replay would otherwise ask about.
 */
export function replayCommandLine(path: string, candidate: ReplayCandidate): string {
  const literalEnv = Object.values(candidate.env ?? {}).some((value) => !KIT_ENV_VALUES.has(value));
  const dashes = candidate.argv.slice(1).some((arg) => arg.startsWith("-")) ? ["--"] : [];
  return ["awp-conformance", "replay", path, ...(literalEnv ? ["--yes"] : []), ...dashes, ...candidate.argv].map(shellQuote).join(" ");
}

/** Writes <dir>/replays/<clause>-<seed>.json and returns its path. */
export function writeReplay(dir: string, file: ReplayFile): string {
  const folder = join(dir, "replays");
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${file.clause.replace(/\//g, "_")}-${file.seed}.json`);
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
  return path;
}

/**
 * Reads a replay file: within the replay limits, strict JSON, the replay schema and the
 * checks of replay-check.ts (what it would launch, and for how long), so that a hostile
 * file is a usage error naming what is wrong, never a crash or an endless replay.
 * Running what it names is replay-run.ts's decision, not this reader's.
 */
export function readReplay(path: string): ReplayFile {
  const file = checkReplay(readInputFile(path, "replay"), path);
  return { ...file, candidate: { ...file.candidate, argv: file.candidate.argv.map(local) }, ...(file.against !== undefined ? { against: { ...file.against, argv: file.against.argv.map(local) } } : {}) };
}
