/**
 * The generator thread's entry (generator-thread.ts): makes the campaign's cases with the same
 * fast-check run a campaign makes them with on its own thread (CaseStream: the same seed, the
 * same range, so the same cases in the same order), and sends each packed (packed.ts), at most
 * `ahead` more than the campaign has taken.
 */
import { parentPort, workerData } from "node:worker_threads";
import { CaseStream } from "../cases.js";
import { providerCaseArb } from "./hostile.js";
import { packCase } from "./packed.js";
import type { GeneratorJob, ToCampaign, ToGenerator } from "./generator-thread.js";

async function generate(job: GeneratorJob, port: NonNullable<typeof parentPort>): Promise<void> {
  const stream = new CaseStream(providerCaseArb(job.ctx), job.seed, job.from, job.to);
  let credit = job.ahead;
  let stopped = false;
  let wake: (() => void) | undefined;
  port.on("message", (message: ToGenerator) => {
    if (message.type === "taken") credit++;
    else {
      stopped = true;
      stream.stop();
    }
    wake?.();
  });
  const send = (message: ToCampaign, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
  try {
    for (;;) {
      while (credit === 0 && !stopped) await new Promise<void>((resolve) => (wake = resolve));
      if (stopped) break;
      const taken = await stream.take();
      if (taken === undefined) break;
      credit--;
      const transfer: ArrayBuffer[] = [];
      const packed = packCase(taken.value, transfer);
      send({ type: "case", index: taken.index, packed }, transfer);
    }
    send({ type: "end" });
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    send({ type: "error", message: failure.message, ...(failure.stack !== undefined ? { stack: failure.stack } : {}) });
  } finally {
    port.close();
  }
}

if (parentPort !== null) await generate(workerData as GeneratorJob, parentPort);
