/**
 * The provider faults on decoding (lenient readers of requests the reference refuses), on
 * the process (time, signals, leftovers) and the crashes (the catalogue groups process,
 * robustness, fuzz only).
 */
import type { FaultParams } from "../catalogue/types.js";
import { countParam, textParam } from "../run.js";
import { at, crashNow, isObj, type MockContext, type Obj } from "../process.js";
import type { ProviderFault, ProviderHooks } from "./hooks.js";

const fixed = (hooks: ProviderHooks): ProviderFault => () => hooks;

const parse = (text: string): Obj => JSON.parse(text) as Obj;
const lenient = (when: RegExp, read: (text: string) => Obj = parse): ProviderFault => fixed({ lenient: { when, read } });
const isJsonNumber = (value: unknown): boolean => isObj(value) && value.constructor?.name === "JsonNumber";

/** Nesting depth of a parsed value (a scalar is 0). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object" || isJsonNumber(value)) return 0;
  const items: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...items.map(depthOf));
}

/** A request's number as sent (the reference reads numbers as JsonNumber). */
const numberOf = (value: unknown): number => Number(isObj(value) ? value.value : value);

/** The delay parameter: ms, or budget+N (N ms past the request's budget_ms). */
function delayOf(spec: string, request: Obj): number {
  const budget = /^budget(?:\+(\d+))?$/.exec(spec);
  return budget === null ? Number(spec) : numberOf(request.budget_ms) + Number(budget[1] ?? 0);
}

/**
 * Which invocations slow-invoke slows: `*` every one; the default invoke-1 is the kit's first
 * invocation when the kit runs the mock, and every invocation under any other host; otherwise
 * the one with that request_id.
 */
function selectsInvoke(id: string, request: Obj, ctx: MockContext): boolean {
  if (request.method !== "invoke") return id === request.request_id;
  if (id === "*" || (id === "invoke-1" && !ctx.underKit)) return true;
  return request.request_id === id;
}

const crashOn = (test: (request: Obj, p: FaultParams) => boolean): ProviderFault => (p) => ({ crash: (request) => request.method === "invoke" && test(request, p) });
/** A leftover-daemon fault (../daemon.ts, loaded only then). */
const daemon = (name: string): ProviderFault => (p) => ({ startup: async () => (await import("../daemon.js")).leaveDaemon(name, countParam(p, "ms")) });

export const PROCESS_FAULTS: Readonly<Record<string, ProviderFault>> = {
  // ---- requests the reference refuses, and how the mock reads them instead
  "accept-duplicate-keys": lenient(/duplicate key/),
  "accept-malformed-json": lenient(/byte order mark|not valid UTF-8/, (text) => parse(text.replace(/^\uFEFF/, ""))),
  "accept-out-of-bounds": lenient(/1\.\.1024 characters|budget_ms must be|session_id: 1\.\.512/),
  "accept-trailing-document": lenient(/trailing data/, (text) => parse(text.slice(0, text.lastIndexOf("\n")))),
  "accept-oversized": (p, ctx) => ({ ...lenient(/exceeds 1 MiB/)(p, ctx), limit: 4 * 1024 * 1024 }),
  "accept-deep": lenient(/nesting deeper/),
  "accept-big-integers": lenient(/outside i64/),
  "accept-unknown-fields": lenient(/unknown field/),
  "accept-any-api-version": lenient(/api_version must/),
  "accept-unknown-method": lenient(/method must be/, (text) => ({ ...parse(text), method: "describe" })),
  // A missing or non-object config read as the empty policy.
  "accept-bad-config": lenient(/config must be an object|lacks "config"/, (text) => ({ ...parse(text), config: { blocked_tools: [] } })),
  "accept-malformed-config-revision": lenient(/config_revision must be/),
  "accept-bad-request-id": lenient(/request_id must be/),
  "accept-bad-allowed-effects": lenient(/allowed_effects must|unknown effect/),
  // Any other event name taken for tool.before.
  "accept-bad-event-name": lenient(/event\.name must be/, (text) => {
    const request = parse(text);
    return { ...request, event: { ...(isObj(request.event) ? request.event : {}), name: "tool.before" } };
  }),
  "accept-malformed-digest": lenient(/input_digest must be/),
  "accept-mismatched-digest": lenient(/does not match the request/),
  "accept-result-before-tool": lenient(/must have result: null/),
  // A live interval keeps the process running after it reports the rejection.
  "hang-on-trailing": fixed({
    rejected: (message) => {
      if (/trailing data/.test(message)) setInterval(() => undefined, 1 << 30);
    },
  }),
  "crash-on-deep": fixed({
    rejected: (message) => {
      if (/nesting deeper/.test(message)) crashNow();
    },
  }),

  // ---- the process
  "linger-after-unknown-key": fixed({ linger: (request) => (isObj(request.config) && Object.hasOwn(request.config, "x_awp_conformance_unknown") ? Infinity : undefined) }),
  "slow-invoke": (p, ctx): ProviderHooks => ({ delay: (request) => (selectsInvoke(textParam(p, "id"), request, ctx) ? delayOf(textParam(p, "ms"), request) : undefined) }),
  // The policy never sees budget_ms (the reference answers deadline_exceeded once it ran out), and the work takes `ms`.
  "ignore-budget": (p): ProviderHooks => ({
    request: (request) => {
      const { budget_ms: _ignored, ...rest } = request;
      return rest;
    },
    delay: (request) => (request.method === "invoke" && numberOf(request.budget_ms) < countParam(p, "ms") ? countParam(p, "ms") : undefined),
  }),
  hang: fixed({ silent: true }),
  linger: (p) => ({ linger: () => (countParam(p, "ms") === 0 ? Infinity : countParam(p, "ms")) }),
  "ignore-sigterm": fixed({ ignoreSigterm: true }),
  "leave-daemon-stdout": daemon("leave-daemon-stdout"),
  "leave-daemon-stderr": daemon("leave-daemon-stderr"),
  "leave-daemon-no-fds": daemon("leave-daemon-no-fds"),

  // ---- bugs only the fuzzer finds: the fixed scenarios never send such requests
  "crash-on-long-tool-name": crashOn((r, p) => [...String(at(r, "event", "tool", "name") ?? "")].length > countParam(p, "chars")),
  "crash-on-nesting-20": crashOn((r, p) => depthOf(at(r, "event", "tool", "input")) >= countParam(p, "depth")),
  "crash-on-input-over-50-members": crashOn((r, p) => {
    const input = at(r, "event", "tool", "input");
    return isObj(input) && !isJsonNumber(input) && Object.keys(input).length > countParam(p, "members");
  }),
};
