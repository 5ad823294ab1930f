import { useCallback, useEffect, useRef, useState } from 'react';

export interface StatusMessage {
  kind: 'success' | 'error';
  text: string;
}

/** Status messages clear after 3 s, errors after 5 s. */
export const SUCCESS_MS = 3000;
export const ERROR_MS = 5000;

/** One status line for a page: a new message replaces the old one and restarts its timer. */
export function useStatusMessage() {
  const [message, setMessage] = useState<StatusMessage | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = useCallback((next: StatusMessage) => {
    clearTimeout(timer.current);
    setMessage(next);
    timer.current = setTimeout(() => setMessage(null), next.kind === 'error' ? ERROR_MS : SUCCESS_MS);
  }, []);

  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    message,
    success: useCallback((text: string) => show({ kind: 'success', text }), [show]),
    error: useCallback((text: string) => show({ kind: 'error', text }), [show]),
  };
}
