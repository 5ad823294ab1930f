import { useEffect } from 'react';
import { useLatest } from '../../../lib/use-latest';

/** Where a key belongs to what has focus: typing, choosing, or a control that Space presses itself. */
function keyBelongsToFocus(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return true;
  // Space presses the focused button or link (Play itself included): the page does not toggle twice.
  return key === ' ' && target.closest('button, a[href], summary, [role="button"], [role="menuitem"], [role="slider"], [role="tab"]') !== null;
}

/**
 * Space and K play or pause the site's player from anywhere on the page, except while focus is in a
 * text field, a select or editable text (and Space on a focused control presses that control).
 */
export function usePlayerKeys(toggle: () => void): void {
  const latest = useLatest(toggle);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || e.altKey || e.ctrlKey || e.metaKey) return;
      const key = e.key === ' ' ? ' ' : e.key.toLowerCase();
      if (key !== ' ' && key !== 'k') return;
      if (keyBelongsToFocus(e.target, key)) return;
      // Space would scroll the page.
      e.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [latest]);
}
