import { describe, expect, it } from 'vitest';
import { parseImportCsv } from './bulk-import-service';

const HEADER = 'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source';
const row = (i: number, firstName: string) => `m${i}@example.test,${firstName},Lee,DHR1,active,2027-01-31,3,patreon`;

describe('parseImportCsv, read in steps', () => {
  it('keeps a character outside the BMP whole where a step of the file ends', async () => {
    // Filler rows, then one whose name ends with an emoji whose two halves sit on both sides of the
    // 65,536th character, where the first step of the file ends.
    const lines = [HEADER];
    const nameStart = () => lines.join('\n').length + 1 + 'm9999@example.test,'.length;
    for (let i = 0; nameStart() < 64 * 1024 - 1 - 95; i++) lines.push(row(i, 'Filler'));
    const pad = 'x'.repeat(64 * 1024 - 1 - nameStart());
    lines.push(row(9999, `${pad}🎧`));
    expect(lines.join('\n').charCodeAt(64 * 1024 - 1)).toBe('🎧'.charCodeAt(0));
    const csv = lines.join('\n');
    const parsed = await parseImportCsv(csv);
    expect(parsed.errors).toEqual([]);
    const last = parsed.rows.at(-1);
    expect(last?.email).toBe('m9999@example.test');
    expect(last?.firstName?.endsWith('🎧')).toBe(true);
    expect(parsed.rows.every((r) => !r.firstName?.includes('\uFFFD'))).toBe(true);
  });

  it('reads a 10,000-row file as the whole file would read', async () => {
    const csv = [HEADER, ...Array.from({ length: 10_000 }, (_, i) => row(i, i % 7 ? 'Ada' : 'Zoë 🎶'))].join('\n');
    const parsed = await parseImportCsv(csv);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toHaveLength(10_000);
    expect(parsed.rows[7]?.firstName).toBe('Zoë 🎶');
    expect(parsed.rows[9_999]?.row).toBe(10_001);
  });
});
