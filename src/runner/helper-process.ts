/**
 * What the kit's two kinds of helper process share on its side (the Node launchers,
 * launcher/client.ts, and the native spawner, native/client.ts): calls pending by id, all
 * rejected when the helper goes, and a helper that keeps the kit alive only while calls are out.
 */

/** Rejects every pending call with the failure and forgets them. */
export function rejectAll(pending: Map<number, { reject: (error: Error) => void }>, failure: Error): void {
  for (const waiting of pending.values()) waiting.reject(failure);
  pending.clear();
}

/** Something the event loop can be told to wait for, or not. */
export interface Refable {
  ref?: () => unknown;
  unref?: () => unknown;
}

/** Whether the kit's event loop waits for the helper (its process and the channels to it): while calls are out. */
export function holdOpen(handles: readonly (Refable | null | undefined)[], busy: boolean): void {
  for (const handle of handles) (busy ? handle?.ref : handle?.unref)?.call(handle);
}
