import { useCallback, useEffect, useState } from 'react';

/**
 * State kept in local storage under `key` (the cart, the wishlist): read once, written on change,
 * and followed across the visitor's other tabs.
 */
export function useStoredState<T>(key: string, parse: (stored: string | null) => T): [T, (update: (current: T) => T) => void] {
  const [value, setValue] = useState<T>(() => parse(read(key)));

  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === key) setValue(parse(e.newValue));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [key, parse]);

  const update = useCallback(
    (fn: (current: T) => T) => {
      setValue((current) => {
        const next = fn(current);
        try {
          localStorage.setItem(key, JSON.stringify(next));
        } catch {
          // Storage full or refused: the state still works for this page.
        }
        return next;
      });
    },
    [key],
  );
  return [value, update];
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
