import type { ByteRange } from './media-storage';

/** What a `Range` header asks of a representation of `size` bytes (RFC 9110 §14). */
export type RangeRequest = { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * One `bytes=` range: `a-b`, `a-` or the suffix `-n`. A header we do not understand, or several
 * ranges, is answered with the whole representation, as RFC 9110 allows; a range that starts past
 * the end is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'whole' };
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header);
  if (!m) return { kind: 'whole' };
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: 'unsatisfiable' };
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  return { kind: 'partial', range: { start, end } };
}
