import { useEffect, useState } from 'react';
import { TOKEN_FRAGMENT_KEY } from '../../../../contracts/auth';

/** The `#token=...` a mailed link carries ('' when none). */
export function tokenFromHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get(TOKEN_FRAGMENT_KEY) ?? '';
}

/**
 * Reads the one-time token from the address's fragment once, then takes it out of the address bar
 * and history, so it is not left in the browser's history, bookmarks or a shared screenshot.
 */
export function useFragmentToken(): string {
  const [token] = useState(() => tokenFromHash(window.location.hash));
  useEffect(() => {
    if (!window.location.hash) return;
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, []);
  return token;
}
