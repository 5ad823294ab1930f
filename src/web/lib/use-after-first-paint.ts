import { startTransition, useEffect, useState } from 'react';

/**
 * False on the first render; true once the browser has painted and has a moment to spare. Content
 * below the fold renders then, as a transition that React splits into short tasks, so neither the
 * first paint nor the first tap waits for it (docs/decisions/0020-hot-path-and-first-paint.md).
 */
export function useAfterFirstPaint(timeoutMs = 2000): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const reveal = () => startTransition(() => setReady(true));
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(reveal, { timeout: timeoutMs });
      return () => window.cancelIdleCallback(id);
    }
    // Safari has no requestIdleCallback: after the next frame is painted.
    let timer = 0;
    const frame = window.requestAnimationFrame(() => {
      timer = window.setTimeout(reveal, 0);
    });
    return () => {
      window.cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [timeoutMs]);
  return ready;
}
