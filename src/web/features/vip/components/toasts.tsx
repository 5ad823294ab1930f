import { useCallback, useEffect, useRef, useState } from 'react';

/** Toasts vanish after 3 s. */
export const TOAST_MS = 3_000;

export interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error';
}

/** A small toast queue: `show` adds one, each leaves after TOAST_MS. */
export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);
  const show = useCallback((text: string, tone: Toast['tone'] = 'info') => {
    const id = ++next.current;
    setToasts((list) => [...list.slice(-2), { id, text, tone }]);
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setToasts((list) => list.filter((t) => t.id !== id));
    }, TOAST_MS);
    timers.current.add(timer);
  }, []);
  return { toasts, show };
}

export function ToastStack({ toasts }: { toasts: Toast[] }) {
  return (
    <div className="pointer-events-none fixed inset-x-0 top-20 z-50 flex flex-col items-center gap-2 px-4" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div
          key={t.id}
          data-testid="toast"
          className={
            'glass pointer-events-auto max-w-md rounded-2xl px-4 py-3 text-sm font-medium shadow-lg ' +
            (t.tone === 'error' ? 'border-rose-400/40 text-rose-100' : 'text-white')
          }
        >
          {t.text}
        </div>
      ))}
    </div>
  );
}
