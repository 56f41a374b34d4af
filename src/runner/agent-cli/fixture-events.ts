/** What the scenario's fixtures received, as transcript events (model calls and control-plane requests). */
import type { ControlPlaneEvent, ModelEvent } from "../../core/agent-cli/types.js";
import type { ControlPlaneFixture, ModelFixture } from "../../servers/index.js";

type Unnumbered<E> = Omit<E, "process">;

/**
 * Subscribes to the fixtures: each finished model call or control-plane request becomes an
 * event, stamped with the scenario clock and its receipt time (startT). Returns the unsubscribe.
 */
export function recordFixtures(
  fixtures: { fixture: ModelFixture; controlPlane?: ControlPlaneFixture },
  origin: number,
  clock: () => number,
  record: (event: Unnumbered<ModelEvent> | Unnumbered<ControlPlaneEvent>) => void,
): () => void {
  const startT = (receivedAt: number | undefined): { startT?: number } => (receivedAt !== undefined ? { startT: Math.max(0, receivedAt - origin) } : {});
  const offModel = fixtures.fixture.onCall((call) => record({ kind: "model", t: clock(), call: { ...call, ...startT(call.receivedAt) } }));
  const offControlPlane = fixtures.controlPlane?.onRequest((request) => record({ kind: "controlplane", t: clock(), request: { ...request, ...startT(request.receivedAt) } }));
  return () => {
    offModel();
    offControlPlane?.();
  };
}
