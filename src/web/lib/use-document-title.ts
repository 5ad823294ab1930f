import { useEffect } from 'react';

export const SITE_NAME = 'Deep House Radio';
export const HOME_TITLE = 'Deep House Radio — Live Deep House, 24/7';

/** Sets the tab title for a page: "<title> — Deep House Radio", or the home title when none is given. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} — ${SITE_NAME}` : HOME_TITLE;
  }, [title]);
}
