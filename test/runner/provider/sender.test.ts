import { describe, expect, it } from "vitest";
import { performance } from "node:perf_hooks";
import type { CallOptions, CallResult } from "../../../src/runner/provider/call.js";
import { ProviderSender, RunTimedOut, shapeOf, type BatchItem, type Sent } from "../../../src/runner/provider/sender.js";
import { validateConfigRequest } from "../../../src/core/provider/requests.js";
import type { JsonObject, ProviderExchange, ProviderTranscript } from "../../../src/core/provider/types.js";

const encoder = new TextEncoder();

function transcript(): ProviderTranscript {
  return { argv: ["provider"], context: { config: {}, configGiven: true, invalidConfigsGiven: 0, secrets: [], notes: [] }, exchanges: [] };
}

function sent(id: string, extra: Partial<Sent> = {}): Sent {
  return { purpose: "hostile:malformed-json", scenario: id, method: "invoke", requestId: id, bytes: encoder.encode(id), ...extra };
}

/**
 * A stand-in for the provider call: a request "name:ms" answers after ms milliseconds (its exit
 * code the number after a third colon, 0 otherwise); it counts the calls in flight.
 */
function standIn(): { call: (argv: readonly string[], request: Uint8Array, options: CallOptions) => Promise<CallResult>; started: string[]; most: () => number } {
  let inFlight = 0;
  let most = 0;
  const started: string[] = [];
  const call = async (_argv: readonly string[], request: Uint8Array, options: CallOptions): Promise<CallResult> => {
    const text = new TextDecoder().decode(request);
    const [, ms = "0", code = "0"] = text.split(":");
    started.push(text);
    if (text.startsWith("boom")) throw new Error("the launcher process ended");
    inFlight++;
    most = Math.max(most, inFlight);
    const wait = Math.min(Number(ms), options.timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight--;
    const timedOut = Number(ms) > options.timeoutMs;
    return {
      outcome: { exitCode: timedOut ? null : Number(code), signal: timedOut ? "SIGKILL" : null, timedOut, stdoutCapped: false, stderrCapped: false, durationMs: wait, stdoutBytes: 2, stderrBytes: 0, killedByKit: timedOut },
      stdout: encoder.encode("{}"),
      stderr: new Uint8Array(0),
    };
  };
  return { call, started, most: () => most };
}

const summary = (e: ProviderExchange): string => `${e.seq} ${e.requestId}${e.controlSeq !== undefined ? ` <-${e.controlSeq}` : ""}`;

describe("ProviderSender.batch", () => {
  // The later calls answer first: the transcript still has them in the order of the batch.
  const control = sent("control-a:60", { purpose: "control" });
  const items: BatchItem[] = [
    control,
    { ...sent("probe-a1:5"), control },
    { ...sent("probe-a2:40"), control },
    sent("probe-b:1", { controlSeq: 1 }),
    sent("probe-c:20"),
  ];

  it("records calls in the batch's order with the seq they have one after another, whatever order they come back in", async () => {
    for (const jobs of [1, 2, 5]) {
      const t = transcript();
      const stand = standIn();
      const seen: number[] = [];
      const sender = new ProviderSender({ argv: ["provider"], timeoutMs: 1000, call: stand.call, onExchange: (e) => seen.push(e.seq) }, t);
      await sender.call(sent("describe:0", { purpose: "describe", method: "describe" }));
      const done = await sender.batch(items, jobs);
      expect(t.exchanges.map(summary)).toEqual(["1 describe:0", "2 control-a:60", "3 probe-a1:5 <-2", "4 probe-a2:40 <-2", "5 probe-b:1 <-1", "6 probe-c:20"]);
      expect(done.map((e) => e.seq)).toEqual([2, 3, 4, 5, 6]);
      expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
      expect(stand.most()).toBe(Math.min(jobs, items.length));
    }
  });

  it("at the run's deadline keeps the calls before the first that did not come back, and throws RunTimedOut", async () => {
    const t = transcript();
    const stand = standIn();
    // "cut" would answer long after the run's deadline: cut there, it throws RunTimedOut.
    const sender = new ProviderSender({ argv: ["provider"], timeoutMs: 5000, deadline: performance.now() + 150, call: stand.call }, t);
    await expect(sender.batch([sent("first:10"), sent("cut:10000"), sent("after:20")], 2)).rejects.toBeInstanceOf(RunTimedOut);
    // "after" came back, but it follows the call that did not: only "first" is kept.
    expect(t.exchanges.map(summary)).toEqual(["1 first:10"]);
    expect(stand.started).toEqual(["first:10", "cut:10000", "after:20"]);
  });

  it("starts no call once one failed, waits for those in flight, and throws what the call threw", async () => {
    const t = transcript();
    const stand = standIn();
    const sender = new ProviderSender({ argv: ["provider"], timeoutMs: 5000, call: stand.call }, t);
    await expect(sender.batch([sent("slow:50"), sent("boom"), sent("never:0"), sent("nor:0")], 2)).rejects.toThrow("the launcher process ended");
    expect(stand.started).toEqual(["slow:50", "boom"]);
    expect(t.exchanges.map(summary)).toEqual(["1 slow:50"]);
  });

  it("takes each item when a call can go, so items made as they are taken are made while the other calls are out", async () => {
    const events: string[] = [];
    const stand = standIn();
    const logged = async (argv: readonly string[], request: Uint8Array, options: CallOptions): Promise<CallResult> => {
      const result = await stand.call(argv, request, options);
      events.push(`back ${new TextDecoder().decode(request)}`);
      return result;
    };
    function* made(): Generator<BatchItem> {
      for (const name of ["a:30", "b:5", "c:5"]) {
        events.push(`made ${name}`);
        yield sent(name);
      }
    }
    const t = transcript();
    await new ProviderSender({ argv: ["provider"], timeoutMs: 1000, call: logged }, t).batch(made(), 2);
    // a and b go at once; c is made only when b came back, while a is still out.
    expect(events).toEqual(["made a:30", "made b:5", "back b:5", "made c:5", "back c:5", "back a:30"]);
    expect(t.exchanges.map(summary)).toEqual(["1 a:30", "2 b:5", "3 c:5"]);
  });

  it("refuses a probe whose control is not a call taken before it in the batch (a kit bug), and sends nothing after it", async () => {
    const stand = standIn();
    const t = transcript();
    const sender = new ProviderSender({ argv: ["provider"], timeoutMs: 1000, call: stand.call }, t);
    await expect(sender.batch([{ ...sent("probe:0"), control: sent("control:0") }, sent("after:0")], 1)).rejects.toThrow("came before its control");
    expect(stand.started).toEqual([]);
    expect(t.exchanges).toEqual([]);
  });

  it("sends an empty batch as nothing", async () => {
    const t = transcript();
    const stand = standIn();
    const sender = new ProviderSender({ argv: ["provider"], timeoutMs: 1000, call: stand.call }, t);
    expect(await sender.batch([], 2)).toEqual([]);
    expect(stand.started).toEqual([]);
  });
});

describe("shapeOf", () => {
  const invocation = (id: string, padding: string): JsonObject => ({ api_version: "aw-provider/v1alpha1", method: "invoke", request_id: id, event: { tool: { input: { padding } } }, input_digest: `sha256:${id}` });

  it("is the same for requests that differ only in request_id and input_digest, megabyte ones too, and differs otherwise", () => {
    const mega = "x".repeat(1 << 20);
    expect(shapeOf(invocation("a", mega))).toBe(shapeOf(invocation("b", `${mega.slice(1)}x`)));
    expect(shapeOf(invocation("a", mega))).not.toBe(shapeOf(invocation("a", `${mega.slice(1)}y`)));
    expect(shapeOf(invocation("a", "x"))).not.toBe(shapeOf(invocation("a", "y")));
    // Key order does not matter (the canonical text sorts keys); what the keys hold does.
    expect(shapeOf({ b: 1, a: 2 })).toBe(shapeOf({ a: 2, b: 1 }));
    expect(shapeOf({ a: "1" })).not.toBe(shapeOf({ a: 1 }));
  });

  it("finds a request sent before by its shape", async () => {
    const { call } = standIn();
    const sender = new ProviderSender({ argv: ["provider"], timeoutMs: 1000, call }, transcript());
    const config = (length: number): JsonObject => validateConfigRequest("v-2", { padding: "x".repeat(length) });
    const first = await sender.send("control", "the control", validateConfigRequest("v-1", { padding: "x".repeat(70_000) }));
    expect(sender.sentBefore(shapeOf(config(70_000)))).toBe(first);
    expect(sender.sentBefore(shapeOf(config(70_001)))).toBeUndefined();
  });
});
