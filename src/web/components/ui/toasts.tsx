import { lazy, Suspense, useSyncExternalStore } from 'react';

// The toasts' markup loads with the first notice: the live region is on every page, its items are not.
const ToastItems = lazy(() => import('./toast-items'));

/**
 * In-page notices, one queue for the whole app: `notify(text)` from anywhere (a mutation's result, a
 * player's error) shows a toast that leaves after TOAST_MS, never a blocking `alert()`. The layouts
 * mount one `<ToastHost />`, so a notice survives a change of page.
 */
export const TOAST_MS = 3_000;
/** Toasts shown at once; an older one leaves when a fourth arrives. */
const MAX_SHOWN = 3;

export interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error';
}

let toasts: readonly Toast[] = [];
let nextId = 0;
const listeners = new Set<() => void>();

function set(next: readonly Toast[]) {
  toasts = next;
  for (const l of listeners) l();
}

export function notify(text: string, tone: Toast['tone'] = 'info'): void {
  const id = ++nextId;
  set([...toasts.slice(-(MAX_SHOWN - 1)), { id, text, tone }]);
  setTimeout(() => set(toasts.filter((t) => t.id !== id)), TOAST_MS);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => toasts;

export function ToastHost() {
  const shown = useSyncExternalStore(subscribe, snapshot, snapshot);
  return (
    <div className="pointer-events-none fixed inset-x-0 top-20 z-50 flex flex-col items-center gap-2 px-4" role="status" aria-live="polite">
      {shown.length > 0 && (
        <Suspense fallback={null}>
          <ToastItems toasts={shown} />
        </Suspense>
      )}
    </div>
  );
}
