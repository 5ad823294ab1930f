import type { Toast } from './toasts';

/** The toasts themselves (loaded with the first one; see toasts.tsx). */
export default function ToastItems({ toasts }: { toasts: readonly Toast[] }) {
  return toasts.map((t) => (
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
  ));
}
